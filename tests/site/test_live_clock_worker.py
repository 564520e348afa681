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
    # The deadline sweep an hour apart: only the live sweep can be in time.
    start_worker(DEADLINE_SWEEP_SECONDS="3600")
    time.sleep(2)  # the worker's start-up (gnubg loaded) is not what is measured
    # The match began 30 s ago, with the shortest delay (2 s) and reserve (30 s): its opener's
    # reserve runs out 2 s from now.
    with time_machine.travel(timezone.now() - timedelta(seconds=30), tick=True):
        game = start_game(alice, bob, "BP", match_length=1, time_control=TimeControl.live(2, 30))
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


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_bot_accepts_a_live_game_and_answers_within_its_delay(
    alice: Any, start_worker: WorkerStarter
) -> None:
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from backgammon.engine import LIVE_PRESETS, Action
    from backgammon.models import Challenge
    from backgammon.services import challenge_create
    from bots.accounts import create_bot_accounts
    from bots.models import Bot
    from tests.site.gamebuilder import act

    start_worker()
    create_bot_accounts(get_user_model(), Profile, Bot)
    blitz = LIVE_PRESETS["blitz"].control(3)
    challenge = challenge_create(challenger=alice, opponent="gnubg-strong", variant="BP", match_length=3,
                                 time_limit=timedelta(days=3), time_control=blitz)

    def alice_to_act() -> bool:
        """the bot to accept (and play, if it opened) and the game to wait for alice"""
        challenge.refresh_from_db()
        return challenge.game_id is not None and Game.objects.filter(pk=challenge.game_id, actor=alice).exists()

    wait_for(alice_to_act, seconds=20)
    game = Game.objects.get(pk=challenge.game_id)
    assert game.is_live and game.time_control() == blitz
    bot_side = "white"  # alice challenged: she plays Black
    if game.state().phase.value == "roll":
        game = act(game, alice, Action.roll(1, 1))
    play = game.state().legal_plays()[0]
    played = act(game, alice, Action.play([(m.origin, m.destination) for m in play.moves])).action_count

    def bot_answered() -> bool:
        """the bot to act and the game to wait for alice again"""
        current = Game.objects.get(pk=game.pk)
        return current.action_count > played and current.actor_id == alice.pk

    wait_for(bot_answered, seconds=10, poll=0.05)
    answers = GameAction.objects.filter(game=game, number__gt=played, side__isnull=False).order_by("number")
    # Whatever the bot did (roll, double, move), its reserve is untouched: it answered in its delay.
    assert answers and all(getattr(row, f"clock_{bot_side}_ms") == blitz.reserve_s * 1000 for row in answers)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.ACCEPTED
