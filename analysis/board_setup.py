"""The analysis board's set-up: a position being edited by clicks, kept whole in one XGID.

While it is set up a position may be one no game reaches (a side with no checkers yet), so the
set-up holds the XGID's fields as they are and says what stops them from being analysed
(``problem``) instead of refusing them. Pure: no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from backgammon.engine import (
    CHECKERS,
    InvalidIdError,
    MatchState,
    Position,
    Side,
    encode_xgid,
    state_from_xgid,
    xgid_layouts,
    xgid_position_text,
)
from backgammon.engine.board import BAR, STANDARD_LAYOUT

__all__ = ["BoardSetup", "Tool"]

_BAR_INDEX = 24


class Tool(StrEnum):
    """What a click on a point does."""

    BLACK = "black"
    WHITE = "white"
    REMOVE = "remove"


@dataclass(frozen=True, slots=True)
class BoardSetup:
    """The fields of an XGID, Black as X, each side's layout in its own numbering, bar last."""

    black: tuple[int, ...]
    white: tuple[int, ...]
    on_roll: Side = Side.BLACK
    dice: str = "00"
    """Two digits, ``00`` before the roll, ``D`` for a double waiting for an answer."""
    cube_log: int = 0
    cube_owner: Side | None = None
    score_black: int = 0
    score_white: int = 0
    length: int = 0
    flags: int = 0
    """Crawford (1) in a match; Jacoby (1) plus beavers (2) in money play."""

    @classmethod
    def starting(cls) -> BoardSetup:
        return cls(STANDARD_LAYOUT, STANDARD_LAYOUT)

    @classmethod
    def empty(cls) -> BoardSetup:
        return cls((0,) * 25, (0,) * 25)

    @classmethod
    def from_xgid(cls, xgid: str) -> BoardSetup:
        """The fields as written (InvalidIdError for a text that is not an XGID at all)."""
        text = xgid.strip()
        if text.upper().startswith("XGID="):
            text = text[5:]
        fields = text.split(":")
        if len(fields) not in (9, 10):
            raise InvalidIdError("An XGID has ten fields separated by colons")
        black, white = xgid_layouts(fields[0])
        dice = fields[4].strip().upper() or "00"
        if dice not in ("00", "D", "B") and not re.fullmatch("[1-6]{2}", dice):
            raise InvalidIdError(f"The dice {dice[:10]!r} are not a roll: two digits from 1 to 6, 00 or D")
        try:
            numbers = [int(fields[index]) for index in (1, 5, 6, 7, 8)]
            turn, owner = int(fields[3]), int(fields[2])
        except ValueError:
            raise InvalidIdError("An XGID's cube, turn, scores and length are numbers") from None
        if turn not in (1, -1) or owner not in (0, 1, -1):
            raise InvalidIdError("An XGID's turn is 1 or -1 and its cube owner 0, 1 or -1")
        if min(numbers) < 0 or max(numbers) > 99:
            raise InvalidIdError("An XGID's cube, scores and length are numbers from 0 to 99")
        return cls(
            black, white, Side.BLACK if turn == 1 else Side.WHITE, dice,
            numbers[0], None if owner == 0 else Side.BLACK if owner == 1 else Side.WHITE,
            numbers[1], numbers[2], numbers[4], numbers[3],
        )

    @classmethod
    def from_state(cls, state: MatchState) -> BoardSetup:
        return cls.from_xgid(encode_xgid(state))

    @property
    def xgid(self) -> str:
        owner = "0" if self.cube_owner is None else "1" if self.cube_owner is Side.BLACK else "-1"
        fields = [xgid_position_text(self.black, self.white), str(self.cube_log), owner,
                  "1" if self.on_roll is Side.BLACK else "-1", self.dice, str(self.score_black),
                  str(self.score_white), str(self.flags), str(self.length), "10"]
        return "XGID=" + ":".join(fields)

    @property
    def cube_value(self) -> int:
        return 1 << self.cube_log

    @property
    def jacoby(self) -> bool:
        return not self.length and bool(self.flags & 1)

    @property
    def beavers(self) -> bool:
        return not self.length and bool(self.flags & 2)

    @property
    def position(self) -> Position:
        """The board from Black's side, as the page draws it."""
        return Position(self.black, self.white)

    def state(self) -> MatchState:
        """The state to analyse; InvalidIdError saying what stops it."""
        return state_from_xgid(self.xgid)

    @property
    def problem(self) -> str:
        """Why this set-up cannot be analysed, or ""."""
        try:
            self.state()
        except InvalidIdError as error:
            return str(error)
        return ""

    def clicked(self, point: int, tool: Tool) -> BoardSetup:
        """The set-up after a click on Black's ``point`` (1-24, or 25 for the bar): add a checker
        of the tool's colour (clearing the other colour from a point first), or remove one."""
        black, white = list(self.black), list(self.white)
        if point == BAR:
            if tool is Tool.REMOVE:
                side = black if black[_BAR_INDEX] else white
                side[_BAR_INDEX] = max(0, side[_BAR_INDEX] - 1)
            else:
                side = black if tool is Tool.BLACK else white
                if sum(side) < CHECKERS:
                    side[_BAR_INDEX] += 1
            return replace(self, black=tuple(black), white=tuple(white))
        mine, theirs, index = (black, white, point - 1)
        their_index = 24 - point  # Black's point p is White's point 25 - p
        if tool is Tool.REMOVE:
            if mine[index]:
                mine[index] -= 1
            elif theirs[their_index]:
                theirs[their_index] -= 1
        elif tool is Tool.BLACK and sum(black) < CHECKERS:
            theirs[their_index] = 0
            mine[index] += 1
        elif tool is Tool.WHITE and sum(white) < CHECKERS:
            mine[index] = 0
            theirs[their_index] += 1
        return replace(self, black=tuple(black), white=tuple(white))

    def full(self, tool: Tool) -> bool:
        """The tool's colour has all its checkers on the board: a click adds nothing."""
        side = self.black if tool is Tool.BLACK else self.white if tool is Tool.WHITE else None
        return side is not None and sum(side) >= CHECKERS
