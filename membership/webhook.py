"""Stripe's webhook: each event verified by its signature (``stripe.Webhook.construct_event``),
kept once by its id, and applied to the membership facts (membership.models), from which
membership.periods derives each player's end of membership.

What each event is read for (the help page says the same to operators):

* ``checkout.session.completed``: ``client_reference_id`` is the player's user id (our Checkout
  sessions set it). In subscription mode, ``subscription`` ties that subscription to the player
  and its current period (read from the API) is the paid period, the payment being the session's
  first ``invoice``; in payment mode, the session's line items (read from the API) must hold
  STRIPE_PRICE_SINGLE, and the period is MEMBERSHIP_SINGLE_PERIOD_DAYS from the event.
* ``invoice.paid``: a subscription's invoice; the subscription's player (from the checkout, or the
  subscription's ``metadata.user_id``) gets the period of the invoice's first line.
* ``customer.subscription.deleted``: the subscription ended at its ``ended_at``; no period of it
  runs past that moment, whenever its invoices are reported.
* ``charge.refunded``: a full refund voids the period of the payment with that ``payment_intent``
  (or ``invoice``), now or when that payment is reported later.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import stripe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from membership import stripe_api
from membership.models import Payment, StripeEvent, StripeSubscription
from membership.periods import membership_recompute, period_for_payment

__all__ = ["WebhookRefused", "webhook_receive"]

log = logging.getLogger(__name__)


class WebhookRefused(ValueError):
    """A call that is not a verified Stripe event (no secret set, no or a bad signature)."""


def webhook_receive(*, payload: bytes, signature: str | None) -> str:
    """Verify and apply one event, once; what it did, in words."""
    secret = settings.STRIPE_WEBHOOK_SECRET
    if not secret:
        raise WebhookRefused("Stripe is not configured here.")
    try:
        stripe.Webhook.construct_event(payload, signature, secret)
    except (stripe.SignatureVerificationError, ValueError) as error:
        raise WebhookRefused(f"Not a verified Stripe event: {error}") from None
    event = json.loads(payload)
    with transaction.atomic():
        try:
            with transaction.atomic():
                StripeEvent.objects.create(event_id=event["id"], type=event.get("type", ""), payload=event)
        except IntegrityError:
            return f"event {event['id']} was applied before: nothing changed"
        outcome = _apply(event)
        StripeEvent.objects.filter(event_id=event["id"]).update(outcome=outcome[:300])
    log.info("stripe event %s %s: %s", event.get("type"), event["id"], outcome)
    return outcome


def _apply(event: dict[str, Any]) -> str:
    handler = _HANDLERS.get(event.get("type", ""))
    if handler is None:
        return "ignored: not an event membership reads"
    obj = (event.get("data") or {}).get("object") or {}
    return handler(obj, _moment(event.get("created")))


def _moment(seconds: Any) -> datetime:
    return timezone.now() if seconds is None else datetime.fromtimestamp(int(seconds), tz=UTC)


def _user_by_id(value: Any) -> Any:
    try:
        user_id = int(str(value))
    except ValueError:
        return None
    return get_user_model()._default_manager.filter(pk=user_id).first()


def _refund_reported(payment: Payment) -> bool:
    """Whether a full refund of this payment came before the payment itself."""
    refunds = StripeEvent.objects.filter(type="charge.refunded", payload__data__object__refunded=True)
    match = Q(pk__in=[])
    if payment.payment_intent:
        match |= Q(payload__data__object__payment_intent=payment.payment_intent)
    if payment.kind == Payment.Kind.SUBSCRIPTION:
        match |= Q(payload__data__object__invoice=payment.stripe_id)
    return refunds.filter(match).exists()


def _payment(*, stripe_id: str, kind: str, user: Any, obj: dict[str, Any], paid_at: datetime,
             subscription_id: str = "", payment_intent: str = "") -> Payment:
    """The payment's row, made or completed with what this event knows."""
    payment, _ = Payment.objects.select_for_update().get_or_create(
        stripe_id=stripe_id,
        defaults={"kind": kind, "paid_at": paid_at, "currency": str(obj.get("currency") or "")[:3],
                  "amount": int(obj.get("amount_total") or obj.get("amount_paid") or 0)},
    )
    changed = []
    for field, value in (("user", user), ("subscription_id", subscription_id), ("payment_intent", payment_intent)):
        if value and not getattr(payment, field):
            setattr(payment, field, value)
            changed.append(field)
    if payment.refunded_at is None and _refund_reported(payment):
        payment.refunded_at = timezone.now()
        changed.append("refunded_at")
    if changed:
        payment.save(update_fields=changed)
    return payment


def _subscription(subscription_id: str, user: Any = None) -> StripeSubscription:
    row, _ = StripeSubscription.objects.select_for_update().get_or_create(subscription_id=subscription_id)
    if user is not None and row.user_id is None:
        row.user = user
        row.save(update_fields=["user"])
        # Invoices reported before the checkout waited for their player: give them now.
        for held in Payment.objects.filter(subscription_id=subscription_id, user__isnull=True):
            held.user = user
            held.save(update_fields=["user"])
            _give_invoice_period(held)
    return row


