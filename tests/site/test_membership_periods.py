"""Membership as a period with an end: it ends by itself (frozen time), the game limit before and
after (running games go on), staff's grant, extension and end in the admin with a logged reason,
the week-before reminder by e-mail and push, and the API's /me."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords, start_game  # noqa: F401

from accounts.membership import is_member
from accounts.models import Profile
from api.tokens import token_create
from backgammon.models import Challenge, Game
from backgammon.services import ChallengeRejected, challenge_create
from membership.models import MembershipChange, MembershipPeriod
from membership.periods import MembershipRefused, membership_end, membership_extend
from notices.membership_reminder import push_membership_reminder, send_membership_reminder
from notices.models import PushSubscription, SentNotice
from notices.periodic import queue_periodic_notices
from notices.preferences import preferences_update
from notices.push.subscriptions import push_subscription_from_json
from tests.json_api.conftest import ApiClient

pytestmark = pytest.mark.django_db
START = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def fresh(user: Any) -> Any:
    return get_user_model()._default_manager.select_related("profile").get(pk=user.pk)


def test_a_membership_ends_by_itself(alice: Any, admin_user: Any) -> None:
    with time_machine.travel(START, tick=False) as clock:
        membership_extend(user=alice, staff=admin_user, days=30, reason="club prize")
        assert is_member(fresh(alice))
        clock.move_to(START + 30 * DAY - timedelta(seconds=1))
        assert is_member(fresh(alice))
        clock.move_to(START + 30 * DAY)
        assert not is_member(fresh(alice))
        assert Profile.objects.get(user=alice).member_until == START + 30 * DAY  # nothing had to run


def test_the_game_limit_before_and_after_the_end_and_running_games_go_on(
    alice: Any, bob: Any, admin_user: Any, make_user: Any, settings: Any
) -> None:
    settings.NON_MEMBER_GAME_LIMIT = 2
    with time_machine.travel(START, tick=False) as clock:
        membership_extend(user=alice, staff=admin_user, days=10, reason="trial")
        games = [start_game(fresh(alice), make_user(f"rival{n}"), "BX", time_limit=7 * DAY) for n in range(3)]
        challenge_create(challenger=fresh(alice), opponent="bob", variant="BP", time_limit=DAY)  # a member: no limit
        clock.move_to(START + 11 * DAY)
        before = Challenge.objects.count()
        with pytest.raises(ChallengeRejected, match="You already play 2 games"):
            challenge_create(challenger=fresh(alice), opponent="bob", variant="BP", time_limit=DAY)
        assert Challenge.objects.count() == before
        assert set(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("status", flat=True)) == {"active"}


def test_staff_extend_from_the_end_and_end_now_with_a_logged_reason(alice: Any, admin_user: Any) -> None:
    with time_machine.travel(START, tick=False) as clock:
        grant = membership_extend(user=alice, staff=admin_user, days=30, reason="  a   prize ")
        assert (grant.action, grant.reason, grant.until_before, grant.until_after) == ("grant", "a prize", None, START + 30 * DAY)
        extension = membership_extend(user=alice, staff=admin_user, days=5, reason="apology")
        assert (extension.action, extension.until_after) == ("extend", START + 35 * DAY)
        clock.move_to(START + DAY)
        ended = membership_end(user=alice, staff=admin_user, reason="abuse of chat")
        assert (ended.action, ended.until_before, ended.until_after, ended.staff) == (
            "end", START + 35 * DAY, START + DAY, admin_user)
        assert not is_member(fresh(alice))


@pytest.mark.parametrize(("days", "reason", "message"), [
    (30, "   ", "a reason is required"), (0, "why", "between 1 and"), (4000, "why", "between 1 and"),
    (30, "x" * 301, "300 characters"),
])
def test_a_bad_staff_action_changes_nothing(alice: Any, admin_user: Any, days: int, reason: str, message: str) -> None:
    with pytest.raises(MembershipRefused, match=message):
        membership_extend(user=alice, staff=admin_user, days=days, reason=reason)
    with pytest.raises(MembershipRefused, match="is not a member"):
        membership_end(user=alice, staff=admin_user, reason="why")
    assert not MembershipPeriod.objects.exists() and not MembershipChange.objects.exists()
    assert Profile.objects.get(user=alice).member_until is None


def test_the_admin_grants_extends_and_ends(admin_client: Client, admin_user: Any, alice: Any) -> None:
    add = reverse("admin:membership_membershipchange_add")
    response = admin_client.post(add, {"user": alice.pk, "action": "grant", "days": "30", "reason": "tournament win"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert is_member(fresh(alice))
    logged = MembershipChange.objects.get()
    assert (logged.staff, logged.reason, logged.action) == (admin_user, "tournament win", "grant")
    # A grant to a member is refused with the reason, and so is a change without a reason.
    refused = admin_client.post(add, {"user": alice.pk, "action": "grant", "days": "30", "reason": "again"})
    assert refused.status_code == 200 and "is a member already: extend instead" in refused.content.decode()
    refused = admin_client.post(add, {"user": alice.pk, "action": "extend", "days": "30", "reason": ""})
    assert refused.status_code == 200 and MembershipChange.objects.count() == 1
    assert admin_client.post(add, {"user": alice.pk, "action": "extend", "days": "10", "reason": "bonus"}).status_code == 302
    assert Profile.objects.get(user=alice).member_until == logged.until_after + 10 * DAY  # type: ignore[operator]
    assert admin_client.post(add, {"user": alice.pk, "action": "end", "reason": "refund asked"}).status_code == 302
    assert not is_member(fresh(alice))
    changes = admin_client.get(reverse("admin:membership_membershipchange_changelist")).content.decode()
    assert "refund asked" in changes and "tournament win" in changes
    assert admin_client.get(reverse("admin:membership_payment_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:membership_stripeevent_changelist")).status_code == 200
    # The log is not edited or deleted.
    assert admin_client.post(reverse("admin:membership_membershipchange_delete", args=[logged.pk]), {"post": "yes"}).status_code == 403


def test_players_cannot_change_memberships_in_the_admin(alice_client: Client, alice: Any) -> None:
    response = alice_client.post(reverse("admin:membership_membershipchange_add"),
                                 {"user": alice.pk, "action": "grant", "days": "30", "reason": "me"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not MembershipPeriod.objects.exists()


def test_the_reminder_goes_once_a_week_before_the_end_by_mail_and_push(
    alice: Any, admin_user: Any, push_service: Any
) -> None:
    push_subscription_from_json(user=alice, data={**push_service.subscription("a1"), "name": "phone"})
    with time_machine.travel(START, tick=False) as clock:
        membership_extend(user=alice, staff=admin_user, days=30, reason="prize")
        assert queue_periodic_notices(START) == 0  # not yet: more than a week left
        clock.move_to(START + 23 * DAY + timedelta(hours=1))
        now = START + 23 * DAY + timedelta(hours=1)
        assert queue_periodic_notices(now) == 2
        until = Profile.objects.get(user=alice).member_until
        assert until is not None
        assert send_membership_reminder(alice.pk, until, now) is True
        assert push_membership_reminder(alice.pk, until, now) == 1
        assert send_membership_reminder(alice.pk, until, now) is False  # once
        assert push_membership_reminder(alice.pk, until, now) == 0
        assert queue_periodic_notices(now) == 0
    [message] = mail.outbox
    assert message.to == [alice.email] and "ends in a week" in message.subject
    assert "/membership/" in message.body
    [payload] = push_service.delivered("a1")
    assert payload["title"] == "Your membership ends in a week"


def test_the_reminder_respects_the_switch_and_an_extension_moves_it(alice: Any, admin_user: Any) -> None:
    with time_machine.travel(START, tick=False):
        membership_extend(user=alice, staff=admin_user, days=5, reason="trial")
        until = Profile.objects.get(user=alice).member_until
        assert until is not None
        preferences_update(user=alice, delivery="immediate", membership_reminder=False)
        assert send_membership_reminder(alice.pk, until, START) is False
        preferences_update(user=alice, delivery="immediate", membership_reminder=True)
        membership_extend(user=alice, staff=admin_user, days=30, reason="paid cash")
        assert send_membership_reminder(alice.pk, until, START) is False  # that end is gone
    assert mail.outbox == [] and not SentNotice.objects.exists()
    assert not PushSubscription.objects.exists()


def test_the_api_me_says_the_membership(alice: Any, admin_user: Any) -> None:
    _, secret = token_create(user=alice, name="tests")
    api = ApiClient(secret)
    assert api.get("/me").json() == {"username": "alice", "membership": {"member": False, "until": None}}
    with time_machine.travel(START, tick=False):
        membership_extend(user=alice, staff=admin_user, days=30, reason="prize")
        assert api.get("/me").json()["membership"] == {"member": True, "until": "2030-03-31"}


def test_the_page_shows_a_members_end_and_the_profile_links_to_it(alice: Any, alice_client: Client,
                                                                   admin_user: Any) -> None:
    membership_extend(user=alice, staff=admin_user, days=30, reason="prize")
    until = Profile.objects.get(user=alice).member_until
    assert until is not None
    body = alice_client.get(reverse("membership:page")).content.decode()
    assert "You are a member until" in body
    profile = alice_client.get(reverse("accounts:profile")).content.decode()
    assert 'href="/membership/"' in profile
    assert "Become a member!" in alice_client.get(reverse("home")).content.decode()  # the ACCOUNT menu


def test_no_reminder_for_a_subscription_that_renews_by_itself(alice: Any, stripe_stand_in: Any) -> None:
    from membership.models import Payment, StripeSubscription
    from membership.periods import period_for_payment

    with time_machine.travel(START, tick=False):
        payment = Payment.objects.create(stripe_id="in_1", kind="subscription", user=alice, subscription_id="sub_1")
        subscription = StripeSubscription.objects.create(subscription_id="sub_1", user=alice)
        period_for_payment(payment=payment, starts_at=START - 25 * DAY, ends_at=START + 5 * DAY)
        assert queue_periodic_notices(START) == 0
        assert send_membership_reminder(alice.pk, START + 5 * DAY, START) is False
        subscription.ended_at = START + 5 * DAY  # cancelled: it will not renew
        subscription.save()
        assert queue_periodic_notices(START) == 2
        assert send_membership_reminder(alice.pk, START + 5 * DAY, START) is True
