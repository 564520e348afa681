"""Generate the GNU Backgammon reference data for the engine's cross-check test and benchmark.

Run once by hand (about a minute) from the repository root:

    .venv/bin/python tools/gnubg_reference.py

It writes
    tests/engine/data/gnubg_plays.txt      CATEGORY POSITION_ID DICE RESULT_ID ... (results sorted)
    tests/engine/data/gnubg_moves.txt.gz   POSITION_ID DICE<TAB>gnubg move text per result, same order
    bench/cases_engine.txt                 5,000 lines POSITION_ID DICE, drawn with a fixed seed

Cases come from games gnubg plays against itself from the standard and the Nackgammon layouts (each
side picks gnubg's best play or a random legal one, and a second random roll is recorded beside the
one played) plus every roll of constructed positions for the rare phases: checkers on the bar against
0 to 6 closed points, bear-off with a checker on the bar after a hit, bear-off with and without
contact, and checkers stuck behind primes. A category is the phase, with a suffix when the roll
cannot be played in full: ``/nomove``, ``/onedie`` (only one die can be played), ``/higherdie``
(either die alone but not both: the higher must be played) and ``/partdouble`` (fewer than four
moves of a double). Cases are unique per (position, roll); the run is deterministic (fixed seed).

The expected results come from gnubg's ``findbestmoves`` (one entry per distinct resulting
position). Its move tuples are applied to the board by ``apply_moves`` below, written independently of
the engine. The binding cuts a tuple at its first bear-off (see /work/shared/notes/gnubg.md), so
whenever a tuple is cut, or a bear-off is within reach, the full moves come from gnubg's text ``hint``
command instead, parsed with ``gnubg.parsemove``; the two sources are checked against each other.
"""

from __future__ import annotations

import gzip
import os
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from gnubg_text import gnubg_command

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

Side = tuple[int, ...]
"""25 checker counts in the side's own numbering: index p - 1 for point p, index 24 the bar."""
Board = tuple[Side, Side]
"""gnubg's board order: (opponent, player on roll)."""

ROOT = Path(__file__).resolve().parent.parent
PLAYS_FILE = ROOT / "tests/engine/data/gnubg_plays.txt"
MOVES_FILE = ROOT / "tests/engine/data/gnubg_moves.txt.gz"
BENCH_FILE = ROOT / "bench/cases_engine.txt"
SEED = 20261122
BENCH_CASES = 5000
ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
STANDARD: Side = tuple({24: 2, 13: 5, 8: 3, 6: 5}.get(index + 1, 0) for index in range(25))
NACKGAMMON: Side = tuple(
    {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}.get(index + 1, 0) for index in range(25))
EVAL = gnubg.evalcontext(0, 0, 0, 1, 0)
CUBE = gnubg.cubeinfo()
BAR_INDEX = 24


# ---------------------------------------------------------------- applying gnubg's moves


def apply_moves(board: Board, moves: Sequence[tuple[int, int]]) -> Board:
    """The board after the player on roll makes ``moves`` ((from, to), 25 = bar, to <= 0 = off),
    returned as the next player sees it: (mover after, opponent after), gnubg's order."""
    opponent, mover = list(board[0]), list(board[1])
    for source, target in moves:
        if mover[source - 1] <= 0:
            raise ValueError(f"no checker on {source} to move in {gnubg.positionid(board)}")
        mover[source - 1] -= 1
        if target <= 0:
            continue
        mover[target - 1] += 1
        # The opponent's point 25 - target is index 24 - target of its tuple.
        if opponent[24 - target] == 1:
            opponent[24 - target] = 0
            opponent[BAR_INDEX] += 1
        elif opponent[24 - target] > 1:
            raise ValueError(f"{source}/{target} lands on a made point")
    return tuple(mover), tuple(opponent)


def tuple_pairs(move: Sequence[int]) -> list[tuple[int, int]]:
    """The (from, to) pairs of a findbestmoves tuple (flat, complete)."""
    return [(move[i], move[i + 1]) for i in range(0, len(move), 2)]


# ---------------------------------------------------------------- gnubg's text interface


