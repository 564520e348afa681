"""Two results ending a round at the same moment create the next round's match once."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from racing import race

from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import game_apply_action
from tournaments import tournaments as tournaments_module
from tournaments.models import TournamentMatch
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db(transaction=True)


def _resigned(game: Game) -> Any:
    """The player on turn offers to resign; returns the opponent, who ends it by accepting."""
    loser = game.actor
    game_apply_action(game_id=game.pk, actor=loser, action=Action.resign(1),
                      expected_number=game.action_count)
    return game.opponent_of(loser)


def test_two_semi_finals_ending_together_create_the_final_once(
    admin_user: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = tournaments_module._advance_single_elimination

    def slow_advance(*args: Any) -> None:
        time.sleep(0.3)  # both results are in flight at once: without the lock both read stale
        original(*args)

    monkeypatch.setattr(tournaments_module, "_advance_single_elimination", slow_advance)
    tournament = tournament_create(staff=admin_user, name="Race cup", variant="BX",
                                   format="single_elimination", size=4, time_limit=timedelta(days=1))
    for name in ("ann", "ben", "cal", "dan"):
        tournament_join(tournament_id=tournament.pk, player=make_user(name))
    semis = [m.game for m in TournamentMatch.objects.filter(tournament=tournament, round=1)]
    winners = {game.pk: _resigned(game) for game in semis}

    def accept(game: Game) -> Any:
        def attempt() -> str:
            fresh = Game.objects.get(pk=game.pk)
            game_apply_action(game_id=game.pk, actor=winners[game.pk], action=Action.accept_resign(),
                              expected_number=fresh.action_count)
            return "ended"
        return attempt

    lock_step = iter([accept(semis[0]), accept(semis[1])])
    picker = threading.Lock()

    def run() -> str:
        with picker:
            attempt = next(lock_step)
        return attempt()

    assert race(2, run) == ["ended", "ended"]
    final = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert {final.player_a_id, final.player_b_id} == {w.pk for w in winners.values()}
    assert final.game is not None
    assert Game.objects.filter(tournament_match__tournament=tournament).count() == 3
