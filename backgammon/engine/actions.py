"""Game actions: the entries of a game record (roll, play, double, take, drop, resign, ...).

An action says what was done, not by whom: the match state knows who must act. Actions are
values that travel through JSON into the site's action log and come back unchanged.

>>> Action.play(((8, 5), (6, 5))).to_dict()
{'kind': 'play', 'moves': [[8, 5], [6, 5]]}
>>> Action.from_dict(Action.roll(3, 1).to_dict())
Action.roll(3, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalActionError

__all__ = ["Action", "ActionKind"]

Moves = tuple[tuple[int, int], ...]


class ActionKind(StrEnum):
    """What an action does; the value is what the site stores."""

    ROLL = "roll"
    PLAY = "play"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RESIGN = "resign"
    ACCEPT_RESIGN = "accept_resign"
    REJECT_RESIGN = "reject_resign"
    TIMEOUT = "timeout"


_RESIGN_WORDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game record.

    ``dice`` belongs to ROLL (for the opening roll: black's die, then white's), ``moves`` to PLAY
    (checker moves as (origin, destination) in the mover's numbering; () when nothing can move),
    ``level`` to RESIGN (1 single, 2 gammon, 3 backgammon). Anything else is refused.

    >>> Action.resign(4)
    Traceback (most recent call last):
    ...
    backgammon.engine.errors.IllegalActionError: You can resign a single game (1), a gammon (2) or a backgammon (3), not 4
    """

    kind: ActionKind
    dice: tuple[int, int] | None = None
    moves: Moves = ()
    level: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            raise IllegalActionError(f"{self.kind!r} is not an action")
        if (self.dice is not None) != (self.kind is ActionKind.ROLL):
            raise IllegalActionError("A roll, and only a roll, carries dice")
        if self.dice is not None:
            _check_dice(self.dice)
        if self.moves and self.kind is not ActionKind.PLAY:
            raise IllegalActionError("Only a play carries checker moves")
        for origin, destination in self.moves:
            if not (1 <= origin <= 25 and 0 <= destination <= 24 and destination < origin):
                raise IllegalActionError(f"{origin}/{destination} is not a checker move")
        if self.kind is ActionKind.RESIGN and self.level not in _RESIGN_WORDS:
            raise IllegalActionError(
                f"You can resign a single game (1), a gammon (2) or a backgammon (3), not {self.level}"
            )
        if self.kind is not ActionKind.RESIGN and self.level:
            raise IllegalActionError("Only a resignation carries a level")

    @classmethod
    def roll(cls, first: int, second: int) -> Action:
        return cls(ActionKind.ROLL, dice=(first, second))

    @classmethod
    def play(cls, moves: Sequence[tuple[int, int]]) -> Action:
        return cls(ActionKind.PLAY, moves=tuple((int(a), int(b)) for a, b in moves))

    @classmethod
    def double(cls) -> Action:
        return cls(ActionKind.DOUBLE)

    @classmethod
    def take(cls) -> Action:
        return cls(ActionKind.TAKE)

    @classmethod
    def drop(cls) -> Action:
        return cls(ActionKind.DROP)

    @classmethod
    def beaver(cls) -> Action:
        return cls(ActionKind.BEAVER)

    @classmethod
    def resign(cls, level: int) -> Action:
        return cls(ActionKind.RESIGN, level=level)

    @classmethod
    def accept_resign(cls) -> Action:
        return cls(ActionKind.ACCEPT_RESIGN)

    @classmethod
    def reject_resign(cls) -> Action:
        return cls(ActionKind.REJECT_RESIGN)

    @classmethod
    def timeout(cls) -> Action:
        return cls(ActionKind.TIMEOUT)

    def to_dict(self) -> dict[str, object]:
        """A JSON-able dict holding only the fields this kind uses."""
        data: dict[str, object] = {"kind": self.kind.value}
        if self.dice is not None:
            data["dice"] = list(self.dice)
        if self.kind is ActionKind.PLAY:
            data["moves"] = [list(move) for move in self.moves]
        if self.level:
            data["level"] = self.level
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Action:
        """The action a ``to_dict`` result (possibly through JSON) describes.

        >>> Action.from_dict({"kind": "fly"})
        Traceback (most recent call last):
        ...
        backgammon.engine.errors.IllegalActionError: 'fly' is not an action
        """
        try:
            kind = ActionKind(str(data["kind"]))
        except (KeyError, ValueError):
            raise IllegalActionError(f"{data.get('kind')!r} is not an action") from None
        dice = data.get("dice")
        moves = data.get("moves", [])
        level = data.get("level", 0)
        try:
            parsed_dice = None if dice is None else _pair(dice)
            parsed_moves = tuple(_pair(move) for move in _sequence(moves))
        except (TypeError, ValueError):
            raise IllegalActionError(f"{dict(data)!r} is not a well-formed action") from None
        if not isinstance(level, int) or isinstance(level, bool):
            raise IllegalActionError(f"{dict(data)!r} is not a well-formed action")
        return cls(kind, parsed_dice, parsed_moves, level)

    def __repr__(self) -> str:
        if self.kind is ActionKind.ROLL and self.dice is not None:
            return f"Action.roll({self.dice[0]}, {self.dice[1]})"
        if self.kind is ActionKind.PLAY:
            return f"Action.play({self.moves!r})"
        if self.kind is ActionKind.RESIGN:
            return f"Action.resign({self.level})"
        return f"Action.{self.kind.value}()"


def _check_dice(dice: tuple[int, int]) -> None:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise IllegalActionError(f"{dice!r} is not a roll: two dice, each from 1 to 6")


def _sequence(value: object) -> Sequence[object]:
    if not isinstance(value, (list, tuple)):
        raise TypeError("Expected a list")
    return value


def _pair(value: object) -> tuple[int, int]:
    items = _sequence(value)
    if len(items) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
        raise ValueError("Expected two integers")
    first, second = items
    assert isinstance(first, int) and isinstance(second, int)
    return first, second
