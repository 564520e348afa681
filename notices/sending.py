"""Deciding and sending each kind of notice; run by the worker's tasks (notices/tasks.py), never
by a page.

Every notice is claimed before it is sent: a SentNotice row with a unique key (the game and
action number, the challenge, the message, the player and day) is inserted under the player's
preferences row lock, with the mail composed on it (notices/outbox.py). A second worker, or the
same task run twice, finds the key taken and sends nothing. The mail goes to the server after
that commit; one that does not reach it (a killed worker, a failing server) stays held on the
row and the workers' tick sends it again: at least once, and twice only when a worker dies
between the server's acceptance and our note of it.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from accounts.relations import either_ignores
from backgammon.clock_words import duration_words
from backgammon.models import Challenge, Game, GameAction
from backgammon.services import games_awaiting
from backgammon.signals import untimed_player_ids
from notices import outbox
from notices.mail import absolute
from notices.models import NoticePreferences, SentNotice
from notices.preferences import preferences_lock

__all__ = [
    "WARN_AT_FRACTION_LEFT",
    "acted_last",
    "claim_notice",
    "may_get_your_turn_mail",
    "notify_new_challenge",
    "notify_new_message",
    "notify_time_warning",
    "notify_your_turn",
    "send_digest",
]

logger = logging.getLogger(__name__)
Kind = SentNotice.Kind

WARN_AT_FRACTION_LEFT = 5
"""The time warning goes when a fifth (20%) of the move's time is left: 80% has passed."""


def claim_notice(*, user_id: int, kind: str, key: str, game_id: int | None = None,
                 channel: str = SentNotice.Channel.EMAIL) -> bool:
    """Record the notice as sent; False if some worker already did (the caller then stops)."""
    try:
        with transaction.atomic():
            SentNotice.objects.create(user_id=user_id, kind=kind, key=key, game_id=game_id, channel=channel)
    except IntegrityError:
        return False
    return True


def _reachable(user: Any) -> bool:
    """A person with an address: not a bot, not a closed account."""
    return bool(user.is_active and user.email) and not untimed_player_ids([user.pk])


def _game_url(game_id: int) -> str:
    return absolute(reverse("backgammon:game", args=[game_id]))


def acted_last(game: Game, action_number: int) -> int | None:
    """The side that chose the last batch of actions (one service call shares one timestamp;
    automatic rolls follow the choice), or None for the system (opening roll, timeout)."""
    last = GameAction.objects.filter(game=game, number=action_number).only("created_at").first()
    if last is None:
        return None
    first = (
        GameAction.objects.filter(game=game, created_at=last.created_at, number__lte=action_number)
        .order_by("number")
        .only("side")
        .first()
    )
    return None if first is None else first.side


def may_get_your_turn_mail(user_id: int) -> bool:
    """Whether a your-turn mail could go to this player now, judged from the signed-in user kept
    for every request (no query): not for a bot or an account without an address, nor while they
    are on the site. The task decides for good (notify_your_turn); this only spares the queue
    and the worker the turns that could never send one, most of them on a busy site.
    A kept profile is at most 150 s old, and its last_seen only earlier than the truth, so a
    player it shows away may still be here: the task is queued, and it checks."""
    from accounts.backends import CaseInsensitiveModelBackend

    player = CaseInsensitiveModelBackend().get_user(user_id)
    if player is None or not _reachable(player):
        return False
    last_seen = getattr(getattr(player, "profile", None), "last_seen", None)
    online_since = timezone.now() - timedelta(minutes=settings.NOTICE_ONLINE_MINUTES)
    return last_seen is None or last_seen < online_since


def notify_your_turn(game_id: int, action_number: int) -> bool:
    """Tell the player to act that it is their turn; True if a mail went out."""
    game = Game.objects.select_related("black", "white", "actor").filter(pk=game_id).first()
    if (
        game is None
        or game.status != Game.Status.ACTIVE
        or game.action_count != action_number
        or game.actor is None
    ):
        return False
    player = game.actor
    side = game.side_of(player)
    if not _reachable(player) or side is None or acted_last(game, action_number) == int(side):
        return False  # a bot, or the player just acted themselves (they know it is their turn)
    now = timezone.now()
    online_since = now - timedelta(minutes=settings.NOTICE_ONLINE_MINUTES)
    if Profile.objects.filter(user=player, last_seen__gte=online_since).exists():
        return False  # on the site now: the PLAY menu's count tells them
    with transaction.atomic():
        if not preferences_lock(player.pk).wants(Kind.YOUR_TURN):
            return False
        recently = now - timedelta(minutes=settings.NOTICE_TURN_EVERY_MINUTES)
        if SentNotice.objects.filter(
            user=player, kind=Kind.YOUR_TURN, channel=SentNotice.Channel.EMAIL, game_id=game_id,
            sent_at__gte=recently,
        ).exists():
            return False
        key = f"your_turn:game {game_id}:action {action_number}"
        if not claim_notice(user_id=player.pk, kind=Kind.YOUR_TURN, game_id=game_id, key=key):
            return False
        opponent = game.player(side.other)
        _hold_game_notice(key, player, game, opponent, now, template="your_turn",
                          subject=f"your turn against {opponent.get_username()} (game #{game_id})")
    return outbox.deliver(key)


