"""The interop command: list the legal plays of a position and roll, for people and other engines.

    python -m backgammon.engine plays POSITION_ID DICE [--variant CODE]
    python -m backgammon.engine plays --batch [--variant CODE] < cases

The batch path is the one other engines are timed against, so it skips the value objects: it
decodes IDs with string operations, runs the integer search of ``plays`` and encodes each result
ID from cached halves. ``legal_plays`` is the reference it must agree with (see the tests).

>>> import io
>>> out = io.StringIO()
>>> run_single("4HPwATDgc/ABMA", "65", out, race=False)
0
>>> print(out.getvalue().replace(chr(9), " -> "), end="")
24/13 -> 4HPwAyDgc/ABMA
24/18 13/8 -> 4PPgQSDgc/ABMA
24/18 8/3 -> xGfwQSDgc/ABMA
13/8 13/7 -> 4OvBATDgc/ABMA
13/7 8/3 -> xNfgATDgc/ABMA
13/2 -> wufgATDgc/ABMA
8/3 8/2 -> ik/wATDgc/ABMA
"""

from __future__ import annotations

import sys
from binascii import Error as Base64Error
from binascii import a2b_base64, b2a_base64
from operator import mul

from .errors import EngineError, InvalidIdError
from .movegen import BAR_SHIFT, Board, search

TYPE_CHECKING = False  # the batch path imports neither typing nor dataclasses: start-up is timed
if TYPE_CHECKING:
    from argparse import ArgumentParser
    from collections.abc import Iterable, Sequence
    from typing import TextIO

__all__ = ["main", "result_ids", "run_batch", "run_single"]