class TextHint:
    """gnubg's ``hint`` command, whose output goes to C stdio on file descriptor 1."""

    _LINE = re.compile(r"^\s*\d+\.\s+\S+\s+\d+-ply\s+(.+?)\s+Eq\.:", re.MULTILINE)

    def __init__(self) -> None:
        # Threads 1: with worker threads, hint never returns inside the Python module.
        for command in (
            "set threads 1", "set display off", "set sound enable off",
            "set player 0 human", "set player 1 human",
            "set automatic move off", "set automatic bearoff off",
            "set evaluation chequerplay evaluation plies 0",
            "set evaluation chequerplay evaluation prune off", "new game",
        ):
            self.command(command)

    def command(self, text: str) -> str:
        """Run a gnubg command and return what it printed."""
        return gnubg_command(text)

    def moves(self, position_id: str, dice: tuple[int, int], count: int) -> list[str]:
        """The move texts of gnubg's ``hint`` for ``count`` plays (all of them)."""
        shown = re.search(r"Position ID: (\S+)", self.command(f"set board {position_id}"))
        if shown is None or shown.group(1) != position_id:
            raise AssertionError(f"gnubg refused the board {position_id}")
        self.command(f"set dice {dice[0]}{dice[1]}")
        return self._LINE.findall(self.command(f"hint {count}"))


# ---------------------------------------------------------------- reference results


@dataclass(frozen=True)
class Reference:
    """gnubg's legal plays of one case: result ID -> (next board, gnubg move text), best first."""

    results: dict[str, tuple[Board, str]]
    dice_used: int
    from_hint: bool


def bear_off_reachable(board: Board, dice: tuple[int, int]) -> bool:
    """True when the player on roll might bear a checker off during this roll."""
    outside = sum(board[1][6:])
    return outside <= (3 if dice[0] == dice[1] else 1)


