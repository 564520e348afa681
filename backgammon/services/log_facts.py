"""What each logged action records beside itself, so that the game page never replays the log.

The moves list needs, for every action, facts only the state before or after it knows: the game
of the match it belongs to, the roll a play played, the cube a double turns, the board a play
started from (to outline the last move) and, for the action that ended a game, its result. The
service works them out when it appends the action (it holds both states then); the migration
that added the columns and ``check_game_states`` work them out by replaying the log.

Pure functions of engine values: no models here, so the migration can use them too.
"""

from __future__ import annotations

from collections.abc import Iterable

from backgammon.engine import match as engine_match
from backgammon.engine.actions import Action, ActionKind
from backgammon.engine.errors import EngineError
from backgammon.engine.game import MatchRules
from backgammon.engine.match import MatchState, Phase, apply_action
from backgammon.engine.match_json import result_to_dict

__all__ = ["FACT_FIELDS", "action_facts", "replay_with_facts"]

FACT_FIELDS = ("game_number", "dice", "cube_value", "position_id", "game_result")
"""The GameAction columns ``action_facts`` fills."""


def action_facts(before: MatchState, action: Action, after: MatchState) -> dict[str, object]:
    """The GameAction columns for ``action``, which took the match from ``before`` to ``after``."""
    play = action.kind is ActionKind.PLAY and before.dice is not None
    ended = after.game_number != before.game_number or after.phase is Phase.MATCH_OVER
    result = after.last_game_result if ended else None
    return {
        "game_number": before.game_number,
        "dice": f"{before.dice[0]}{before.dice[1]}" if play and before.dice is not None else "",
        "cube_value": before.cube_value,
        "position_id": before.position.id if play else "",
        "game_result": None if result is None else result_to_dict(result),
    }


def replay_with_facts(
    rules: MatchRules, actions: Iterable[Action]
) -> tuple[list[dict[str, object]], MatchState]:
    """Replay a log: each action's facts, and the state it leads to. Refusals raise, as ``replay``'s."""
    state = engine_match.new_match(rules)  # looked up here, as ``replay`` does (tests patch it)
    facts = []
    for number, action in enumerate(actions, start=1):
        try:
            after = apply_action(state, action)
        except EngineError as error:
            raise type(error)(f"Action {number} ({action!r}): {error}") from None
        facts.append(action_facts(state, action, after))
        state = after
    return facts, state
