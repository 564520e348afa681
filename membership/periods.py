"""The one place a membership changes: periods are added, cut or voided here, and the player's
``Profile.member_until`` is derived again from them under the profile's row lock.

``member_until`` is the latest end of the player's valid periods, where a period is valid unless
its payment was refunded, and ends no later than the moment its subscription ended. It is a
function of the stored facts, not of the order they came in, so Stripe's events may arrive in
any order (or twice) and leave the same state.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from membership.models import MembershipChange, MembershipPeriod, Payment, StripeSubscription

__all__ = [
    "MAX_STAFF_DAYS",
    "MembershipRefused",
    "membership_end",
    "membership_extend",
    "membership_recompute",
    "period_for_payment",
]

MAX_STAFF_DAYS = 3660
"""The longest period staff grant at once (ten years)."""


class MembershipRefused(ValueError):
    """A staff action that cannot be done (no reason, a bad number of days); nothing changed."""


def _lock_profile(user_id: int) -> Profile:
    return Profile.objects.select_for_update().get(user_id=user_id)


def _derived_until(user_id: int) -> datetime | None:
    periods = (
        MembershipPeriod.objects.filter(user_id=user_id)
        .exclude(payment__refunded_at__isnull=False)
        .select_related("payment")
    )
    subscription_ids = {p.payment.subscription_id for p in periods if p.payment and p.payment.subscription_id}
    ended = dict(
        StripeSubscription.objects.filter(subscription_id__in=subscription_ids, ended_at__isnull=False)
        .values_list("subscription_id", "ended_at")
    )
    ends = []
    for period in periods:
        end = period.ends_at
        if period.payment is not None and period.payment.subscription_id in ended:
            end = min(end, ended[period.payment.subscription_id])
        if end > period.starts_at:
            ends.append(end)
    return max(ends, default=None)


def membership_recompute(user_id: int) -> datetime | None:
    """Derive the player's ``member_until`` from their periods again; the new value."""
    with transaction.atomic():
        profile = _lock_profile(user_id)
        until = _derived_until(user_id)
        if profile.member_until != until:
            profile.member_until = until
            profile.save(update_fields=["member_until"])
    return until


def period_for_payment(*, payment: Payment, starts_at: datetime, ends_at: datetime) -> bool:
    """Give the payment's player the period it paid for, once per payment; True if added.

    A single period bought while still a member starts where the membership ends."""
    if payment.user_id is None:
        return False
    with transaction.atomic():
        profile = _lock_profile(payment.user_id)
        if MembershipPeriod.objects.filter(payment=payment).exists():
            return False
        if payment.kind == Payment.Kind.SINGLE and profile.member_until and profile.member_until > starts_at:
            length = ends_at - starts_at
            starts_at = profile.member_until
            ends_at = starts_at + length
        MembershipPeriod.objects.create(
            user_id=payment.user_id, source=MembershipPeriod.Source.STRIPE, payment=payment,
            starts_at=starts_at, ends_at=ends_at,
        )
        membership_recompute(payment.user_id)
    return True


def _checked_reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise MembershipRefused("Say why: a reason is required, and it is logged.")
    if len(reason) > 300:
        raise MembershipRefused("Keep the reason to 300 characters.")
    return reason


def membership_extend(*, user: Any, staff: Any, days: int, reason: str,
                      now: datetime | None = None) -> MembershipChange:
    """Staff grant ``days`` of membership (to a non-member, from now) or extend it (from its end);
    logged with the reason (the log row is returned)."""
    reason = _checked_reason(reason)
    if not 1 <= days <= MAX_STAFF_DAYS:
        raise MembershipRefused(f"Give between 1 and {MAX_STAFF_DAYS} days, not {days}.")
    now = now or timezone.now()
    with transaction.atomic():
        profile = _lock_profile(user.pk)
        before = profile.member_until
        member = before is not None and before > now
        starts = before if member and before is not None else now
        MembershipPeriod.objects.create(
            user_id=user.pk, source=MembershipPeriod.Source.STAFF,
            starts_at=starts, ends_at=starts + timedelta(days=days),
        )
        after = membership_recompute(user.pk)
        return MembershipChange.objects.create(
            user_id=user.pk, staff=staff, reason=reason, until_before=before, until_after=after,
            action=MembershipChange.Action.EXTEND if member else MembershipChange.Action.GRANT,
        )


def membership_end(*, user: Any, staff: Any, reason: str, now: datetime | None = None) -> MembershipChange:
    """Staff end a membership now (every period is cut at this moment); logged with the reason.
    A payment Stripe reports later still gives its period."""
    reason = _checked_reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        profile = _lock_profile(user.pk)
        before = profile.member_until
        if before is None or before <= now:
            raise MembershipRefused(f"{user.get_username()} is not a member.")
        running = MembershipPeriod.objects.filter(user_id=user.pk, ends_at__gt=now)
        running.filter(starts_at__lt=now).update(ends_at=now)
        # A period that had not begun ends where it starts: it counts no more.
        for period in running.filter(starts_at__gte=now):
            period.ends_at = period.starts_at
            period.save(update_fields=["ends_at"])
        after = membership_recompute(user.pk)
        return MembershipChange.objects.create(
            user_id=user.pk, staff=staff, reason=reason, until_before=before, until_after=after,
            action=MembershipChange.Action.END,
        )
