"""Load for the SQLite test (run as a script, not collected): two players and a deadline writer
hammering one SQLite file the way ``make run`` does, each counting "database is locked" errors.

    python tests/site/sqlite_load.py setup GAMES
    python tests/site/sqlite_load.py player USERNAME SECONDS
    python tests/site/sqlite_load.py deadlines SECONDS

Each role prints one line, ``<role> <actions done> <locked errors>``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.db import OperationalError
from random_play import random_action

from backgammon.models import TIME_LIMITS, Game
from backgammon.services import (
    ActionRejected,
    challenge_accept,
    challenge_create,
    game_apply_action,
)
from backgammon.tasks import enforce_deadline


def setup(games: int) -> None:
    users = get_user_model().objects
    alice = users.create_user("alice", password="load-test-pass-1")
    bob = users.create_user("bob", password="load-test-pass-1")
    variants = ["BP", "BX", "BN", "BO", "B9", "MP"]
    for number in range(games):
        black, white = (alice, bob) if number % 2 else (bob, alice)
        challenge = challenge_create(
            challenger=black, opponent=white.get_username(), variant=variants[number % len(variants)],
            time_limit=TIME_LIMITS[number % len(TIME_LIMITS)][0],
        )
        challenge_accept(challenge_id=challenge.pk, actor=white)
    print("setup", games, 0)


def player(username: str, seconds: float) -> None:
    user = get_user_model().objects.get(username=username)
    rng = random.Random(username)
    done = locked = 0
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        waiting = list(Game.objects.filter(actor=user, status=Game.Status.ACTIVE).order_by("?")[:1])
        if not waiting:
            time.sleep(0.01)
            continue
        game = waiting[0]
        try:
            game_apply_action(
                game_id=game.pk, actor=user, action=random_action(game.state(), rng, double_rate=0.02),
                expected_number=game.action_count, message="load",
            )
            done += 1
        except ActionRejected:
            pass
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            locked += 1
    print("player", done, locked)


def deadlines(seconds: float) -> None:
    """What the worker's queue sees: deadline tasks arriving (most of them stale) all the time."""
    done = locked = 0
    ids = list(Game.objects.values_list("id", flat=True))
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        try:
            enforce_deadline.enqueue(random.choice(ids), 1)
            done += 1
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            locked += 1
        time.sleep(0.02)
    print("deadlines", done, locked)


if __name__ == "__main__":
    role, *args = sys.argv[1:]
    if role == "setup":
        setup(int(args[0]))
    elif role == "player":
        player(args[0], float(args[1]))
    else:
        deadlines(float(args[0]))
