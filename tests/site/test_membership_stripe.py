"""Become a member!: Stripe Checkout through the real ``stripe`` library talking to a Stripe API
stand-in on loopback, and Stripe's webhook with payloads signed as Stripe signs them: valid,
forged, replayed and out-of-order events, refunds, and the page without Stripe's keys."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.membership import is_member
from accounts.models import Profile
from membership.models import MembershipPeriod, Payment, StripeEvent
from tests.site.stripe_stand_in import PRICES, WEBHOOK_SECRET, event, signed

pytestmark = pytest.mark.django_db
WEBHOOK = "/membership/stripe/webhook/"
DAY = 24 * 3600


def post_event(payload: dict[str, Any] | bytes, *, header: str | None = "sign", secret: str = WEBHOOK_SECRET,
               timestamp: int | None = None) -> Any:
    body, signature = signed(payload, secret, timestamp)
    headers = {} if header is None else {"HTTP_STRIPE_SIGNATURE": signature if header == "sign" else header}
    # Stripe holds no CSRF token: the view must not ask for one.
    return Client(enforce_csrf_checks=True).post(WEBHOOK, body, content_type="application/json", **headers)


def member_now(user: Any) -> bool:
    """The one question, asked of the player as stored now (not a copy loaded before)."""
    return is_member(get_user_model()._default_manager.select_related("profile").get(pk=user.pk))


def until_of(user: Any) -> datetime | None:
    return Profile.objects.get(user=user).member_until


def at(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def subscription_checkout(user: Any, subscription: str = "sub_1", invoice: str = "in_1") -> dict[str, Any]:
    return event("checkout.session.completed", {
        "id": f"cs_{subscription}", "object": "checkout.session", "mode": "subscription",
        "client_reference_id": str(user.pk), "payment_status": "paid", "status": "complete",
        "subscription": subscription, "invoice": invoice, "amount_total": 300, "currency": "eur",
    })


def invoice_paid(invoice: str, subscription: str, start: int, end: int, user_id: int | None = None,
                 payment_intent: str = "") -> dict[str, Any]:
    obj: dict[str, Any] = {
        "id": invoice, "object": "invoice", "status": "paid", "amount_paid": 300, "currency": "eur",
        "parent": {"type": "subscription_details", "subscription_details": {
            "subscription": subscription, "metadata": {"user_id": str(user_id)} if user_id else {}}},
        "lines": {"object": "list", "data": [{"id": f"il_{invoice}", "period": {"start": start, "end": end}}]},
    }
    if payment_intent:
        obj["payments"] = {"data": [{"payment": {"type": "payment_intent", "payment_intent": payment_intent}}]}
    return event("invoice.paid", obj)


def single_checkout(user: Any, session: str = "cs_single_1", payment_intent: str = "pi_1") -> dict[str, Any]:
    return event("checkout.session.completed", {
        "id": session, "object": "checkout.session", "mode": "payment", "client_reference_id": str(user.pk),
        "payment_status": "paid", "status": "complete", "payment_intent": payment_intent,
        "amount_total": 3500, "currency": "eur",
    })


def refund(payment_intent: str, *, full: bool = True) -> dict[str, Any]:
    return event("charge.refunded", {
        "id": f"ch_{payment_intent}", "object": "charge", "payment_intent": payment_intent,
        "amount": 3500, "amount_refunded": 3500 if full else 100, "refunded": full,
    })


# Checkout


def test_it_creates_a_subscription_checkout_session_for_the_player(alice: Any, alice_client: Client,
                                                                    stripe_stand_in: Any, settings: Any) -> None:
    page = alice_client.get(reverse("membership:page"))
    body = page.content.decode()
    assert "You are not a member." in body and "€3 a month" in body and "Pay with Stripe" in body
    assert "https://checkout.stripe.com" in page["Content-Security-Policy"]  # the form may go there
    response = alice_client.post(reverse("membership:checkout"), {"plan": "monthly"})
    assert response.status_code == 303
    assert response["Location"].startswith("https://checkout.stripe.com/c/pay/cs_test_")
    [call] = stripe_stand_in.calls
    assert (call.method, call.path) == ("POST", "/v1/checkout/sessions")
    assert call.authorization == "Bearer sk_test_stand_in_key"
    assert call.form["mode"] == "subscription"
    assert call.form["line_items[0][price]"] == PRICES["monthly"]
    assert call.form["client_reference_id"] == str(alice.pk)
    assert call.form["subscription_data[metadata][user_id]"] == str(alice.pk)
    assert call.form["success_url"] == f"{settings.SITE_URL}/membership/thanks/?session_id={{CHECKOUT_SESSION_ID}}"
    assert call.form["cancel_url"] == f"{settings.SITE_URL}/membership/cancelled/"
    assert not member_now(alice)  # only the webhook grants


def test_a_single_period_is_a_payment_mode_session(alice_client: Client, stripe_stand_in: Any) -> None:
    assert alice_client.post(reverse("membership:checkout"), {"plan": "single"}).status_code == 303
    assert stripe_stand_in.calls[0].form["mode"] == "payment"
    assert stripe_stand_in.calls[0].form["line_items[0][price]"] == PRICES["single"]
    assert "subscription_data[metadata][user_id]" not in stripe_stand_in.calls[0].form


@pytest.mark.parametrize("plan", ["", "lifetime", "MONTHLY"])
def test_an_unknown_plan_is_refused_and_asks_nothing_of_stripe(alice_client: Client, stripe_stand_in: Any,
                                                               plan: str) -> None:
    response = alice_client.post(reverse("membership:checkout"), {"plan": plan})
    assert response.status_code == 400
    assert "Choose one of the memberships offered" in response.content.decode()
    assert stripe_stand_in.calls == []


def test_a_visitor_is_sent_to_log_in_and_a_get_is_refused(client: Client, alice_client: Client,
                                                          stripe_stand_in: Any) -> None:
    response = client.post(reverse("membership:checkout"), {"plan": "monthly"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert alice_client.get(reverse("membership:checkout")).status_code == 405
    assert stripe_stand_in.calls == []


def test_stripe_refusing_the_call_is_said_and_changes_nothing(alice: Any, alice_client: Client,
                                                              stripe_stand_in: Any, settings: Any) -> None:
    settings.STRIPE_SECRET_KEY = "sk_test_wrong"
    response = alice_client.post(reverse("membership:checkout"), {"plan": "yearly"})
    assert response.status_code == 502
    assert "did not answer. Nothing was charged" in response.content.decode()
    assert stripe_stand_in.calls[0].authorization == "Bearer sk_test_wrong"
    assert not member_now(alice)


def test_without_keys_the_page_says_how_memberships_are_given(alice_client: Client, settings: Any) -> None:
    settings.STRIPE_SECRET_KEY = ""
    settings.MEMBERSHIP_OFFLINE_TEXT = "Ask Dave at the club <b>bar</b>."
    body = alice_client.get(reverse("membership:page")).content.decode()
    assert "Ask Dave at the club &lt;b&gt;bar&lt;/b&gt;." in body
    assert "Pay with Stripe" not in body
    assert alice_client.post(reverse("membership:checkout"), {"plan": "monthly"}).status_code == 400
    assert post_event(subscription_checkout(Profile.objects.first().user)).status_code == 400  # type: ignore[union-attr]


def test_the_return_pages(alice_client: Client, stripe_stand_in: Any) -> None:
    assert "Stripe is confirming your payment" in alice_client.get(reverse("membership:success")).content.decode()
    cancelled = alice_client.get(reverse("membership:cancelled"), follow=True)
    assert "nothing was charged" in cancelled.content.decode()


# The webhook


def test_a_completed_subscription_checkout_makes_a_member_until_the_period_end(alice: Any, stripe_stand_in: Any) -> None:
    now = int(time.time())
    stripe_stand_in.subscription("sub_1", now, now + 30 * DAY)
    response = post_event(subscription_checkout(alice))
    assert response.status_code == 200, response.content
    assert until_of(alice) == at(now + 30 * DAY)
    assert member_now(alice)
    assert [c.path for c in stripe_stand_in.calls] == ["/v1/subscriptions/sub_1"]
    payment = Payment.objects.get()
    assert (payment.user, payment.stripe_id, payment.amount, payment.subscription_id) == (alice, "in_1", 300, "sub_1")


def test_a_renewal_invoice_extends_the_membership(alice: Any, stripe_stand_in: Any) -> None:
    now = int(time.time())
    stripe_stand_in.subscription("sub_1", now, now + 30 * DAY)
    post_event(subscription_checkout(alice))
    # The first invoice's own event changes nothing more (the same payment); the renewal extends.
    post_event(invoice_paid("in_1", "sub_1", now, now + 30 * DAY))
    assert MembershipPeriod.objects.count() == 1
    post_event(invoice_paid("in_2", "sub_1", now + 30 * DAY, now + 60 * DAY))
    assert until_of(alice) == at(now + 60 * DAY)


@pytest.mark.parametrize("header", [None, "", "t=1,v1=00", "garbage"])
def test_a_missing_or_bad_signature_is_a_400_and_changes_nothing(alice: Any, stripe_stand_in: Any,
                                                                header: str | None) -> None:
    now = int(time.time())
    stripe_stand_in.subscription("sub_1", now, now + 30 * DAY)
    response = post_event(subscription_checkout(alice), header=header)
    assert response.status_code == 400
    assert not StripeEvent.objects.exists() and not member_now(alice)
    assert stripe_stand_in.calls == []


def test_a_payload_signed_with_another_secret_or_long_ago_is_refused(alice: Any, stripe_stand_in: Any) -> None:
    assert post_event(subscription_checkout(alice), secret="whsec_forger").status_code == 400
    assert post_event(subscription_checkout(alice), timestamp=int(time.time()) - 3600).status_code == 400
    assert not StripeEvent.objects.exists() and not member_now(alice)


def test_a_changed_body_under_a_real_signature_is_refused(alice: Any, bob: Any, stripe_stand_in: Any) -> None:
    body, signature = signed(subscription_checkout(alice))
    forged = body.replace(f'"client_reference_id": "{alice.pk}"'.encode(), f'"client_reference_id": "{bob.pk}"'.encode())
    assert forged != body
    response = Client().post(WEBHOOK, forged, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature)
    assert response.status_code == 400
    assert not member_now(bob)


def test_a_replayed_event_changes_nothing(alice: Any, admin_user: Any, stripe_stand_in: Any) -> None:
    from membership.periods import membership_end

    now = int(time.time())
    stripe_stand_in.subscription("sub_1", now, now + 30 * DAY)
    payload = subscription_checkout(alice)
    assert post_event(payload).status_code == 200
    membership_end(user=alice, staff=admin_user, reason="chargeback by phone")
    again = post_event(payload)
    assert again.status_code == 200 and "applied before" in again.content.decode()
    assert not member_now(alice)
    assert StripeEvent.objects.count() == 1 and MembershipPeriod.objects.filter(source="stripe").count() == 1


@pytest.mark.parametrize("order", list(itertools.permutations(["checkout", "deleted", "renewal"])))
def test_a_deletion_and_an_older_periods_invoice_end_the_membership_in_any_order(
    alice: Any, stripe_stand_in: Any, order: tuple[str, ...]
) -> None:
    """The subscription ends in two days; the renewal's invoice.paid (a period to +20 days) may come
    after the deletion, and the checkout anywhere: the membership ends when the subscription did."""
    now = int(time.time())
    stripe_stand_in.subscription("sub_1", now - 40 * DAY, now - 10 * DAY)
    ended = now + 2 * DAY
    events = {
        "checkout": subscription_checkout(alice),
        "deleted": event("customer.subscription.deleted", {"id": "sub_1", "object": "subscription",
                                                           "status": "canceled", "ended_at": ended}),
        "renewal": invoice_paid("in_2", "sub_1", now - 10 * DAY, now + 20 * DAY),
    }
    for name in order:
        assert post_event(events[name]).status_code == 200
    assert until_of(alice) == at(ended)
    assert member_now(alice)


def test_a_subscription_deleted_in_the_past_ends_the_membership_now(alice: Any, stripe_stand_in: Any) -> None:
    now = int(time.time())
    post_event(invoice_paid("in_3", "sub_3", now - DAY, now + 29 * DAY, user_id=alice.pk))
    assert member_now(alice)
    post_event(event("customer.subscription.deleted", {"id": "sub_3", "object": "subscription",
                                                       "status": "canceled", "ended_at": now - 60}))
    assert not member_now(alice)


def test_an_invoice_before_its_checkout_waits_for_the_player(alice: Any, stripe_stand_in: Any) -> None:
    now = int(time.time())
    # Without the subscription's metadata the invoice names nobody: it is kept, not lost.
    response = post_event(invoice_paid("in_1", "sub_9", now, now + 365 * DAY))
    assert "kept until" in response.content.decode()
    assert not member_now(alice)
    post_event(subscription_checkout(alice, subscription="sub_9", invoice="in_1"))
    assert until_of(alice) == at(now + 365 * DAY)
    assert stripe_stand_in.calls == []  # the invoice told the period: no need to ask


def test_an_invoice_names_its_player_by_the_subscriptions_metadata(alice: Any, stripe_stand_in: Any) -> None:
    now = int(time.time())
    post_event(invoice_paid("in_5", "sub_5", now, now + 30 * DAY, user_id=alice.pk))
    assert until_of(alice) == at(now + 30 * DAY)


def test_a_single_period_reads_the_line_items_and_a_refund_takes_it_back(alice: Any, stripe_stand_in: Any,
                                                                          settings: Any) -> None:
    stripe_stand_in.line_items["cs_single_1"] = [PRICES["single"]]
    before = datetime.now(tz=UTC)
    assert post_event(single_checkout(alice)).status_code == 200
    until = until_of(alice)
    assert until is not None and until >= before + timedelta(days=settings.MEMBERSHIP_SINGLE_PERIOD_DAYS) - timedelta(seconds=2)
    assert [c.path for c in stripe_stand_in.calls] == ["/v1/checkout/sessions/cs_single_1/line_items"]
    post_event(refund("pi_1", full=False))
    assert member_now(alice)  # a partial refund leaves it
    post_event(refund("pi_1"))
    assert not member_now(alice) and until_of(alice) is None
    assert Payment.objects.get().refunded_at is not None


def test_a_refund_before_its_payment_voids_the_payment(alice: Any, stripe_stand_in: Any) -> None:
    stripe_stand_in.line_items["cs_single_2"] = [PRICES["single"]]
    assert "no payment of it is known" in post_event(refund("pi_2")).content.decode()
    post_event(single_checkout(alice, session="cs_single_2", payment_intent="pi_2"))
    assert not member_now(alice)


def test_a_session_that_bought_something_else_gives_nothing(alice: Any, stripe_stand_in: Any) -> None:
    stripe_stand_in.line_items["cs_single_3"] = ["price_tshirt"]
    response = post_event(single_checkout(alice, session="cs_single_3"))
    assert response.status_code == 200 and "bought no membership price" in response.content.decode()
    assert not member_now(alice)


def test_an_unknown_player_or_an_unpaid_session_gives_nothing(alice: Any, stripe_stand_in: Any) -> None:
    payload = subscription_checkout(alice)
    payload["data"]["object"]["client_reference_id"] = "999999"
    assert "no player" in post_event(payload).content.decode()
    unpaid = subscription_checkout(alice)
    unpaid["data"]["object"]["payment_status"] = "unpaid"
    assert "not paid yet" in post_event(unpaid).content.decode()
    assert not member_now(alice) and stripe_stand_in.calls == []


def test_other_events_are_kept_and_ignored(alice: Any, stripe_stand_in: Any) -> None:
    response = post_event(event("customer.created", {"id": "cus_1", "object": "customer"}))
    assert response.status_code == 200 and "ignored" in response.content.decode()
    assert StripeEvent.objects.get().type == "customer.created"


def test_a_single_period_bought_by_a_member_starts_at_the_membership_end(alice: Any, stripe_stand_in: Any,
                                                                        settings: Any) -> None:
    now = int(time.time())
    post_event(invoice_paid("in_7", "sub_7", now, now + 30 * DAY, user_id=alice.pk))
    stripe_stand_in.line_items["cs_single_4"] = [PRICES["single"]]
    post_event(single_checkout(alice, session="cs_single_4", payment_intent="pi_4"))
    assert until_of(alice) == at(now + 30 * DAY) + timedelta(days=settings.MEMBERSHIP_SINGLE_PERIOD_DAYS)


def test_an_event_that_cannot_be_read_now_is_kept_for_stripes_retry(alice: Any, stripe_stand_in: Any) -> None:
    now = int(time.time())
    payload = subscription_checkout(alice)  # the stand-in does not know sub_1 yet: a 404
    response = post_event(payload)
    assert response.status_code == 503
    assert not StripeEvent.objects.exists() and not Payment.objects.exists() and not member_now(alice)
    stripe_stand_in.subscription("sub_1", now, now + 30 * DAY)
    assert post_event(payload).status_code == 200  # Stripe's retry of the same event
    assert until_of(alice) == at(now + 30 * DAY)


def test_a_visitor_reads_the_offer_and_is_asked_to_log_in(client: Client, stripe_stand_in: Any) -> None:
    body = client.get(reverse("membership:page")).content.decode()
    assert "€30 a year" in body and "Log in to become a member" in body and "Pay with Stripe" not in body
    help_page = client.get(reverse("membership:help")).content.decode()
    assert "checkout.session.completed" in help_page and "client_reference_id" in help_page
