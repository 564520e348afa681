"""The real worker (``manage.py db_worker``, as ``make run`` starts it) runs a queued analysis."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from analysis.models import GameAnalysis
from analysis.services import analysis_request
from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.site.gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_analyses_a_requested_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_dice(monkeypatch).then((3, 1), (6, 5))
    game = start_game(alice, bob, variant="BX", match_length=0)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    game = act(game, bob, Action.resign(1))
    game = act(game, alice, Action.accept_resign())
    assert game.status == Game.Status.FINISHED
    analysis = analysis_request(game_id=game.pk, user=bob)  # queued on commit (no transaction here)
    db = settings.DATABASES["default"]
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.2"]
    worker = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        give_up = time.monotonic() + 60
        while GameAnalysis.objects.get(pk=analysis.pk).status not in ("done", "failed"):
            assert time.monotonic() < give_up, "the worker never finished the analysis"
            time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(timeout=10)
    analysis.refresh_from_db()
    assert analysis.status == "done", analysis.failure
    kinds = [entry["kind"] for entry in analysis.results["actions"]]
    assert kinds == ["roll", "play", "roll", "resign", "accept_resign"]
    assert analysis.results["actions"][1]["best"] == "8/5 6/5"
    assert analysis.results["actions"][1]["equity_loss"] == 0.0
