"""A player against the computer on a ``make run`` site (run as a script, not collected; its
environment names the SQLite file): tests/site/test_live_make_run.py drives it.

    python tests/site/make_run_play.py setup          -> {"game": ID, "session": KEY}
    python tests/site/make_run_play.py play ID MOVES  -> a line per turn, then {"done": ...}

``setup`` makes alice, the computer players and a game of alice against one of them (the worker
accepts the challenge), and logs alice in (the session a page's stream will carry). ``play``
makes alice's actions through the service, as her Submit does, each as soon as the computer has
answered: one JSON line each, ``{"before": the action count she saw, "n": after hers, "at": when}``;
then ``answers``: the action count and time of each of the computer's turns that handed her the
turn back (from the game's log).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.test import Client
from random_play import random_action

from accounts.models import Profile
from backgammon.models import Challenge, Game
from backgammon.services import challenge_create, game_apply_action
from bots.accounts import create_bot_accounts
from bots.models import Bot

BOT = "gnubg-easy"


def say(**line: object) -> None:
    print(json.dumps(line), flush=True)


def setup() -> None:
    users = get_user_model()
    alice = users.objects.create_user("alice", password="make-run-pass-1")
    create_bot_accounts(users, Profile, Bot)
    challenge = challenge_create(challenger=alice, opponent=BOT, variant="BP", time_limit=timedelta(days=3),
                                 match_length=3)
    give_up = time.monotonic() + 60
    while Challenge.objects.get(pk=challenge.pk).game_id is None:  # the worker accepts for the bot
        if time.monotonic() > give_up:
            raise SystemExit("the worker never accepted the challenge")
        time.sleep(0.05)
    client = Client()
    client.force_login(alice)
    say(game=Challenge.objects.get(pk=challenge.pk).game_id, session=client.cookies["sessionid"].value)


def play(game_id: int, moves: int) -> None:
    alice = get_user_model().objects.get(username="alice")
    rng = random.Random(28)
    handed_back: list[int] = []  # the action count each time the computer handed her the turn
    ours = -1  # the action count after her own last action (after her roll, she plays)
    while len(handed_back) < moves:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            break
        if game.actor_id != alice.pk:
            time.sleep(0.02)
            continue
        if game.action_count != ours:
            handed_back.append(game.action_count)
        action = random_action(game.state(), rng, double_rate=0)
        played = game_apply_action(game_id=game.pk, actor=alice, action=action, expected_number=game.action_count)
        ours = played.action_count
        say(before=game.action_count, n=played.action_count, at=time.time(), kind=action.kind.value)
    # When each of the computer's turns was committed (its last action's time): the first turn
    # was the opening's, before any page was open.
    times = dict(Game.objects.get(pk=game_id).actions.values_list("number", "created_at"))
    say(done=len(handed_back), answers=[{"n": n, "at": times[n].timestamp()} for n in handed_back[1:]])


if __name__ == "__main__":
    role, *args = sys.argv[1:]
    if role == "setup":
        setup()
    else:
        play(int(args[0]), int(args[1]))
