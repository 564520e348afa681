"""A real ``manage.py db_worker`` process plays for the bots: it accepts a challenge and answers a
move within seconds (the tick's safety net is tested without a process, in test_bots.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, fast_passwords  # noqa: F401

from accounts.models import Profile
from backgammon.engine.actions import Action
from backgammon.models import Challenge, Game
from backgammon.services import challenge_create
from bots.accounts import create_bot_accounts
from bots.models import Bot
from tests.site.worker_process import (
    ROOT,
    WorkerStarter,
    test_database_url,
    wait_for,
)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_accepts_for_a_bot_and_plays_its_turns(
    alice: Any, start_worker: WorkerStarter
) -> None:
    start_worker()
    create_bot_accounts(get_user_model(), Profile, Bot)
    challenge = challenge_create(
        challenger=alice, opponent="gnubg-strong", variant="BX", time_limit=timedelta(days=3)
    )

    def accepted_and_alice_to_move() -> bool:
        """the bot to accept and the game to wait for alice"""
        challenge.refresh_from_db()
        return challenge.game_id is not None and Game.objects.filter(
            pk=challenge.game_id, actor=alice
        ).exists()

    wait_for(accepted_and_alice_to_move)
    game = Game.objects.get(pk=challenge.game_id)
    play = game.state().legal_plays()[0]
    played = act(game, alice, Action.play([(m.origin, m.destination) for m in play.moves])).action_count

    def bot_answered() -> bool:
        """the bot to play and the game to wait for alice again"""
        current = Game.objects.get(pk=game.pk)
        return current.action_count > played and current.actor_id == alice.pk

    started = time.monotonic()
    wait_for(bot_answered, seconds=10)
    assert time.monotonic() - started < 10
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.ACCEPTED
    assert DBTaskResult.objects.filter(task_path="bots.tasks.bot_act").exists()


WEB_THREAD_CHALLENGES_A_BOT = """
import sys, threading, django
django.setup()
from datetime import timedelta
from django.contrib.auth import get_user_model
from backgammon.services import challenge_create

def challenge():
    alice = get_user_model().objects.get(username="alice")
    challenge_create(challenger=alice, opponent="gnubg-easy", variant="BX",
                     time_limit=timedelta(days=3))

thread = threading.Thread(target=challenge)  # as runserver serves a request
thread.start()
thread.join()
print("gnubg loaded" if "gnubg" in sys.modules else "gnubg not loaded")
"""


@pytest.mark.django_db(transaction=True)
def test_a_web_request_that_challenges_a_bot_never_loads_gnubg(alice: Any) -> None:
    # Loaded on a request thread, gnubg would crash that process at its first look-ahead: web
    # processes only queue the bots' tasks, and the worker loads gnubg on its main thread.
    create_bot_accounts(get_user_model(), Profile, Bot)
    env = {**os.environ, "DATABASE_URL": test_database_url(), "DJANGO_SETTINGS_MODULE": "gamesite.settings"}
    done = subprocess.run(
        [sys.executable, "-c", WEB_THREAD_CHALLENGES_A_BOT],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "gnubg not loaded"
    queued = DBTaskResult.objects.exclude(task_path__startswith="notices.").get()
    assert queued.task_path == "bots.tasks.bot_answer_challenge"
