"""A match state as a JSON-able dict and back: the snapshot a site stores beside the action log.

The log stays the truth (``replay`` rebuilds any state from it); the dict only saves the replay.
Every field of ``MatchState`` is kept, including what the Position and Match IDs leave out: the
race variants' waiting checkers, each side's plays in this game (the BA draw) and the result of
the last game. The rules are not stored: they come with the game, and the dict names them only
so that a snapshot read back under other rules is refused.

>>> from backgammon.engine.variants import find_variant
>>> from backgammon.engine.match import new_match
>>> rules = MatchRules(find_variant("BP"), 5)
>>> data = state_to_dict(new_match(rules))
>>> data["phase"], data["position"]["mine"][5]
('opening_roll', 5)
>>> state_from_dict(rules, data) == new_match(rules)
True
>>> state_from_dict(rules, {**data, "cube_value": 3})
Traceback (most recent call last):
...
backgammon.engine.errors.InvalidStateError: Match state: cube_value 3 is not a cube value (1, 2, 4 ... 4096)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from .board import PerSide, Position, Side
from .errors import EngineError, InvalidStateError
from .game import MAX_CUBE, GameResult, MatchRules, WinKind
from .match import MatchState, Phase

__all__ = ["STATE_VERSION", "result_from_dict", "result_to_dict", "state_from_dict", "state_to_dict"]

STATE_VERSION = 1
"""The layout of the dict; a stored snapshot of another version is refused (replay instead)."""

_KEYS = frozenset({
    "version", "rules", "score", "game_number", "crawford", "phase", "turn", "position", "dice",
    "cube_value", "cube_owner", "resign_level", "moves_played", "last_game_result", "match_winner",
})
_POSITION_KEYS = frozenset({"mine", "theirs", "mine_waiting", "theirs_waiting"})
_RESULT_KEYS = frozenset({"winner", "kind", "points", "game_number"})
_CUBE_VALUES = frozenset(1 << n for n in range(MAX_CUBE.bit_length()))
_MAX_COUNT = 1 << 30  # scores, game numbers and play counts: generous, but not unbounded

E = TypeVar("E", bound=Enum)


def state_to_dict(state: MatchState) -> dict[str, object]:
    """The state as plain dicts, lists, ints, strings and None (what ``json.dumps`` takes)."""
    position = state.position
    return {
        "version": STATE_VERSION,
        "rules": _rules_to_dict(state.rules),
        "score": list(state.score),
        "game_number": state.game_number,
        "crawford": state.crawford,
        "phase": state.phase.value,
        "turn": int(state.turn),
        "position": {
            "mine": list(position.mine),
            "theirs": list(position.theirs),
            "mine_waiting": position.mine_waiting,
            "theirs_waiting": position.theirs_waiting,
        },
        "dice": None if state.dice is None else list(state.dice),
        "cube_value": state.cube_value,
        "cube_owner": _side_or_none(state.cube_owner),
        "resign_level": state.resign_level,
        "moves_played": list(state.moves_played),
        "last_game_result": None if state.last_game_result is None else result_to_dict(state.last_game_result),
        "match_winner": _side_or_none(state.match_winner),
    }


def state_from_dict(rules: MatchRules, data: Mapping[str, object]) -> MatchState:
    """The state ``state_to_dict`` wrote (possibly through JSON), under the game's ``rules``.

    Anything malformed (a missing or unknown key, a wrong type, a value out of range, another
    version, other rules, a board that cannot exist) raises InvalidStateError saying what.
    """
    try:
        return _state_from_dict(rules, data)
    except InvalidStateError:
        raise
    except EngineError as error:  # e.g. InvalidPositionError from the board's own checks
        raise InvalidStateError(f"Match state: {error}") from None


def result_to_dict(result: GameResult) -> dict[str, object]:
    """A finished game's result as a JSON-able dict."""
    return {
        "winner": _side_or_none(result.winner),
        "kind": result.kind.value,
        "points": result.points,
        "game_number": result.game_number,
    }


def result_from_dict(data: object) -> GameResult:
    """The result ``result_to_dict`` wrote; InvalidStateError if it is malformed."""
    fields = _fields(data, _RESULT_KEYS, "last_game_result")
    return GameResult(
        winner=_optional_side(fields["winner"], "last_game_result.winner"),
        kind=_enum(WinKind, fields["kind"], "last_game_result.kind"),
        points=_int(fields["points"], "last_game_result.points", 0, _MAX_COUNT),
        game_number=_int(fields["game_number"], "last_game_result.game_number", 1, _MAX_COUNT),
    )


