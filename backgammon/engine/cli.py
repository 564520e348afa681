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
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

from .board import Position
from .errors import EngineError, InvalidIdError
from .plays import Board, search

if TYPE_CHECKING:
    from argparse import ArgumentParser

__all__ = ["main", "result_ids", "run_batch", "run_single"]

USAGE_ERROR = 2
_ONES = ["1" * count + "0" for count in range(16)]
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
    bits = format(int.from_bytes(raw, "little"), "080b")[::-1].split("0") if raw else []
    theirs = [len(run) for run in bits[:25]]
    mine = [len(run) for run in bits[25:50]]
    opp = [0] * 26
    opp[1:25] = theirs[23::-1]
    if len(bits) <= 50 or sum(mine) > 15 or sum(theirs) > 15 or any(
            mine[point - 1] and opp[point] for point in range(1, 25)):
        Position.from_id(position_id)  # raises the precise error
        raise InvalidIdError(f"{position_id!r} is not a valid Position ID")
    return (15 - sum(mine), *mine), opp, theirs


def result_ids(board: Board, opp: list[int], theirs: list[int], waiting: int,
               dice: tuple[int, int]) -> list[str]:
    """The Position IDs, opponent on roll, of every legal play; one per distinct position."""
    found = search(board, opp, waiting, dice)
    halves: dict[int, str] = {}
    ids = []
    ones = _ONES
    for state in found:
        mover, hits, _ = state
        half = halves.get(hits)
        if half is None:
            half = halves[hits] = _their_half(theirs, hits)
        bits = "".join([ones[count] for count in mover[1:]]) + half
        ids.append(b2a_base64(int(bits[::-1], 2).to_bytes(10, "little"))[:14].decode())
    return ids


def _their_half(theirs: list[int], hits: int) -> str:
    # The opponent's half of the ID changes only when the play hits: computed once per hit set.
    layout = list(theirs)
    for point in range(1, 25):
        if hits >> point & 1:
            layout[24 - point] = 0
            layout[24] += 1
    return "".join([_ONES[count] for count in layout])


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
                raise EngineError(f"expected 'POSITION_ID DICE', got {line.strip()!r}")
            case = decoded.get(fields[0])
            if case is None:
                case = decoded[fields[0]] = _decode(fields[0])
            board, opp, theirs = case
            ids = result_ids(board, opp, theirs, board[25] if race else 0, _dice(fields[1]))
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (2 for bad input, with a message on stderr)."""
    from .variants import find_variant

    parser = _parser()
    args = parser.parse_args(argv)
    try:
        race = find_variant(args.variant).code in _RACE_VARIANTS
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
