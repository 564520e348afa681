"""GNU Backgammon Match IDs: 66 bits of match and cube state, base64, 12 characters.

The fields, from the least significant bit of the first byte on (gnubg's ``MatchIDFromKey``):
cube value as log2 (4 bits), cube owner (2: player 0, player 1, or 3 for centred), player on roll
(1), Crawford game (1), game state (3), turn: who must decide now (1), double offered (1),
resignation offered (2), the dice (3 + 3, the higher die first; 0 when not rolled), match length (15, 0 for money play),
score of player 0 (15) and of player 1 (15); gnubg then adds one bit set when the Jacoby rule is
NOT in use (always set in match play), making 67 bits. Player 0 is our ``Side.BLACK``.

>>> info = decode_match_id("cAgAAAAAAAAA")
>>> info.cube_value, info.cube_owner, info.dice
(1, None, (0, 0))
>>> encode_match_id(info)
'cAgAAAAAAAAA'
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum

from .board import PerSide, Side
from .errors import InvalidIdError

__all__ = ["GameState", "MatchIdInfo", "decode_match_id", "encode_match_id"]


class GameState(IntEnum):
    """gnubg's game state field."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


# (field name, width in bits), in the order gnubg packs them from bit 0 upward.
_FIELDS = (
    ("cube_log", 4),
    ("owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die0", 3),
    ("die1", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)
_CENTRED = 3
_MAX_SCORE = (1 << 15) - 1


@dataclass(frozen=True, slots=True)
class MatchIdInfo:
    """Everything a Match ID holds, in the engine's words.

    ``player_on_roll`` is the side whose turn it is in the game (gnubg's fMove); ``turn`` is the
    side who must make the next decision (gnubg's fTurn): the opponent while a double or a
    resignation is waiting for an answer.
    """

    cube_value: int
    cube_owner: Side | None
    player_on_roll: Side
    crawford: bool
    game_state: GameState
    turn: Side
    double_offered: bool
    resign_level: int
    dice: tuple[int, int]
    match_length: int
    score: PerSide[int]
    jacoby: bool = False
    """The Jacoby rule is in force (money play only)."""

    def __post_init__(self) -> None:
        value = self.cube_value
        if value < 1 or value & (value - 1) or value > 1 << 15:
            raise InvalidIdError(f"A cube of {value} cannot be written in a Match ID")
        if not 0 <= self.resign_level <= 3:
            raise InvalidIdError(f"Resignation level {self.resign_level} is not 0 to 3")
        if not all(0 <= die <= 6 for die in self.dice) or (0 in self.dice and self.dice != (0, 0)):
            raise InvalidIdError(f"Dice {self.dice} are neither a roll nor (0, 0)")
        for number in (self.match_length, *self.score):
            if not 0 <= number <= _MAX_SCORE:
                raise InvalidIdError(f"{number} does not fit in a Match ID field")


def encode_match_id(info: MatchIdInfo) -> str:
    """The 12-character Match ID of ``info``, identical to what gnubg writes.

    >>> encode_match_id(MatchIdInfo(2, Side.WHITE, Side.WHITE, True, GameState.PLAYING,
    ...     Side.WHITE, False, 0, (5, 2), 7, PerSide(3, 2)))
    '0YnqADAAEAAE'
    """
    values = {
        "cube_log": info.cube_value.bit_length() - 1,
        "owner": _CENTRED if info.cube_owner is None else int(info.cube_owner),
        "on_roll": int(info.player_on_roll),
        "crawford": int(info.crawford),
        "game_state": int(info.game_state),
        "turn": int(info.turn),
        "doubled": int(info.double_offered),
        "resigned": info.resign_level,
        "die0": max(info.dice),
        "die1": min(info.dice),
        "length": info.match_length,
        "score0": info.score.black,
        "score1": info.score.white,
        "no_jacoby": int(not info.jacoby),
    }
    bits = 0
    shift = 0
    for name, width in _FIELDS:
        bits |= values[name] << shift
        shift += width
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def decode_match_id(match_id: str) -> MatchIdInfo:
    """The fields of a Match ID; InvalidIdError, naming it, when it is malformed.

    >>> decode_match_id("cAgAAAAAAAA")
    Traceback (most recent call last):
    ...
    backgammon.engine.errors.InvalidIdError: 'cAgAAAAAAAA' is not a Match ID: it must have 12 characters
    """
    text = match_id.strip()
    if len(text) != 12:
        raise InvalidIdError(f"{match_id!r} is not a Match ID: it must have 12 characters")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidIdError(f"{match_id!r} is not a Match ID: it is not base64") from None
    bits = int.from_bytes(raw, "little")
    values: dict[str, int] = {}
    for name, width in _FIELDS:
        values[name] = bits & ((1 << width) - 1)
        bits >>= width
    if values["owner"] == 2 or values["game_state"] > GameState.DROPPED:
        raise InvalidIdError(f"{match_id!r} is not a Match ID: a field is out of range")
    try:
        return MatchIdInfo(
            cube_value=1 << values["cube_log"],
            cube_owner=None if values["owner"] == _CENTRED else Side(values["owner"]),
            player_on_roll=Side(values["on_roll"]),
            crawford=bool(values["crawford"]),
            game_state=GameState(values["game_state"]),
            turn=Side(values["turn"]),
            double_offered=bool(values["doubled"]),
            resign_level=values["resigned"],
            dice=(values["die0"], values["die1"]),
            match_length=values["length"],
            score=PerSide(values["score0"], values["score1"]),
            jacoby=not values["no_jacoby"],
        )
    except InvalidIdError as error:
        raise InvalidIdError(f"{match_id!r} is not a Match ID: {error}") from None
