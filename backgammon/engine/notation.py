"""Move text in the usual backgammon notation, as GNU Backgammon writes it: both ways.

Moves are listed from the highest origin; a checker moving on is written once (``24/13``), with the
points where it hit on its way (``13/7*/1``); identical moves are grouped (``24/18(2)``); ``bar``
and ``off`` name the bar and bearing off.

>>> from .board import Position
>>> start = Position.initial()
>>> format_play(parse_play(start, (6, 5), "24/18/13"))
'24/13'
>>> parse_moves("bar/22* 6/off 13/7/1 8/5(2)")
((25, 22), (6, 0), (13, 7), (7, 1), (8, 5), (8, 5))
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from .board import Position
from .errors import InvalidNotationError
from .plays import Move, Play, find_play

__all__ = ["format_moves", "format_play", "format_steps", "parse_moves", "parse_play"]

_POINT = r"(?:bar|off|\d{1,2})"
_TOKEN = re.compile(rf"({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")


def _point_text(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def format_play(play: Play) -> str:
    """The play in standard notation; ``""`` for a play with no move.

    >>> from .board import Position
    >>> format_play(parse_play(Position.initial(), (6, 6), "24/18 24/18 13/7 13/7"))
    '24/18(2) 13/7(2)'
    """
    return format_steps(play.moves)


def format_moves(moves: Sequence[tuple[int, int]]) -> str:
    """Bare (origin, destination) pairs in standard notation, without hit marks.

    >>> format_moves([(6, 0), (25, 22)])
    'bar/22 6/off'
    """
    return format_steps([Move(origin, dest, False) for origin, dest in moves])


def format_steps(moves: Sequence[Move]) -> str:
    """Checker moves (a whole play or the steps of one being built) in standard notation."""
    # A checker that moves on from where another move ended is written as one path; any checker
    # arriving there gives the same position, so chaining never changes the meaning.
    paths: list[list[Move]] = []
    for move in sorted(moves, key=lambda m: (-m.origin, -m.destination)):
        for path in paths:
            if path[-1].destination == move.origin:
                path.append(move)
                break
        else:
            paths.append([move])
    paths.sort(key=lambda p: (-p[0].origin, -p[-1].destination))
    texts = [_path_text(path) for path in paths]
    grouped: list[str] = []
    for index, text in enumerate(texts):
        if index and text == texts[index - 1]:
            continue
        count = texts.count(text)
        grouped.append(f"{text}({count})" if count > 1 else text)
    return " ".join(grouped)


def _path_text(path: list[Move]) -> str:
    parts = [_point_text(path[0].origin)]
    for index, move in enumerate(path):
        if move.hit or index == len(path) - 1:
            parts.append(_point_text(move.destination) + ("*" if move.hit else ""))
    return "/".join(parts)


def parse_moves(text: str) -> tuple[tuple[int, int], ...]:
    """The (origin, destination) pairs written in ``text``; ``()`` for an empty text.

    Accepts ``bar`` or ``25``, ``off`` or ``0`` in any case, chains (``13/7/1``), repeats
    (``24/18(2)``) and ignores hit marks (``*``). Raises InvalidNotationError otherwise.

    >>> parse_moves("BAR/20 13/7*(2)")
    ((25, 20), (13, 7), (13, 7))
    """
    moves: list[tuple[int, int]] = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        match = _TOKEN.fullmatch(token)
        if match is None:
            raise InvalidNotationError(
                f"Not a move: {token!r}. Write moves like 13/9, bar/22, 6/off or 24/18(2)")
        points = [_point_value(part, token) for part in match.group(1).split("/")]
        repeat = int(match.group(2) or 1)
        if not 1 <= repeat <= 4:
            raise InvalidNotationError(f"A move repeats 1 to 4 times, not as in {token!r}")
        chain = list(itertools.pairwise(points))
        moves.extend(chain * repeat)
    return tuple(moves)


def _point_value(part: str, token: str) -> int:
    name = part.rstrip("*").lower()
    if name == "bar":
        return 25
    if name == "off":
        return 0
    value = int(name)
    if value > 25:
        raise InvalidNotationError(f"There is no point {value} (in {token!r}): points run 1 to 24")
    return value


def parse_play(position: Position, dice: tuple[int, int], text: str) -> Play:
    """The legal play that ``text`` describes; InvalidNotationError or IllegalPlayError otherwise.

    >>> from .board import Position
    >>> parse_play(Position.initial(), (3, 1), "8/5 6/5").result.mine[4]
    2
    """
    return find_play(position, dice, parse_moves(text))
