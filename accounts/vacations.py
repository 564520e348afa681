"""Vacations: whole days booked ahead during which every clock of the player's is paused.

The rules live here: a vacation starts tomorrow or later, lasts whole days, overlaps none of the
player's others, and the days booked per calendar year (counted by the year a vacation starts)
stay within ``settings.VACATION_DAYS_PER_YEAR``. Apps that run clocks (backgammon) ask
``paused_intervals`` and ``clock_end``; they learn of a booking or a cancellation from
``vacations_changed``, sent inside the transaction that changes them, so a deadline already
running is moved in the same commit. accounts knows nothing of games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Sum
from django.dispatch import Signal
from django.utils import timezone

from accounts.models import Profile, Vacation
from gamesite.kept import kept
from gamesite.plain_sql import columns, table

__all__ = [
    "Interval",
    "VacationRefused",
    "clock_end",
    "days_left",
    "paused_intervals",
    "vacation_book",
    "vacation_cancel",
    "vacation_interval",
    "vacation_until",
    "vacations_changed",
    "vacations_end",
    "vacations_end_key",
]

Interval = tuple[datetime, datetime]

vacations_changed = Signal()
"""Sent inside the booking's transaction: ``user_id``, ``before`` and ``after`` (the player's
paused intervals from now on, as lists of (start, end) before and after the change)."""


class VacationRefused(ValueError):
    """A booking or cancellation that is not allowed; the message is for the player."""


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time()), timezone.get_default_timezone())


def vacation_interval(vacation: Vacation) -> Interval:
    """The instants a vacation covers: midnight of its first day to midnight after its last."""
    return _interval(vacation.start, vacation.days)


def _interval(start: date, days: int) -> Interval:
    return _midnight(start), _midnight(start + timedelta(days=days))


@cache  # one database per process: the statement never changes
def _pauses_sql() -> str:
    column = columns(Vacation, "start", "days", "user")
    return (f"SELECT {column['start']}, {column['days']} FROM {table(Vacation)} "
            f"WHERE {column['user']} = %s AND {column['start']} >= %s ORDER BY {column['start']}")


def paused_intervals(user_id: int, since: datetime) -> list[Interval]:
    """The player's vacations that end after ``since``, earliest first."""
    first_day = timezone.localtime(since).date() - timedelta(days=366)
    # Every action asks this for the deadline of the player to act next, and a rule reads the
    # database, never a kept answer. In plain SQL: building the ORM's query cost a move more CPU
    # than anything else of its clock (about a tenth of a move submitted, profiled).
    with connection.cursor() as cursor:
        cursor.execute(_pauses_sql(), [user_id, first_day])
        rows = cursor.fetchall()
    return [span for span in (_interval(start, days) for start, days in rows) if span[1] > since]


def vacations_end_key(user_id: Any) -> str:
    return f"accounts:vacations-end:{user_id}"


def vacations_end(user_id: int) -> datetime | None:
    """When the last of the player's vacations ends (None: they have none booked). Every game
    page's clock asks whether the player to act is away; kept (gamesite.kept), forgotten when a
    vacation is booked or cancelled (accounts/signals.py). For showing only: the deadlines
    themselves are worked out from ``paused_intervals``."""

    def stored() -> datetime | None:
        last = Vacation.objects.filter(user_id=user_id).order_by("-start").first()
        return None if last is None else vacation_interval(last)[1]

    return kept(vacations_end_key(user_id), stored, 3600)


def clock_end(start: datetime, running: timedelta, paused: Iterable[Interval]) -> datetime:
    """When a clock started at ``start`` has run for ``running``, standing still while paused.

    >>> from datetime import timezone as tz
    >>> t = datetime(2026, 3, 1, tzinfo=tz.utc)
    >>> clock_end(t, timedelta(days=2), [(t + timedelta(days=1), t + timedelta(days=4))])
    datetime.datetime(2026, 3, 5, 0, 0, tzinfo=datetime.timezone.utc)
    """
    now, left = start, running
    for pause_start, pause_end in sorted(paused):
        if pause_end <= now:
            continue
        if pause_start > now:
            if pause_start >= now + left:
                break
            left -= pause_start - now
        now = max(now, pause_end)
    return now + left


def running_time(start: datetime, end: datetime, paused: Iterable[Interval]) -> timedelta:
    """How long a clock runs between ``start`` and ``end`` (the inverse of ``clock_end``)."""
    total = end - start
    for pause_start, pause_end in paused:
        overlap = min(end, pause_end) - max(start, pause_start)
        if overlap > timedelta(0):
            total -= overlap
    return max(total, timedelta(0))


def vacation_until(user_id: int, now: datetime | None = None) -> datetime | None:
    """The end of the vacation the player is on at ``now`` (or None when not on vacation)."""
    now = now or timezone.now()
    for pause_start, pause_end in paused_intervals(user_id, now):
        if pause_start <= now < pause_end:
            return pause_end
    return None


def days_left(user: Any, year: int) -> int:
    """Vacation days the player may still book to start in ``year``."""
    booked = Vacation.objects.filter(user=user, start__year=year).aggregate(n=Sum("days"))["n"]
    return max(0, settings.VACATION_DAYS_PER_YEAR - (booked or 0))


def vacation_book(*, user: Any, start: date, days: int, today: date | None = None) -> Vacation:
    """Book ``days`` days from ``start``; raises VacationRefused and changes nothing if not allowed."""
    today = today or timezone.localdate()
    if days < 1:
        raise VacationRefused("A vacation lasts at least one day.")
    if start <= today:
        raise VacationRefused("A vacation must start tomorrow or later: book it ahead of time.")
    with transaction.atomic():
        # The profile row lock makes two bookings of one player take turns, so the allowance and
        # the overlap check cannot both pass for two racing requests.
        Profile.objects.select_for_update().get(user=user)
        left = days_left(user, start.year)
        if days > left:
            raise VacationRefused(
                f"You have {left} vacation day{'s' if left != 1 else ''} left in {start.year}: "
                f"{days} is too many."
            )
        new = Vacation(user=user, start=start, days=days)
        new_span = vacation_interval(new)
        now = timezone.now()
        before = paused_intervals(user.pk, now)
        for span in before:
            if span[0] < new_span[1] and new_span[0] < span[1]:
                raise VacationRefused("That vacation overlaps another of yours.")
        new.save()
        vacations_changed.send(
            sender=Vacation, user_id=user.pk, before=before, after=paused_intervals(user.pk, now)
        )
    return new


def vacation_cancel(*, user: Any, vacation_id: int) -> None:
    """Cancel a vacation that has not started yet."""
    with transaction.atomic():
        Profile.objects.select_for_update().get(user=user)
        vacation = Vacation.objects.filter(pk=vacation_id, user=user).first()
        if vacation is None:
            raise VacationRefused("There is no such vacation of yours.")
        now = timezone.now()
        if vacation_interval(vacation)[0] <= now:
            raise VacationRefused("That vacation has already started: it can no longer be cancelled.")
        before = paused_intervals(user.pk, now)
        vacation.delete()
        vacations_changed.send(
            sender=Vacation, user_id=user.pk, before=before, after=paused_intervals(user.pk, now)
        )


def upcoming(user: Any, today: date | None = None) -> Sequence[Vacation]:
    """The player's vacations not over yet, earliest first (for the profile)."""
    today = today or timezone.localdate()
    vacations = Vacation.objects.filter(user=user, start__gte=today - timedelta(days=366))
    return [v for v in vacations.order_by("start") if v.start + timedelta(days=v.days) > today]
