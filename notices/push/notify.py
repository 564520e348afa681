"""Deciding each push notice and sending it; run by the worker's tasks (notices/push/tasks.py),
never by a page.

The same kinds and switches as the e-mails (a player's NoticePreferences: your turn, new
challenge, new message, the 80% time warning, and a finished game or match), and the same
claim: a SentNotice row with a unique key (``push:`` and the e-mail's key) inserted under the
player's preferences row lock, so a repeated task or two workers push once. The claim commits
before the push services are asked (no row lock is held across the network); a push that fails
is not tried again. "Your turn" is not pushed while a page of that player is open and listening
to its live stream (backgammon/live.py marks it), which shows the turn already.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.relations import either_ignores
from backgammon.clock_words import duration_words
from backgammon.live import listening_key
from backgammon.models import Challenge, Game
from backgammon.signals import untimed_player_ids
from notices.mail import absolute
from notices.models import PushSubscription, SentNotice
from notices.preferences import preferences_lock
from notices.push.delivery import Payload, push_to_devices
from notices.sending import WARN_AT_FRACTION_LEFT, acted_last, claim_notice

__all__ = [
    "push_game_finished",
    "push_new_challenge",
    "push_new_message",
    "push_test",
    "push_time_warning",
    "push_your_turn",
]

log = logging.getLogger(__name__)
Kind = SentNotice.Kind
DAY = 24 * 3600
BODY_MAX = 140


def _pushable(user: Any) -> bool:
    """A person (not a bot) whose account is open."""
    return user is not None and bool(user.is_active) and not untimed_player_ids([user.pk])


def _listening(user_id: int) -> bool:
    try:
        return bool(cache.get(listening_key(user_id)))
    except Exception:  # the cache out of reach: better a push too many than a turn missed
        log.warning("push: could not read whether player %s has a page open", user_id, exc_info=True)
        return False


def _claimed_devices(user_id: int, kind: str, key: str, game_id: int | None = None) -> list[PushSubscription]:
    """The player's devices, once this notice is claimed for push; [] if they do not want this
    kind, have no device, or some worker claimed it before."""
    with transaction.atomic():
        if not preferences_lock(user_id).wants_push(kind):
            return []
        devices = list(PushSubscription.objects.filter(user_id=user_id))
        if not devices or not claim_notice(user_id=user_id, kind=kind, key=f"push:{key}",
                                           game_id=game_id, channel=SentNotice.Channel.PUSH):
            return []
    return devices


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= BODY_MAX else text[: BODY_MAX - 1] + "…"


def _game_url(game_id: int) -> str:
    return absolute(reverse("backgammon:game", args=[game_id]))


def _time_left(game: Game, now: datetime) -> str:
    if game.deadline is None:
        return ""
    return duration_words(max(game.deadline - now, timedelta(0)))


def _active_game_for_actor(game_id: int, action_number: int) -> Game | None:
    game = Game.objects.select_related("black", "white", "actor").filter(pk=game_id).first()
    if (game is None or game.status != Game.Status.ACTIVE or game.action_count != action_number
            or game.actor is None):
        return None
    return game


def push_your_turn(game_id: int, action_number: int) -> int:
    """Tell the player to act that it is their turn; how many devices took the push."""
    game = _active_game_for_actor(game_id, action_number)
    if game is None:
        return 0
    player = game.actor
    side = game.side_of(player)
    if not _pushable(player) or side is None or acted_last(game, action_number) == int(side):
        return 0
    if _listening(player.pk):
        return 0  # a page of theirs is open: its PLAY count and the game itself show the turn
    devices = _claimed_devices(player.pk, Kind.YOUR_TURN, game_id=game_id,
                               key=f"your_turn:game {game_id}:action {action_number}")
    opponent = game.player(side.other)
    left = _time_left(game, timezone.now())
    return _send(devices, {
        "title": f"Your turn against {opponent.get_username()}",
        "body": f"Game #{game_id}, {game.variant_name}" + (f": {left} left" if left else ""),
        "url": _game_url(game_id),
        "tag": f"game-{game_id}",
    })


def push_time_warning(game_id: int, action_number: int, now: datetime | None = None) -> int:
    """Warn the player to act that 80% of the move's time has passed; once per (game, action)."""
    now = now or timezone.now()
    game = _active_game_for_actor(game_id, action_number)
    if (game is None or game.deadline is None
            or not game.deadline - game.time_limit / WARN_AT_FRACTION_LEFT <= now < game.deadline):
        return 0
    player = game.actor
    side = game.side_of(player)
    if not _pushable(player) or side is None:
        return 0
    devices = _claimed_devices(player.pk, Kind.TIME_WARNING, game_id=game_id,
                               key=f"time_warning:game {game_id}:action {action_number}")
    opponent = game.player(side.other)
    return _send(devices, {
        "title": f"Time is running out in game #{game_id}",
        "body": f"{_time_left(game, now)} left to move against {opponent.get_username()}.",
        "url": _game_url(game_id),
        "tag": f"game-{game_id}",
    }, urgency="high")