def _hold_game_notice(key: str, player: Any, game: Game, opponent: Any, now: datetime, *,
                      template: str, subject: str) -> None:
    """A mail about one of the player's games: the game, the opponent, a link, the time left."""
    outbox.hold(
        key=key,
        user=player,
        template=template,
        subject=subject,
        context={"game": game, "opponent": opponent, "game_url": _game_url(game.pk),
                 "time_left": _time_left(game, now)},
    )


def _wanted_and_claimed(player: Any, kind: str, *, key: str, game_id: int | None = None) -> bool:
    """Inside the caller's transaction: the player wants this kind of mail (their preferences row
    locked) and this very notice was not claimed before (so it goes out once)."""
    return preferences_lock(player.pk).wants(kind) and claim_notice(
        user_id=player.pk, kind=kind, game_id=game_id, key=key
    )


def _time_left(game: Game, now: datetime) -> str:
    return "" if game.deadline is None else duration_words(max(game.deadline - now, timedelta(0)))


def notify_new_challenge(challenge_id: int) -> bool:
    """Tell a challenged player of a new challenge; True if a mail went out."""
    challenge = (
        Challenge.objects.select_related("challenger", "challenged").filter(pk=challenge_id).first()
    )
    if challenge is None or challenge.status != Challenge.Status.PENDING:
        return False
    player = challenge.challenged
    if not _reachable(player) or either_ignores(player, challenge.challenger):
        return False
    with transaction.atomic():
        key = f"new_challenge:challenge {challenge_id}"
        if not _wanted_and_claimed(player, Kind.NEW_CHALLENGE, key=key):
            return False
        outbox.hold(
            key=key,
            user=player,
            template="new_challenge",
            subject=f"{challenge.challenger.get_username()} challenges you",
            context={"challenge": challenge, "status_url": absolute(reverse("backgammon:status"))},
        )
    return outbox.deliver(key)


def notify_new_message(
    *, message_id: int, recipient_id: int, sender_id: int, subject: str, body: str, inbox_url: str
) -> bool:
    """Tell a player of a message sent to them (messaging's message_sent); True if mailed."""
    users = get_user_model().objects.in_bulk([recipient_id, sender_id])
    player, sender = users.get(recipient_id), users.get(sender_id)
    if player is None or sender is None or not _reachable(player) or either_ignores(player, sender):
        return False
    key = f"new_message:message {message_id}"
    with transaction.atomic():
        if not _wanted_and_claimed(player, Kind.NEW_MESSAGE, key=key):
            return False
        outbox.hold(
            key=key,
            user=player,
            template="new_message",
            subject=f"a message from {sender.get_username()}",
            context={"sender": sender, "message_subject": subject, "body": body,
                     "inbox_url": absolute(inbox_url)},
        )
    return outbox.deliver(key)


def notify_time_warning(game_id: int, action_number: int, now: datetime | None = None) -> bool:
    """Warn the player to act that 80% of the move's time has passed; once per (game, action)."""
    now = now or timezone.now()
    game = Game.objects.select_related("black", "white", "actor").filter(pk=game_id).first()
    if (
        game is None
        or game.status != Game.Status.ACTIVE
        or game.action_count != action_number
        or game.actor is None
        or game.deadline is None
        or not game.deadline - game.time_limit / WARN_AT_FRACTION_LEFT <= now < game.deadline
    ):
        return False
    player = game.actor
    side = game.side_of(player)
    if not _reachable(player) or side is None:
        return False
    with transaction.atomic():
        key = f"time_warning:game {game_id}:action {action_number}"
        if not _wanted_and_claimed(player, Kind.TIME_WARNING, game_id=game_id, key=key):
            return False
        opponent = game.player(side.other)
        _hold_game_notice(
            key, player, game, opponent, now, template="time_warning",
            subject=f"time is running out in game #{game_id} against {opponent.get_username()}",
        )
    return outbox.deliver(key)


def digest_key(user_id: int, day: date) -> str:
    return f"digest:user {user_id}:{day.isoformat()}"


def send_digest(user_id: int, day: date, now: datetime | None = None) -> bool:
    """The player's daily digest for ``day``: games waiting for them, least time left first.

    Claimed even when nothing waits (then no mail goes), so the day is settled either way."""
    now = now or timezone.now()
    player = get_user_model().objects.filter(pk=user_id).first()
    if player is None or not _reachable(player):
        return False
    with transaction.atomic():
        preferences = preferences_lock(user_id)
        if preferences.delivery != NoticePreferences.Delivery.DIGEST:
            return False
        key = digest_key(user_id, day)
        if not claim_notice(user_id=user_id, kind=Kind.DIGEST, key=key):
            return False
        games = list(
            games_awaiting(player)
            .select_related("black", "white")
            .order_by(F("deadline").asc(nulls_last=True), "pk")
        )
        challenges = Challenge.objects.filter(challenged=player, status=Challenge.Status.PENDING).count()
        if not games and not challenges:
            return False
        rows = [
            {"game": game, "opponent": game.white if game.black_id == user_id else game.black,
             "url": _game_url(game.pk), "time_left": _time_left(game, now)}
            for game in games
        ]
        outbox.hold(
            key=key,
            user=player,
            template="digest",
            subject=f"{len(games)} game{'' if len(games) == 1 else 's'} waiting for you",
            context={"rows": rows, "challenges": challenges,
                     "status_url": absolute(reverse("backgammon:status"))},
        )
    return outbox.deliver(key)
