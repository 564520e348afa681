"""Demo data: four players, an admin, a game in progress of every variant and a pending challenge."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db.models import Q

from backgammon.engine import VARIANTS
from backgammon.engine.actions import Action
from backgammon.engine.match import MatchState, Phase
from backgammon.models import Challenge, Game
from backgammon.services import (
    challenge_accept,
    challenge_create,
    game_apply_action,
    open_challenge_create,
    roll_request,
)

DEMO_PASSWORD = "demo-pass-1234"
PLAYERS = ("alice", "bob", "carol", "dave")
ADMIN = "admin"
# (variant, black, white, actions to play first); alice plays in most, and her games stop on her turn.
GAMES = (
    ("BX", "alice", "bob", 6),
    ("BP", "bob", "alice", 8),
    ("BA", "carol", "alice", 6),
    ("BN", "alice", "dave", 4),
    ("BR", "dave", "carol", 8),
    ("BS", "alice", "carol", 6),
    ("BO", "bob", "dave", 6),
    ("B9", "dave", "alice", 10),
    ("MP", "carol", "bob", 6),
)
_EXTRA_ACTIONS_TO_REACH_ALICE = 12


def _user(username: str, *, staff: bool = False) -> Any:
    user_model = get_user_model()
    user = user_model._default_manager.filter(username=username).first()
    if user is None:
        user = user_model._default_manager.create_user(
            username=username, email=f"{username}@example.com", password=DEMO_PASSWORD
        )
    else:
        user.set_password(DEMO_PASSWORD)
    user.is_active = True
    user.is_staff = user.is_superuser = staff
    user.save()
    # Demo addresses are confirmed, so the demo players may try "Tell a friend" at once.
    user.profile.confirmed_email = user.email
    user.profile.save(update_fields=["confirmed_email"])
    return user


def _random_action(state: MatchState, rng: random.Random) -> Action:
    """What a casual player does: roll (never double), take every double, play any legal play."""
    if state.phase is Phase.MOVE:
        play = rng.choice(state.legal_plays())
        return Action.play([(move.origin, move.destination) for move in play.moves])
    if state.phase is Phase.TAKE_OR_DROP:
        return Action.take()
    if state.phase is Phase.RESIGN_OFFERED:
        return Action.reject_resign()
    return roll_request()


class Command(BaseCommand):
    help = (
        "Load demo data (safe to run again): players alice, bob, carol and dave and the staff "
        f"user admin, all with the password {DEMO_PASSWORD!r}; a game in progress of every "
        "variant, several waiting for alice; one pending challenge to alice; an open challenge "
        "from carol in the waiting room."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        users = {name: _user(name) for name in PLAYERS}
        _user(ADMIN, staff=True)
        created = 0
        for variant, black, white, plies in GAMES:
            exists = Game.objects.filter(
                variant=variant, black=users[black], white=users[white], status=Game.Status.ACTIVE
            ).exists()
            if exists:
                continue
            self._start(variant, users[black], users[white], plies)
            created += 1
        pending = Challenge.objects.filter(
            Q(challenger=users["dave"], challenged=users["alice"]), status=Challenge.Status.PENDING
        )
        if not pending.exists():
            challenge_create(
                challenger=users["dave"],
                opponent="alice",
                variant="BP",
                time_limit=timedelta(days=3),
                message="Fancy a match to 5?",
            )
        open_ones = Challenge.objects.filter(
            challenger=users["carol"], challenged__isnull=True, status=Challenge.Status.PENDING
        )
        if not open_ones.exists():
            open_challenge_create(
                challenger=users["carol"],
                variant="BN",
                time_limit=timedelta(days=2),
                message="Anyone for Nackgammon?",
            )
        self.stdout.write(
            f"Demo ready: {created} new game(s); players {', '.join(PLAYERS)} and {ADMIN}, "
            f"password {DEMO_PASSWORD!r}."
        )

    def _start(self, variant: str, black: Any, white: Any, plies: int) -> None:
        options: dict[str, Any] = {"stake": 1, "jacoby": True} if VARIANTS[variant].money else {}
        challenge = challenge_create(
            challenger=black,
            opponent=white.get_username(),
            variant=variant,
            time_limit=timedelta(days=7),
            message="A demo game",
            **options,
        )
        game = challenge_accept(challenge_id=challenge.pk, actor=white)
        rng = random.Random(f"demo-{variant}")
        alice_plays = "alice" in (black.get_username(), white.get_username())
        for step in range(plies + (_EXTRA_ACTIONS_TO_REACH_ALICE if alice_plays else 0)):
            actor = game.actor
            if actor is None:
                return
            if step >= plies and (not alice_plays or actor.get_username() == "alice"):
                return
            action = _random_action(game.state(), rng)
            game = game_apply_action(
                game_id=game.pk, actor=actor, action=action, expected_number=game.action_count
            )
