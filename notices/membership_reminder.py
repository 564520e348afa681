"""The reminder a week (MEMBERSHIP_REMINDER_DAYS) before a membership ends: one e-mail and one
push per end of membership, with the player's "My membership ends in a week" switch.

A membership whose last period was paid by a Stripe subscription that has not ended gets none:
Stripe renews it by itself, and a monthly subscriber would otherwise be told every month that
their membership ends.

Queued by the worker's tick (notices/periodic.py); each task decides again when it runs (the
membership may have been extended meanwhile) and claims its notice by a unique key naming the
player and the end, so a repeated or concurrent run sends nothing twice, and an extension (a new
end) gets its own reminder in its own time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from membership.models import MembershipPeriod, StripeSubscription
from notices import outbox
from notices.mail import absolute
from notices.models import PushSubscription, SentNotice
from notices.preferences import preferences_lock
from notices.push.delivery import push_to_devices
from notices.sending import claim_notice

__all__ = ["membership_reminder_key", "memberships_to_remind", "push_membership_reminder", "send_membership_reminder"]

Kind = SentNotice.Kind


def membership_reminder_key(user_id: int, until: datetime) -> str:
    return f"membership_reminder:user {user_id}:until {until.isoformat()}"


def _window(now: datetime) -> tuple[datetime, datetime]:
    return now, now + timedelta(days=settings.MEMBERSHIP_REMINDER_DAYS)


def memberships_to_remind(now: datetime) -> list[tuple[int, datetime]]:
    """(player, end) of the memberships ending within the window whose reminder has not gone
    out, by e-mail or push, yet."""
    start, end = _window(now)
    ending = list(Profile.objects.filter(member_until__gt=start, member_until__lte=end,
                                         user__is_active=True).values_list("user_id", "member_until"))
    keys = {membership_reminder_key(user_id, until) for user_id, until in ending}
    sent = set(SentNotice.objects.filter(key__in=keys | {f"push:{key}" for key in keys}).values_list("key", flat=True))
    return [(user_id, until) for user_id, until in ending
            if (membership_reminder_key(user_id, until) not in sent
                or f"push:{membership_reminder_key(user_id, until)}" not in sent)
            and not _renews_by_itself(user_id, until)]


def _renews_by_itself(user_id: int, until: datetime) -> bool:
    subscriptions = MembershipPeriod.objects.filter(
        user_id=user_id, ends_at=until, payment__refunded_at__isnull=True
    ).exclude(payment__subscription_id="").values_list("payment__subscription_id", flat=True)
    return StripeSubscription.objects.filter(subscription_id__in=list(subscriptions), ended_at__isnull=True).exists()


def _still_ending(user_id: int, until: datetime, now: datetime) -> bool:
    start, end = _window(now)
    ending = Profile.objects.filter(user_id=user_id, member_until=until, member_until__gt=start,
                                    member_until__lte=end).exists()
    return ending and not _renews_by_itself(user_id, until)


def send_membership_reminder(user_id: int, until: datetime, now: datetime | None = None) -> bool:
    """The e-mail; True if it went out."""
    now = now or timezone.now()
    player = get_user_model()._default_manager.filter(pk=user_id, is_active=True).first()
    if player is None or not player.email or not _still_ending(user_id, until, now):
        return False
    key = membership_reminder_key(user_id, until)
    with transaction.atomic():
        if not preferences_lock(user_id).wants(Kind.MEMBERSHIP_REMINDER):
            return False
        if not claim_notice(user_id=user_id, kind=Kind.MEMBERSHIP_REMINDER, key=key):
            return False
        outbox.hold(key=key, user=player, template="membership_reminder",
                    subject="your membership ends in a week",
                    context={"until": until, "membership_url": absolute(reverse("membership:page"))})
    return outbox.deliver(key)


def push_membership_reminder(user_id: int, until: datetime, now: datetime | None = None) -> int:
    """The push to the player's devices; how many took it."""
    now = now or timezone.now()
    if not get_user_model()._default_manager.filter(pk=user_id, is_active=True).exists():
        return 0
    if not _still_ending(user_id, until, now):
        return 0
    key = f"push:{membership_reminder_key(user_id, until)}"
    with transaction.atomic():
        if not preferences_lock(user_id).wants_push(Kind.MEMBERSHIP_REMINDER):
            return 0
        devices = list(PushSubscription.objects.filter(user_id=user_id))
        if not devices or not claim_notice(user_id=user_id, kind=Kind.MEMBERSHIP_REMINDER, key=key,
                                           channel=SentNotice.Channel.PUSH):
            return 0
    local = timezone.localtime(until)
    return push_to_devices(devices, {
        "title": "Your membership ends in a week",
        "body": f"It runs until {local:%d %b %Y}. Renew it to keep playing without a game limit.",
        "url": absolute(reverse("membership:page")),
        "tag": "membership",
    }, ttl=24 * 3600, urgency="normal")
