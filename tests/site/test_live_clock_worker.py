"""A real ``manage.py db_worker`` ends a live match within a second of the running reserve's end."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from gamebuilder import fast_passwords, start_game  # noqa: F401

from backgammon.engine import TimeControl
from backgammon.models import Game, GameAction
from tests.site.worker_process import WorkerStarter, wait_for


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_ends_the_match_within_a_second_of_the_reserves_end(
    alice: Any, bob: Any, start_worker: WorkerStarter
) -> None:
    # The sweep an hour apart: only the reserve's own task can be in time.
    start_worker(DEADLINE_SWEEP_SECONDS="3600")
    time.sleep(2)  # the worker's start-up (gnubg loaded) is not what is measured
    # The match began 28 s ago, with no delay and the shortest reserve (30 s): its opener's
    # reserve runs out 2 s from now.
    with time_machine.travel(timezone.now() - timedelta(seconds=28), tick=True):
        game = start_game(alice, bob, "BP", match_length=1, time_control=TimeControl.live(0, 30))
    flag = game.deadline
    assert flag is not None and flag > timezone.now()

    def timed_out() -> bool:
        """the timeout in the game's log"""
        return GameAction.objects.filter(game=game, kind="timeout").exists()

    wait_for(timed_out, seconds=10, poll=0.02)
    seen = timezone.now()
    timeout = GameAction.objects.get(game=game, kind="timeout")
    assert flag <= timeout.created_at < flag + timedelta(seconds=1)
    assert seen - flag < timedelta(seconds=1.2)  # committed, as the players' pages read it
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner is not None
    assert "ran out of time" in game.result
    assert (timeout.clock_black_ms, timeout.clock_white_ms).count(0) == 1
    print(f"timeout applied {(timeout.created_at - flag).total_seconds() * 1000:.0f} ms after the reserve's end")