def _state_from_dict(rules: MatchRules, data: Mapping[str, object]) -> MatchState:
    fields = _fields(data, _KEYS, "Match state")
    if fields["version"] != STATE_VERSION:
        raise InvalidStateError(f"Match state: version {fields['version']!r} is not {STATE_VERSION}")
    if fields["rules"] != _rules_to_dict(rules):
        raise InvalidStateError(f"Match state: written for rules {fields['rules']!r}, not {_rules_to_dict(rules)!r}")
    phase = _enum(Phase, fields["phase"], "phase")
    dice = None if fields["dice"] is None else _pair(fields["dice"], "dice", 1, 6)
    # A roll is played in MOVE, and is kept while a resignation offered before playing it waits
    # (and once accepted, when it ended the match, as gnubg keeps it).
    resigning = phase in (Phase.RESIGN_OFFERED, Phase.MATCH_OVER)
    if (dice is None) if phase is Phase.MOVE else (dice is not None and not resigning):
        raise InvalidStateError(f"Match state: dice {fields['dice']!r} do not fit the {phase.value} phase")
    resign_level = _int(fields["resign_level"], "resign_level", 0, 3)
    if resign_level == 0 if phase is Phase.RESIGN_OFFERED else resign_level and not resigning:
        raise InvalidStateError(f"Match state: resign_level {resign_level} does not fit the {phase.value} phase")
    cube_value = fields["cube_value"]
    if type(cube_value) is not int or cube_value not in _CUBE_VALUES:
        raise InvalidStateError(f"Match state: cube_value {cube_value!r} is not a cube value (1, 2, 4 ... {MAX_CUBE})")
    match_winner = _optional_side(fields["match_winner"], "match_winner")
    if match_winner is not None and phase is not Phase.MATCH_OVER:
        raise InvalidStateError("Match state: a match winner before the match is over")
    last = fields["last_game_result"]
    score = _pair(fields["score"], "score", 0, _MAX_COUNT)
    moves_played = _pair(fields["moves_played"], "moves_played", 0, _MAX_COUNT)
    return MatchState(
        rules=rules,
        score=PerSide(*score),
        game_number=_int(fields["game_number"], "game_number", 1, _MAX_COUNT),
        crawford=_bool(fields["crawford"], "crawford"),
        phase=phase,
        turn=_side(fields["turn"], "turn"),
        position=_position(fields["position"]),
        dice=dice,
        cube_value=cube_value,
        cube_owner=_optional_side(fields["cube_owner"], "cube_owner"),
        resign_level=resign_level,
        moves_played=PerSide(*moves_played),
        last_game_result=None if last is None else result_from_dict(last),
        match_winner=match_winner,
    )


def _rules_to_dict(rules: MatchRules) -> dict[str, object]:
    return {
        "variant": rules.variant.code,
        "match_length": rules.match_length,
        "jacoby": rules.jacoby,
        "beavers": rules.beavers,
        "automatic_doubles": rules.automatic_doubles,
    }


def _position(data: object) -> Position:
    fields = _fields(data, _POSITION_KEYS, "position")
    return Position(
        _layout(fields["mine"], "position.mine"),
        _layout(fields["theirs"], "position.theirs"),
        _int(fields["mine_waiting"], "position.mine_waiting", 0, 15),
        _int(fields["theirs_waiting"], "position.theirs_waiting", 0, 15),
    )


def _fields(data: object, keys: frozenset[str], name: str) -> Mapping[str, object]:
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"{name}: expected a dict, not {type(data).__name__}")
    missing, unknown = keys - data.keys(), data.keys() - keys
    if missing or unknown:
        raise InvalidStateError(
            f"{name}: missing keys {sorted(missing)!r}, unknown keys {sorted(map(str, unknown))!r}"
        )
    return data


def _int(value: object, name: str, low: int, high: int) -> int:
    # type() and not isinstance(): True is an int to Python, but never a count here.
    if type(value) is not int or not low <= value <= high:
        raise InvalidStateError(f"Match state: {name} {value!r} is not a whole number from {low} to {high}")
    return value


def _bool(value: object, name: str) -> bool:
    if type(value) is not bool:
        raise InvalidStateError(f"Match state: {name} {value!r} is not true or false")
    return value


def _pair(value: object, name: str, low: int, high: int) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidStateError(f"Match state: {name} {value!r} is not a pair")
    return _int(value[0], name, low, high), _int(value[1], name, low, high)


def _layout(value: object, name: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) != 25:
        raise InvalidStateError(f"Match state: {name} is not 25 checker counts")
    return tuple(_int(count, name, 0, 15) for count in value)


def _side(value: object, name: str) -> Side:
    return Side(_int(value, name, 0, 1))


def _optional_side(value: object, name: str) -> Side | None:
    return None if value is None else _side(value, name)


def _side_or_none(side: Side | None) -> int | None:
    return None if side is None else int(side)


def _enum(kind: type[E], value: object, name: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise InvalidStateError(f"Match state: {name} {value!r} is not one of the known values") from None
