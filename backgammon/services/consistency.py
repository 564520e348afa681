"""The staff's check that a game's stored snapshot is what replaying its log gives, and the repair.

Requests read the snapshot (``Game.state_data`` and the state columns) and the facts kept on each
logged row; only the log is the truth. ``game_check_state`` replays the log and lists every
difference; with ``repair`` it rewrites the snapshot and the rows' facts from the replay, under
the game's row lock. ``manage.py check_game_states`` runs it over the games.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from django.db import transaction

from backgammon.engine.actions import Action
from backgammon.engine.errors import EngineError
from backgammon.engine.match import MatchState, Phase
from backgammon.models import Game, GameAction
from backgammon.move_records import forget_logged

from .games import STATE_COLUMNS, _locked_game, write_state_columns
from .log_facts import FACT_FIELDS, replay_with_facts

__all__ = ["StateCheck", "game_check_state"]


@dataclass
class StateCheck:
    """What the check of one game found: each difference in words, and whether it was repaired."""

    game_id: int
    problems: list[str] = field(default_factory=list)
    repaired: bool = False
    repairable: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems


def game_check_state(*, game_id: int, repair: bool = False) -> StateCheck:
    """Replay one game's log and compare; with ``repair``, rewrite what differs from the replay."""
    # A plain read is consistent without the lock: the log only grows, and the snapshot is
    # written in the same transaction as action_count, so the rows up to action_count are
    # exactly the log the snapshot was made from.
    found = _check(Game.objects.get(pk=game_id))
    if found.ok or not repair or not found.repairable:
        return found
    with transaction.atomic():
        game = _locked_game(game_id)
        # Checked again under the lock: a move may have landed (and fixed things) in between.
        check, state, rows, facts = _compare(game)
        if check.ok or not check.repairable or state is None:
            return check
        write_state_columns(game, state)
        game.save(update_fields=[*STATE_COLUMNS, "updated_at"])
        for row, row_facts in zip(rows, facts, strict=True):
            for name, value in row_facts.items():
                setattr(row, name, value)
        GameAction.objects.bulk_update(rows, FACT_FIELDS, batch_size=500)
        forget_logged(game)
        check.repaired = True
        return check


def _check(game: Game) -> StateCheck:
    return _compare(game)[0]


def _compare(
    game: Game,
) -> tuple[StateCheck, MatchState | None, list[GameAction], list[dict[str, object]]]:
    check = StateCheck(game.pk)
    rows = list(game.actions.filter(number__lte=game.action_count).order_by("number"))
    numbers = [row.number for row in rows]
    if numbers != list(range(1, game.action_count + 1)):
        check.problems.append(f"the log holds actions {_span(numbers)}, but action_count is {game.action_count}")
        check.repairable = False
        return check, None, rows, []
    try:
        facts, state = replay_with_facts(game.rules(), [Action.from_dict(row.data) for row in rows])
    except EngineError as error:
        check.problems.append(f"the log does not replay: {error}")
        check.repairable = False
        return check, None, rows, []
    if game.status == Game.Status.ACTIVE and state.phase is Phase.MATCH_OVER:
        # Finishing a game is the service's business (winner, result, ratings), not a repair's.
        check.problems.append("the replay says the match is over, but the game is still active")
        check.repairable = False
    expected = copy.copy(game)
    write_state_columns(expected, state)
    columns = [name for name in STATE_COLUMNS if getattr(game, name) != getattr(expected, name)]
    if columns:
        check.problems.append(f"the snapshot differs from the replay in {', '.join(columns)}")
    wrong = [row.number for row, row_facts in zip(rows, facts, strict=True)
             if any(getattr(row, name) != value for name, value in row_facts.items())]
    if wrong:
        check.problems.append(f"the facts kept on action(s) {_span(wrong)} differ from the replay")
    return check, state, rows, facts


def _span(numbers: list[int]) -> str:
    if not numbers:
        return "none"
    shown = ", ".join(map(str, numbers[:10]))
    return shown + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")
