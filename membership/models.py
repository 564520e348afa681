"""Membership as periods with an end, and what Stripe told us.

A player's ``Profile.member_until`` is derived from these rows (membership.periods): the latest
end of their valid periods, each cut short where its subscription ended. Every Stripe fact is
kept as it came, so events that arrive out of order still add up to the same state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

__all__ = ["MembershipChange", "MembershipPeriod", "Payment", "StripeEvent", "StripeSubscription"]


class StripeEvent(models.Model):
    """A webhook event, kept by its id: a replayed event finds its row and changes nothing."""

    event_id = models.CharField(max_length=255, unique=True)
    type = models.CharField(max_length=100)
    received_at = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=300, blank=True)
    payload = models.JSONField()

    class Meta:
        ordering = ("-received_at", "-pk")
        verbose_name = "Stripe event"

    def __str__(self) -> str:
        return f"{self.type} {self.event_id}"


class StripeSubscription(models.Model):
    """A Stripe subscription: whose it is, and when it ended (customer.subscription.deleted)."""

    subscription_id = models.CharField(max_length=255, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "Stripe subscription"

    def __str__(self) -> str:
        return self.subscription_id


class Payment(models.Model):
    """One payment Stripe reported: a Checkout session paid once, or a subscription's invoice.

    ``stripe_id`` (the session's or the invoice's id) is unique, so the checkout event and the
    invoice event of the same first payment make one row. ``refunded_at`` voids its period."""

    class Kind(models.TextChoices):
        SINGLE = "single", "Single period"
        SUBSCRIPTION = "subscription", "Subscription invoice"

    stripe_id = models.CharField(max_length=255, unique=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="membership_payments",
    )
    subscription_id = models.CharField(max_length=255, blank=True, db_index=True)
    payment_intent = models.CharField(max_length=255, blank=True, db_index=True)
    amount = models.PositiveIntegerField(default=0, help_text="in the currency's smallest unit")
    currency = models.CharField(max_length=3, blank=True)
    paid_at = models.DateTimeField(default=timezone.now)
    refunded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-paid_at", "-pk")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.stripe_id}"


class MembershipPeriod(models.Model):
    """A stretch of membership. Void once its payment is refunded; cut short by staff's "end"."""

    class Source(models.TextChoices):
        STRIPE = "stripe", "Paid through Stripe"
        STAFF = "staff", "Granted by staff"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership_periods"
    )
    source = models.CharField(max_length=6, choices=Source.choices)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    payment = models.OneToOneField(
        Payment, null=True, blank=True, on_delete=models.CASCADE, related_name="period"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("user", "starts_at", "pk")
        indexes = (models.Index(fields=["ends_at"], name="membership_period_end"),)
        constraints = (
            models.CheckConstraint(condition=models.Q(ends_at__gte=models.F("starts_at")),
                                   name="membership_period_ends_after_start"),
        )

    def __str__(self) -> str:
        return f"{self.user}: {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"


class MembershipChange(models.Model):
    """The log of staff's grants, extensions and ends, each with its reason."""

    class Action(models.TextChoices):
        GRANT = "grant", "Granted"
        EXTEND = "extend", "Extended"
        END = "end", "Ended"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=6, choices=Action.choices)
    reason = models.CharField(max_length=300)
    until_before = models.DateTimeField(null=True, blank=True)
    until_after = models.DateTimeField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-at", "-pk")

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.user}: {self.reason}"