def _checkout_completed(obj: dict[str, Any], at: datetime) -> str:
    user = _user_by_id(obj.get("client_reference_id"))
    if user is None:
        return f"no player with id {obj.get('client_reference_id')!r}: nothing changed"
    if obj.get("payment_status") not in ("paid", "no_payment_required"):
        return f"session {obj.get('id')} is not paid yet: nothing changed"
    if obj.get("mode") == "subscription":
        subscription_id = str(obj.get("subscription") or "")
        if not subscription_id:
            return "a subscription session without a subscription: nothing changed"
        _subscription(subscription_id, user)
        payment = _payment(stripe_id=str(obj.get("invoice") or f"{obj['id']}"), kind=Payment.Kind.SUBSCRIPTION,
                           user=user, obj=obj, paid_at=at, subscription_id=subscription_id)
        if not hasattr(payment, "period"):
            starts, ends = stripe_api.subscription_period(subscription_id)
            period_for_payment(payment=payment, starts_at=starts, ends_at=ends)
        membership_recompute(user.pk)
        return f"subscription {subscription_id} is {user.get_username()}'s"
    single = settings.STRIPE_PRICE_SINGLE
    if not single or single not in stripe_api.session_price_ids(str(obj["id"])):
        return f"session {obj['id']} bought no membership price: nothing changed"
    payment = _payment(stripe_id=str(obj["id"]), kind=Payment.Kind.SINGLE, user=user, obj=obj, paid_at=at,
                       payment_intent=str(obj.get("payment_intent") or ""))
    period_for_payment(payment=payment, starts_at=at,
                       ends_at=at + timedelta(days=settings.MEMBERSHIP_SINGLE_PERIOD_DAYS))
    membership_recompute(user.pk)
    return f"a single period for {user.get_username()}"


def _invoice_subscription(obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The invoice's subscription id and that subscription's metadata (API versions since 2025
    keep them under ``parent.subscription_details``, older ones at the top)."""
    details = ((obj.get("parent") or {}).get("subscription_details") or obj.get("subscription_details") or {})
    subscription = details.get("subscription") or obj.get("subscription") or ""
    if isinstance(subscription, dict):
        subscription = subscription.get("id", "")
    return str(subscription), details.get("metadata") or {}


def _give_invoice_period(payment: Payment) -> None:
    event = StripeEvent.objects.filter(type="invoice.paid", payload__data__object__id=payment.stripe_id).first()
    if event is None:
        return  # the first invoice, reported by its checkout: the subscription gives its period
    lines = ((event.payload["data"]["object"].get("lines") or {}).get("data")) or []
    periods = [line["period"] for line in lines if line.get("period")]
    if periods:
        period_for_payment(payment=payment, starts_at=_moment(min(p["start"] for p in periods)),
                           ends_at=_moment(max(p["end"] for p in periods)))


def _invoice_paid(obj: dict[str, Any], at: datetime) -> str:
    subscription_id, metadata = _invoice_subscription(obj)
    if not subscription_id:
        return "not a subscription's invoice: nothing changed"
    subscription = _subscription(subscription_id)
    user = subscription.user or _user_by_id(metadata.get("user_id", ""))
    payments = ((obj.get("payments") or {}).get("data")) or [{}]
    payment_intent = obj.get("payment_intent") or ((payments[0].get("payment") or {}).get("payment_intent")) or ""
    payment = _payment(stripe_id=str(obj["id"]), kind=Payment.Kind.SUBSCRIPTION, user=user, obj=obj,
                       paid_at=at, subscription_id=subscription_id, payment_intent=str(payment_intent))
    if user is None:
        return f"invoice {obj['id']} kept until its subscription's player is known"
    if subscription.user_id is None:
        _subscription(subscription_id, user)
    _give_invoice_period(payment)
    membership_recompute(user.pk)
    return f"invoice {obj['id']} paid by {user.get_username()}"


def _subscription_deleted(obj: dict[str, Any], at: datetime) -> str:
    subscription = _subscription(str(obj["id"]))
    ended = _moment(obj.get("ended_at") or obj.get("canceled_at") or at.timestamp())
    if subscription.ended_at is None or ended < subscription.ended_at:
        subscription.ended_at = ended
        subscription.save(update_fields=["ended_at"])
    user = subscription.user or _user_by_id((obj.get("metadata") or {}).get("user_id", ""))
    if user is not None:
        membership_recompute(user.pk)
    return f"subscription {obj['id']} ended at {ended.isoformat()}"


def _charge_refunded(obj: dict[str, Any], at: datetime) -> str:
    if not obj.get("refunded"):
        return "a partial refund: the membership stays"
    match = Q(pk__in=[])
    if obj.get("payment_intent"):
        match |= Q(payment_intent=obj["payment_intent"])
    if obj.get("invoice"):
        match |= Q(stripe_id=obj["invoice"])
    payments = list(Payment.objects.select_for_update().filter(match, refunded_at__isnull=True))
    for payment in payments:
        payment.refunded_at = at
        payment.save(update_fields=["refunded_at"])
        if payment.user_id is not None:
            membership_recompute(payment.user_id)
    if not payments:
        return "refund kept: no payment of it is known yet"
    return f"{len(payments)} payment(s) refunded"


_HANDLERS = {
    "checkout.session.completed": _checkout_completed,
    "invoice.paid": _invoice_paid,
    "customer.subscription.deleted": _subscription_deleted,
    "charge.refunded": _charge_refunded,
}
