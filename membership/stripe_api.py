"""Our calls to Stripe's API, through the official ``stripe`` library pointed at STRIPE_API_BASE
(Stripe's own address unless a stand-in is named, as the tests do).

Only three calls: create a Checkout session, and, when a webhook event says a session was
completed, read the subscription's current period or the session's line items.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import stripe
from django.conf import settings
from django.urls import reverse

from gamesite.site_address import absolute_url

__all__ = [
    "PLANS",
    "Plan",
    "checkout_session_create",
    "offered_plans",
    "session_price_ids",
    "stripe_enabled",
    "subscription_period",
]


@dataclass(frozen=True, slots=True)
class Plan:
    key: str
    label: str
    mode: str
    """Checkout's mode: "subscription" (renews by itself) or "payment" (one period)."""
    price_setting: str
    text_setting: str

    @property
    def price_id(self) -> str:
        return str(getattr(settings, self.price_setting))

    @property
    def price_text(self) -> str:
        return str(getattr(settings, self.text_setting))


PLANS: dict[str, Plan] = {
    plan.key: plan
    for plan in (
        Plan("monthly", "Monthly subscription", "subscription", "STRIPE_PRICE_MONTHLY", "MEMBERSHIP_PRICE_MONTHLY_TEXT"),
        Plan("yearly", "Yearly subscription", "subscription", "STRIPE_PRICE_YEARLY", "MEMBERSHIP_PRICE_YEARLY_TEXT"),
        Plan("single", "One period, paid once", "payment", "STRIPE_PRICE_SINGLE", "MEMBERSHIP_PRICE_SINGLE_TEXT"),
    )
}


def stripe_enabled() -> bool:
    """Payments are offered only with both keys: the API key to sell, the webhook secret to hear."""
    return bool(settings.STRIPE_SECRET_KEY and settings.STRIPE_WEBHOOK_SECRET)


def offered_plans() -> list[Plan]:
    """The plans with a price configured (none without Stripe's keys)."""
    if not stripe_enabled():
        return []
    return [plan for plan in PLANS.values() if plan.price_id]


def _client() -> stripe.StripeClient:
    return stripe.StripeClient(
        settings.STRIPE_SECRET_KEY,
        base_addresses={"api": settings.STRIPE_API_BASE},
        max_network_retries=1,
    )


def checkout_session_create(*, user: Any, plan: Plan) -> str:
    """A Checkout session for ``plan`` paid by ``user``; the address of Stripe's payment page.

    ``client_reference_id`` is the user's id: the completed session's webhook names the player
    by it. The subscription carries it too (its metadata), so its invoices name the player even
    when their events come before the session's."""
    params: dict[str, Any] = {
        "mode": plan.mode,
        "line_items": [{"price": plan.price_id, "quantity": 1}],
        "client_reference_id": str(user.pk),
        "success_url": absolute_url(reverse("membership:success")) + "?session_id={CHECKOUT_SESSION_ID}",
        "cancel_url": absolute_url(reverse("membership:cancelled")),
        "metadata": {"user_id": str(user.pk), "plan": plan.key},
    }
    if user.email:
        params["customer_email"] = user.email
    if plan.mode == "subscription":
        params["subscription_data"] = {"metadata": {"user_id": str(user.pk)}}
    session = _client().v1.checkout.sessions.create(params=params)  # type: ignore[arg-type]
    return str(session.url)


def _moment(seconds: Any) -> datetime:
    return datetime.fromtimestamp(int(seconds), tz=UTC)


def subscription_period(subscription_id: str) -> tuple[datetime, datetime]:
    """The subscription's current period (its first item's, where API versions since 2025 keep it;
    the subscription's own fields in older ones)."""
    subscription = _client().v1.subscriptions.retrieve(subscription_id).to_dict()
    items = (subscription.get("items") or {}).get("data") or [{}]
    start = items[0].get("current_period_start") or subscription.get("current_period_start")
    end = items[0].get("current_period_end") or subscription.get("current_period_end")
    if start is None or end is None:
        raise ValueError(f"Subscription {subscription_id} names no current period")
    return _moment(start), _moment(end)


def session_price_ids(session_id: str) -> list[str]:
    """The price ids of a Checkout session's line items."""
    items = _client().v1.checkout.sessions.line_items.list(session_id).to_dict()
    return [str((item.get("price") or {}).get("id", "")) for item in items.get("data", [])]
