"""The engine's error family: every refusal is a ValueError subclass whose message a player can read."""

from __future__ import annotations

__all__ = [
    "DiceTableError",
    "EngineError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidIdError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidTimeControlError",
]


class EngineError(ValueError):
    """Base class of everything the engine refuses."""


class InvalidPositionError(EngineError):
    """A board that cannot exist: a negative count, more than 15 checkers a side, both sides on one point."""


class InvalidIdError(EngineError):
    """A Position ID or Match ID that does not decode."""


class InvalidNotationError(EngineError):
    """Move text that does not parse, e.g. ``13/9 13/``."""


class IllegalPlayError(EngineError):
    """A play or partial move the rules forbid for this position and roll."""


class IllegalActionError(EngineError):
    """A game action (roll, double, take, resign, ...) that is not allowed now."""


class InvalidRulesError(EngineError):
    """Match rules that cannot be played, e.g. a 30-point match or beavers outside money play."""


class DiceTableError(EngineError):
    """A dice key, instant or outcome the keyed dice table cannot use (a naive datetime, a short key)."""


class InvalidStateError(EngineError):
    """A stored match state (``match_json``) that is malformed or written for other rules."""


class InvalidTimeControlError(EngineError):
    """A time control outside its ranges, e.g. a live reserve of 10 s or a correspondence move of 30 days."""