def text_dice(pairs: Sequence[tuple[int, int]], dice: tuple[int, int]) -> int:
    """Dice used by a play written as text, where one pair may span several dice (24/20)."""
    used = 0
    for source, target in pairs:
        distance = source - max(target, 0)
        if dice[0] == dice[1]:
            used += -(-distance // dice[0])
        else:
            used += 2 if distance > max(dice) or (target > 0 and distance == sum(dice)) else 1
    return used


def reference(board: Board, dice: tuple[int, int], hint: TextHint) -> Reference:
    """gnubg's legal results for a board and roll, checked for internal consistency."""
    position_id = gnubg.positionid(board)
    entries = [entry["move"] for entry in gnubg.findbestmoves(board, CUBE, EVAL, dice)]
    if not entries:
        after = (board[1], board[0])
        return Reference({gnubg.positionid(after): (after, "(no move)")}, 0, False)
    cut = [len(move) % 2 == 1 for move in entries]
    longest = max(len(move) for move in entries)
    short = any(len(move) < longest for move in entries)
    results: dict[str, tuple[Board, str]] = {}
    dice_used = max((len(move) + 1) // 2 for move in entries)
    if any(cut) or short or bear_off_reachable(board, dice):
        texts = hint.moves(position_id, dice, len(entries))
        for text in texts:
            pairs = [(int(source), int(target)) for source, target in gnubg.parsemove(text)]
            after = apply_moves(board, pairs)
            results[gnubg.positionid(after)] = (after, text)
            dice_used = max(dice_used, text_dice(pairs, dice))
        for move, is_cut in zip(entries, cut):
            if not is_cut and gnubg.positionid(apply_moves(board, tuple_pairs(move))) not in results:
                raise AssertionError(f"{position_id} {dice}: findbestmoves {move} not in hint {texts}")
        from_hint = True
    else:
        for move in entries:
            after = apply_moves(board, tuple_pairs(move))
            results[gnubg.positionid(after)] = (after, gnubg.movetupletostring(move, board))
        from_hint = False
    if len(results) != len(entries):
        raise AssertionError(f"{position_id} {dice}: {len(entries)} entries, {len(results)} results")
    return Reference(results, dice_used, from_hint)


def can_play_die(board: Board, die: int) -> bool:
    """Whether the player on roll can move some checker by ``die`` (bar first, bear-off rules)."""
    opponent, mover = board

    def open_point(target: int) -> bool:
        return opponent[24 - target] < 2

    if mover[BAR_INDEX]:
        return open_point(25 - die)
    all_home = not any(mover[6:])
    for point in range(1, 25):
        if not mover[point - 1]:
            continue
        target = point - die
        if target >= 1 and open_point(target):
            return True
        if target <= 0 and all_home and (target == 0 or not any(mover[point:6])):
            return True
    return False


def roll_feature(board: Board, dice: tuple[int, int], ref: Reference) -> str:
    """The category suffix of a roll that cannot be played in full ('' when it can)."""
    if ref.dice_used == 0:
        return "/nomove"
    if dice[0] == dice[1]:
        return "/partdouble" if ref.dice_used < 4 else ""
    if ref.dice_used >= 2:
        return ""
    return "/higherdie" if all(can_play_die(board, die) for die in dice) else "/onedie"


# ---------------------------------------------------------------- phases


def contact(board: Board) -> bool:
    """True while some checker of one side still has to pass a checker of the other."""
    opponent, mover = board
    mine = [point for point in range(1, 26) if mover[point - 1]]
    theirs = [point for point in range(1, 26) if opponent[point - 1]]
    return bool(mine and theirs) and max(mine) + max(theirs) > 25


def phase(board: Board, ply: int | None = None) -> str:
    """The phase of the game for the player on roll; ``ply`` counts turns from the start."""
    opponent, mover = board
    if ply is not None and ply < 4:
        return "opening"
    if mover[BAR_INDEX] and sum(mover) < 15:
        return "bearoff-bar"
    if mover[BAR_INDEX]:
        return f"bar{sum(1 for count in opponent[:6] if count >= 2)}"
    if not any(mover[6:]):
        return "bearoff-contact" if contact(board) else "bearoff-race"
    return "contact" if contact(board) else "race"


# ---------------------------------------------------------------- sources of positions


@dataclass
class Case:
    category: str
    board: Board
    dice: tuple[int, int]
    ref: Reference

    @property
    def position_id(self) -> str:
        return str(gnubg.positionid(self.board))

    @property
    def dice_text(self) -> str:
        return f"{self.dice[0]}{self.dice[1]}"


class Collector:
    """Cases keyed by (position, roll): the first category given to a case is kept."""

    def __init__(self, hint: TextHint) -> None:
        self.hint = hint
        self.cases: dict[tuple[str, tuple[int, int]], Case] = {}

    def add(self, board: Board, dice: tuple[int, int], label: str) -> Reference:
        dice = (max(dice), min(dice))
        key = (gnubg.positionid(board), dice)
        if gnubg.positionfromid(key[0]) != board:  # raises on more than 15 checkers a side
            raise AssertionError(f"{key[0]} does not round-trip")
        if any(board[1][point - 1] and board[0][24 - point] for point in range(1, 25)):
            raise AssertionError(f"{key[0]}: both sides on one point")
        case = self.cases.get(key)
        if case is None:
            ref = reference(board, dice, self.hint)
            case = self.cases[key] = Case(label + roll_feature(board, dice, ref), board, dice, ref)
        return case.ref


def roll(rng: random.Random, opening: bool = False) -> tuple[int, int]:
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if not (opening and dice[0] == dice[1]):
            return (max(dice), min(dice))


def self_play(collector: Collector, rng: random.Random, games: int, extra_rolls: int,
              start: Side = STANDARD) -> None:
    """Games gnubg plays with itself; each side picks the best play, a random one, or a mix."""
    for _ in range(games):
        chance = [rng.choice([0.0, 0.3, 1.0]) for _ in range(2)]  # chance of a random play
        board: Board = (start, start)
        for ply in range(500):
            label = phase(board, ply)
            dice = roll(rng, opening=ply == 0)
            ref = collector.add(board, dice, label)
            for _ in range(extra_rolls):
                collector.add(board, roll(rng), label)
            boards = [after for after, _ in ref.results.values()]
            board = rng.choice(boards) if rng.random() < chance[ply % 2] else boards[0]
            if not any(board[0]):  # the side that just played bore off its last checker
                break


def scatter(rng: random.Random, side: list[int], count: int, points: Sequence[int],
            blocked: Sequence[int], stack: int = 4) -> None:
    """Put ``count`` checkers on ``points`` (own numbering), avoiding the ``blocked`` points."""
    free = [point for point in points if point not in blocked]
    for _ in range(count):
        choices = [point for point in free if side[point - 1] < stack] or free
        side[rng.choice(choices) - 1] += 1


def mirror(points: Sequence[int]) -> list[int]:
    """The same points in the other side's numbering."""
    return [25 - point for point in points]


def occupied(side: Sequence[int]) -> list[int]:
    return [point for point in range(1, 25) if side[point - 1]]


def bar_position(rng: random.Random, closed: int) -> Board:
    """The player on roll has checkers on the bar; the opponent's home board has ``closed`` points."""
    opponent = [0] * 25
    made = rng.sample(range(1, 7), closed)
    for point in made:
        opponent[point - 1] = 2 + (rng.random() < 0.3 and closed < 6)
    for point in set(range(1, 7)) - set(made):
        opponent[point - 1] = rng.choice([0, 0, 1])
    scatter(rng, opponent, 15 - sum(opponent), range(7, 25), [])
    mover = [0] * 25
    mover[BAR_INDEX] = rng.choice([1, 1, 1, 2, 2, 3])
    scatter(rng, mover, 15 - mover[BAR_INDEX], range(1, 25), mirror(occupied(opponent)))
    return tuple(opponent), tuple(mover)


def bear_off_position(rng: random.Random, with_contact: bool, on_bar: bool) -> Board:
    """The player on roll is bearing off (``on_bar``: after a hit, a checker on the bar)."""
    mover = [0] * 25
    off = rng.randint(1, 12) if on_bar else rng.randint(0, 12)
    opponent = [0] * 25
    if with_contact:
        # Opponent checkers in my home board (its points 19..24) keep the contact.
        for point in rng.sample(range(19, 25), rng.randint(1, 2)):
            opponent[point - 1] = rng.choice([1, 2, 2])
        for point in rng.sample(range(1, 7), rng.randint(0, 4)):
            opponent[point - 1] = 2
    scatter(rng, opponent, 15 - sum(opponent) - rng.randint(0, 3),
            range(1, 19) if with_contact else range(1, 13), [])
    mover[BAR_INDEX] = 1 if on_bar else 0
    scatter(rng, mover, 15 - off - mover[BAR_INDEX], range(1, 7), mirror(occupied(opponent)), 6)
    return tuple(opponent), tuple(mover)


def prime_position(rng: random.Random) -> Board:
    """One to three checkers of the player on roll behind a prime of four to six points; the rest
    mostly stuck deep in the home board, so that often only part of the roll can be played."""
    opponent = [0] * 25
    length = rng.randint(4, 6)
    start = rng.randint(2, 18 - length)  # the prime's lowest point in the mover's numbering
    prime = list(range(start, start + length))
    for point in mirror(prime):
        opponent[point - 1] = 2
    mover = [0] * 25
    back = rng.randint(1, 3)
    scatter(rng, mover, back, range(start + length, 25), [], 2)
    # The opponent's other checkers: in front of the prime, or behind it beside my back checkers.
    front = list(range(3, start)) or list(range(start + length, 25))
    scatter(rng, opponent, 15 - sum(opponent), mirror(front), mirror(occupied(mover)))
    deep = [1, 2] if rng.random() < 0.7 else [1, 2, 3, 4]
    scatter(rng, mover, 15 - back - rng.randint(0, 3), deep, mirror(occupied(opponent)), 8)
    return tuple(opponent), tuple(mover)


def constructed(collector: Collector, rng: random.Random) -> None:
    """Every roll of constructed positions for the phases games rarely reach."""
    sources: list[tuple[str | None, int, Callable[[], Board]]] = [
        (None, 12, lambda: bar_position(rng, 0)),
        (None, 12, lambda: bar_position(rng, 1)),
        (None, 12, lambda: bar_position(rng, 2)),
        (None, 12, lambda: bar_position(rng, 3)),
        (None, 12, lambda: bar_position(rng, 4)),
        (None, 12, lambda: bar_position(rng, 5)),
        (None, 6, lambda: bar_position(rng, 6)),
        (None, 30, lambda: bear_off_position(rng, True, True)),
        (None, 15, lambda: bear_off_position(rng, False, True)),
        (None, 20, lambda: bear_off_position(rng, True, False)),
        (None, 20, lambda: bear_off_position(rng, False, False)),
        ("prime", 50, lambda: prime_position(rng)),
    ]
    for label, count, make in sources:
        for _ in range(count):
            board = make()
            for dice in ROLLS:
                collector.add(board, dice, label or phase(board))


def fill_rolls(collector: Collector, rng: random.Random) -> None:
    """Give every phase every roll: add missing rolls to a random position of that phase."""
    by_phase: dict[str, list[Board]] = defaultdict(list)
    rolls: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for case in list(collector.cases.values()):
        name = case.category.split("/")[0]
        by_phase[name].append(case.board)
        rolls[name].add(case.dice)
    for name, boards in sorted(by_phase.items()):
        for dice in ROLLS:
            if dice not in rolls[name]:
                collector.add(rng.choice(boards), dice, name)


# ---------------------------------------------------------------- output


def write(collector: Collector, rng: random.Random) -> None:
    cases = sorted(collector.cases.values(), key=lambda c: (c.category, c.position_id, c.dice))
    plays_lines, move_lines = [], []
    for case in cases:
        ids = sorted(case.ref.results)
        plays_lines.append(" ".join([case.category, case.position_id, case.dice_text, *ids]))
        texts = [case.ref.results[result][1] for result in ids]
        move_lines.append("\t".join([f"{case.position_id} {case.dice_text}", *texts]))
    PLAYS_FILE.parent.mkdir(parents=True, exist_ok=True)
    PLAYS_FILE.write_text("".join(line + "\n" for line in plays_lines))
    # mtime=0 keeps the file byte-identical from one run to the next.
    with open(MOVES_FILE, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write("".join(line + "\n" for line in move_lines).encode())
    BENCH_FILE.write_text("".join(f"{pid} {dice}\n" for pid, dice in bench_sample(cases, rng)))


def bench_sample(cases: list[Case], rng: random.Random) -> Iterator[tuple[str, str]]:
    """5,000 cases from every phase: each phase in proportion, at least 150 where it has them."""
    by_phase: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_phase[case.category.split("/")[0]].append(case)
    quota = {name: min(len(group), max(150, BENCH_CASES * len(group) // len(cases)))
             for name, group in by_phase.items()}
    while sum(quota.values()) > BENCH_CASES:
        largest = max(quota, key=quota.__getitem__)
        quota[largest] -= 1
    chosen = [case for name in sorted(by_phase) for case in rng.sample(by_phase[name], quota[name])]
    taken = {id(case) for case in chosen}
    rest = [case for case in cases if id(case) not in taken]
    chosen += rng.sample(rest, BENCH_CASES - len(chosen))
    rng.shuffle(chosen)
    for case in chosen:
        # Half the lines give the lower die first: the batch command takes either order.
        dice = case.dice_text if rng.random() < 0.5 else case.dice_text[::-1]
        yield case.position_id, dice


def main() -> int:
    rng = random.Random(SEED)
    hint = TextHint()
    collector = Collector(hint)
    for dice in ROLLS:
        collector.add((STANDARD, STANDARD), dice, "opening")
    self_play(collector, rng, games=int(os.environ.get("GAMES", "62")), extra_rolls=1)
    self_play(collector, rng, games=8, extra_rolls=1, start=NACKGAMMON)
    constructed(collector, rng)
    fill_rolls(collector, rng)
    write(collector, rng)
    counts = Counter(case.category for case in collector.cases.values())
    hinted = sum(case.ref.from_hint for case in collector.cases.values())
    print(f"{len(collector.cases)} cases ({hinted} through gnubg's hint text)", file=sys.stderr)
    for name, count in sorted(counts.items()):
        print(f"  {name:28} {count}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
