"""The real worker (``manage.py db_worker``, as ``make run`` starts it) runs a queued analysis."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.models import GameAnalysis
from analysis.services import analysis_request
from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.site.gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401
from tests.site.worker_process import WorkerStarter, wait_for


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_analyses_a_requested_game(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, start_worker: WorkerStarter
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (6, 5))
    game = start_game(alice, bob, variant="BX", match_length=0)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    game = act(game, bob, Action.resign(1))
    game = act(game, alice, Action.accept_resign())
    assert game.status == Game.Status.FINISHED
    analysis = analysis_request(game_id=game.pk, user=bob)  # queued on commit (no transaction here)
    start_worker(queue_name="analysis")  # as `make run` starts it beside the main worker

    def finished() -> bool:
        """the worker to finish the analysis"""
        return GameAnalysis.objects.get(pk=analysis.pk).status in ("done", "failed")

    wait_for(finished, seconds=60, poll=0.2)
    analysis.refresh_from_db()
    assert analysis.status == "done", analysis.failure
    kinds = [entry["kind"] for entry in analysis.results["actions"]]
    assert kinds == ["roll", "play", "roll", "resign", "accept_resign"]
    assert analysis.results["actions"][1]["best"] == "8/5 6/5"
    assert analysis.results["actions"][1]["equity_loss"] == 0.0