def push_new_challenge(challenge_id: int) -> int:
    challenge = Challenge.objects.select_related("challenger", "challenged").filter(pk=challenge_id).first()
    if challenge is None or challenge.status != Challenge.Status.PENDING or challenge.challenged is None:
        return 0
    player, challenger = challenge.challenged, challenge.challenger
    if not _pushable(player) or either_ignores(player, challenger):
        return 0
    devices = _claimed_devices(player.pk, Kind.NEW_CHALLENGE, key=f"new_challenge:challenge {challenge_id}")
    return _send(devices, {
        "title": f"{challenger.get_username()} challenges you",
        "body": "Accept or decline it on your Game status page.",
        "url": absolute(reverse("backgammon:status")),
        "tag": f"challenge-{challenge_id}",
    })


def push_new_message(*, message_id: int, recipient_id: int, sender_id: int, subject: str, body: str,
                     message_url: str) -> int:
    users = get_user_model().objects.in_bulk([recipient_id, sender_id])
    player, sender = users.get(recipient_id), users.get(sender_id)
    if player is None or sender is None or not _pushable(player) or either_ignores(player, sender):
        return 0
    devices = _claimed_devices(player.pk, Kind.NEW_MESSAGE, key=f"new_message:message {message_id}")
    return _send(devices, {
        "title": f"A message from {sender.get_username()}",
        "body": _short(subject or body),
        "url": absolute(message_url),
        "tag": f"message-{message_id}",
    })


def push_game_finished(game_id: int, user_id: int) -> int:
    """Tell a player their game (or match) has ended, unless their own action ended it."""
    game = Game.objects.select_related("black", "white", "winner").filter(pk=game_id).first()
    player = get_user_model().objects.filter(pk=user_id).first()
    if game is None or game.status == Game.Status.ACTIVE or player is None or not _pushable(player):
        return 0
    side = game.side_of(player)
    if side is None or acted_last(game, game.action_count) == int(side):
        return 0
    opponent = game.player(side.other)
    if game.status == Game.Status.ABORTED:
        outcome = "The game was aborted."
    elif game.winner_id == user_id:
        outcome = f"You won against {opponent.get_username()}."
    elif game.winner_id is None:
        outcome = f"It ended without a winner against {opponent.get_username()}."
    else:
        outcome = f"{opponent.get_username()} won."
    devices = _claimed_devices(user_id, Kind.GAME_FINISHED, game_id=game_id,
                               key=f"game_finished:game {game_id}:user {user_id}")
    what = "Match" if game.match_length else "Game"
    return _send(devices, {
        "title": f"{what} #{game_id} is over",
        "body": _short(f"{outcome} {game.result}".strip()),
        "url": _game_url(game_id),
        "tag": f"game-{game_id}",
    })


def push_test(subscription_id: int, user_id: int, token: str) -> int:
    """The notices page's "Send a test" to one device (``token`` makes each request's claim)."""
    device = PushSubscription.objects.filter(pk=subscription_id, user_id=user_id).first()
    if device is None or not claim_notice(user_id=user_id, kind=Kind.TEST, key=f"push:test:{token}",
                                          channel=SentNotice.Channel.PUSH):
        return 0
    return _send([device], {
        "title": f"{settings.SITE_NAME}: a test",
        "body": f"Notifications work on {device.name}.",
        "url": absolute(reverse("notices:settings")),
        "tag": "test",
    }, ttl=300)


def _send(devices: list[PushSubscription], payload: Payload, *, ttl: int = DAY,
          urgency: str = "normal") -> int:
    if not devices:
        return 0
    return push_to_devices(devices, payload, ttl=ttl, urgency=urgency)
