"""What the worker's tick (backgammon.signals.worker_tick) does for notices, at most every
NOTICE_SWEEP_SECONDS: queue a time warning (a mail, and a push for a player with a push device)
for each game past 80% of its move time, each
player's daily digest once the digest hour has come, and the reminder a week before a
membership ends (notices/membership_reminder.py). It only queues: the tasks decide and claim
(notices/sending.py), so several workers ticking at once still send each notice once.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from backgammon.models import Game
from notices.models import NoticePreferences, PushSubscription, SentNotice
from notices.sending import WARN_AT_FRACTION_LEFT, digest_key

__all__ = ["digests_due", "games_to_warn", "games_to_warn_by_push", "queue_periodic_notices", "tick"]

_last_run = 0.0


def _running_past_80(now: datetime) -> QuerySet[Game]:
    """Active games whose player to act has used 80% of the move's time and is not out of it."""
    running = Game.objects.filter(status=Game.Status.ACTIVE, actor__isnull=False, deadline__gt=now)
    # A live game's player is at the board with the clock in view, and a mail or push about a
    # reserve running out in seconds would come after it did.
    running = running.filter(live_reserve_s__isnull=True)
    # One condition per time limit in play (a handful): "deadline - limit / 5 <= now" with the
    # arithmetic done here, as date-and-interval sums differ between PostgreSQL and SQLite.
    limits = set(running.values_list("time_limit", flat=True).distinct())
    past_80 = Q(pk__in=[])
    for limit in limits:
        past_80 |= Q(time_limit=limit, deadline__lte=now + limit / WARN_AT_FRACTION_LEFT)
    return running.filter(past_80)


def _warned_keys(now: datetime) -> set[str]:
    warned = SentNotice.objects.filter(
        kind=SentNotice.Kind.TIME_WARNING, sent_at__gte=now - timedelta(days=60)
    )
    return set(warned.values_list("key", flat=True))


def games_to_warn(now: datetime) -> QuerySet[Game]:
    """Active games whose player to act has used 80% of the move's time and is not out of it,
    where no warning went out for the current action yet."""
    warned_keys = _warned_keys(now)
    ids = [
        game_id
        for game_id, number in _running_past_80(now).values_list("id", "action_count")
        if f"time_warning:game {game_id}:action {number}" not in warned_keys
    ]
    return Game.objects.filter(pk__in=ids)


def games_to_warn_by_push(now: datetime) -> list[tuple[int, int]]:
    """(game, action number) of the same games whose player to act has a push device and was
    not pushed the warning for the current action yet."""
    warned_keys = _warned_keys(now)
    with_devices = PushSubscription.objects.values("user_id")
    return [
        (game_id, number)
        for game_id, number in _running_past_80(now).filter(actor__in=with_devices)
        .exclude(actor__notice_preferences__time_warning=False).values_list("id", "action_count")
        if f"push:time_warning:game {game_id}:action {number}" not in warned_keys
    ]


def digests_due(now: datetime) -> list[int]:
    """The players who chose the daily digest and have not had today's, once the hour has come."""
    local = timezone.localtime(now)
    if local.hour < settings.NOTICE_DIGEST_HOUR:
        return []
    user_ids = list(
        NoticePreferences.objects.filter(
            delivery=NoticePreferences.Delivery.DIGEST, user__is_active=True
        ).values_list("user_id", flat=True)
    )
    sent = set(
        SentNotice.objects.filter(kind=SentNotice.Kind.DIGEST, sent_at__gte=now - timedelta(days=2))
        .values_list("key", flat=True)
    )
    return [user_id for user_id in user_ids if digest_key(user_id, local.date()) not in sent]


def queue_periodic_notices(now: datetime | None = None) -> int:
    """Queue the warnings and digests due now; return how many tasks were queued."""
    from notices.membership_reminder import memberships_to_remind
    from notices.push.tasks import push_time_warning
    from notices.tasks import (
        push_membership_reminder,
        send_daily_digest,
        send_membership_reminder,
        send_time_warning,
    )

    now = now or timezone.now()
    queued = 0
    for game_id, number in games_to_warn(now).values_list("id", "action_count"):
        send_time_warning.enqueue(game_id, number)
        queued += 1
    for game_id, number in games_to_warn_by_push(now):
        push_time_warning.enqueue(game_id, number)
        queued += 1
    day = timezone.localtime(now).date().isoformat()
    for user_id in digests_due(now):
        send_daily_digest.enqueue(user_id, day)
        queued += 1
    # A membership ending within the week: the tasks send each of its reminders once.
    for user_id, until in memberships_to_remind(now):
        send_membership_reminder.enqueue(user_id, until.isoformat())
        push_membership_reminder.enqueue(user_id, until.isoformat())
        queued += 2
    return queued


def tick() -> int:
    """The worker tick's hook: every NOTICE_SWEEP_SECONDS at most (ticks come every few seconds)."""
    global _last_run
    if time.monotonic() - _last_run < settings.NOTICE_SWEEP_SECONDS:
        return 0
    _last_run = time.monotonic()
    return queue_periodic_notices()