USAGE_ERROR = 2
_DICE = {f"{a}{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}
_RACE_VARIANTS = {"BR", "BS"}


def _decode(position_id: str) -> tuple[Board, list[int], list[int]]:
    """(my board, opponent per my point, opponent layout) of a Position ID, checked.

    Anything unusual goes through Position.from_id, whose error message names the problem.
    """
    try:
        raw = a2b_base64(position_id + "==", strict_mode=True) if len(position_id) == 14 else b""
    except Base64Error:
        raw = b""
    runs = format(int.from_bytes(raw, "little"), "080b")[::-1].split("0") if raw else []
    theirs = list(map(len, runs[:25]))
    mine = list(map(len, runs[25:50]))
    opp = [0, *theirs[23::-1], 0]
    off = 15 - sum(mine)
    # Each side's checkers must fit in 15, and no point may hold checkers of both sides.
    if len(runs) <= 50 or off < 0 or sum(theirs) > 15 or any(map(mul, mine[:24], opp[1:25])):
        from .board import Position

        Position.from_id(position_id)  # raises the precise error
        raise InvalidIdError(f"{position_id!r} is not a valid Position ID")
    return int.from_bytes(bytes((off, *mine)), "little"), opp, theirs


class _ReversedBits(dict[int, str]):
    """The ID bits of six points packed a byte each, most significant first; computed once."""

    def __missing__(self, run: int) -> str:
        text = self[run] = "".join([_REVERSED_ONES[count] for count in run.to_bytes(6, "big")])
        return text


_REVERSED_ONES = ["0" + "1" * count for count in range(16)]
_RUNS = _ReversedBits()
_SIX_POINTS = (1 << 48) - 1


def result_ids(board: Board, opp: list[int], theirs: list[int], waiting: int,
               dice: tuple[int, int]) -> list[str]:
    """The Position IDs, opponent on roll, of every legal play; one per distinct position."""
    found = search(board, opp, waiting, dice)
    halves: dict[int, str] = {}
    ids = []
    runs = _RUNS
    six = _SIX_POINTS
    ones = _REVERSED_ONES
    encode = b2a_base64
    for mover, hits, _ in found:
        half = halves.get(hits)
        if half is None:
            half = halves[hits] = _their_half(theirs, hits)
        # The ID is the mover's 25 places then the opponent's, least significant bit first:
        # written most significant first, that is the opponent's half, then the mover's bar and
        # points from 24 down, in runs of six points whose bits are cached.
        bits = "".join((half, ones[mover >> 200], runs[mover >> 152 & six],
                        runs[mover >> 104 & six], runs[mover >> 56 & six], runs[mover >> 8 & six]))
        ids.append(encode(int(bits, 2).to_bytes(10, "little"))[:14].decode())
    return ids


def _their_half(theirs: list[int], hits: int) -> str:
    # The opponent's half of the ID changes only when the play hits: computed once per hit set.
    layout = list(theirs)
    for point in range(1, 25):
        if hits >> point & 1:
            layout[24 - point] = 0
            layout[24] += 1
    return "".join([_REVERSED_ONES[count] for count in reversed(layout)])


def _dice(text: str) -> tuple[int, int]:
    dice = _DICE.get(text)
    if dice is None:
        raise EngineError(f"{text!r} is not a roll: write two digits from 1 to 6, like 31 or 66")
    return dice


def run_batch(lines: Iterable[str], out: TextIO, race: bool) -> int:
    """Answer each ``POSITION_ID DICE`` line; stop at the first bad one, naming its line number."""
    answers: list[str] = []
    decoded: dict[str, tuple[Board, list[int], list[int]]] = {}
    number = 0
    try:
        for number, line in enumerate(lines, start=1):
            fields = line.split()
            if len(fields) != 2:
                raise EngineError(f"Expected 'POSITION_ID DICE', got {line.strip()!r}")
            case = decoded.get(fields[0])
            if case is None:
                case = decoded[fields[0]] = _decode(fields[0])
            board, opp, theirs = case
            ids = result_ids(board, opp, theirs, board >> BAR_SHIFT if race else 0, _dice(fields[1]))
            ids.sort()
            answers.append(" ".join(ids))
    except EngineError as error:
        out.write("".join(answer + "\n" for answer in answers))
        out.flush()
        print(f"line {number}: {error}", file=sys.stderr)
        return USAGE_ERROR
    out.write("".join(answer + "\n" for answer in answers))
    return 0


def run_single(position_id: str, dice_text: str, out: TextIO, race: bool) -> int:
    """Print each legal play as NOTATION<TAB>RESULT_ID."""
    from .board import Position
    from .notation import format_play
    from .plays import legal_plays

    position = Position.from_id(position_id)
    if race:
        position = Position(position.mine, position.theirs, position.mine[24], position.theirs[24])
    plays = legal_plays(position, _dice(dice_text))
    out.writelines(f"{format_play(p) or '(no move)'}\t{p.result.swapped().id}\n" for p in plays)
    return 0


def _parser() -> ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m backgammon.engine",
        description="Backgammon rules engine commands (GNU Backgammon Position IDs).")
    commands = parser.add_subparsers(dest="command", required=True)
    plays = commands.add_parser(
        "plays", help="list the legal plays of a position and roll",
        description="List every legal play, one per distinct resulting position. With "
        "POSITION_ID and DICE: one line per play, 'NOTATION<TAB>RESULT_ID' ('(no move)' when "
        "no checker can move). With --batch: read 'POSITION_ID DICE' lines from standard input "
        "and write, for each, the sorted distinct RESULT_IDs separated by spaces. RESULT_ID is "
        "the Position ID after the play with the opponent on roll. DICE is two digits 1-6 in "
        "either order (31, 13, 66). Bad input, blank batch lines included, stops with a message "
        "on standard error (with the line number in batch mode) and exit status 2.")
    plays.add_argument("position_id", nargs="?", metavar="POSITION_ID",
                       help="GNU Backgammon Position ID, player on roll as gnubg defines it")
    plays.add_argument("dice", nargs="?", metavar="DICE", help="the roll, e.g. 31")
    plays.add_argument("--batch", action="store_true", help="read cases from standard input")
    plays.add_argument("--variant", default="BX", metavar="CODE",
                       help="variant code (default BX); in BR and BS every checker on the bar is "
                       "taken as still waiting from the start")
    return parser


def _is_race(code: str) -> bool:
    """Whether the variant starts every checker on the bar; an EngineError for an unknown code."""
    if code == "BX":
        return False  # the default: no need to load the variant registry (start-up is timed)
    from .variants import find_variant

    return find_variant(code).code in _RACE_VARIANTS


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (2 for bad input, with a message on stderr)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        race = _is_race(args.variant)
        if args.batch:
            if args.position_id is not None:
                parser.error("--batch reads its cases from standard input: give no POSITION_ID")
            return run_batch(sys.stdin, sys.stdout, race)
        if args.position_id is None or args.dice is None:
            parser.error("give POSITION_ID and DICE, or --batch")
        return run_single(args.position_id, args.dice, sys.stdout, race)
    except EngineError as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
