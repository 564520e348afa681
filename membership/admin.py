"""Operators' side of membership: grant, extend and end (each a "membership change" with its
reason, done through membership.periods and kept as the log), and read-only lists of the
periods, the payments and the events Stripe sent."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from accounts.membership import is_member
from membership.models import MembershipChange, MembershipPeriod, Payment, StripeEvent
from membership.periods import MAX_STAFF_DAYS, MembershipRefused, membership_end, membership_extend


class MembershipChangeForm(forms.ModelForm):  # type: ignore[type-arg]
    days = forms.IntegerField(
        min_value=1, max_value=MAX_STAFF_DAYS, required=False,
        help_text="For a grant or an extension: how many days (an extension counts from the current end).",
    )

    class Meta:
        model = MembershipChange
        fields = ("user", "action", "days", "reason")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        user, action = data.get("user"), data.get("action")
        if user is None or action is None:
            return data
        if action == MembershipChange.Action.END:
            if not is_member(user):
                raise forms.ValidationError(f"{user.get_username()} is not a member: there is nothing to end.")
        elif not data.get("days"):
            self.add_error("days", "Say how many days to give.")
        elif action == MembershipChange.Action.GRANT and is_member(user):
            self.add_error("action", f"{user.get_username()} is a member already: extend instead.")
        elif action == MembershipChange.Action.EXTEND and not is_member(user):
            self.add_error("action", f"{user.get_username()} is not a member: grant instead.")
        return data


@admin.register(MembershipChange)
class MembershipChangeAdmin(admin.ModelAdmin):
    """Adding a change does it: a grant or an extension adds a staff period, an end cuts the
    player's periods now. Changes are never edited or deleted: they are the log."""

    form = MembershipChangeForm
    raw_id_fields = ("user",)  # a search pop-up, not a list of every player
    list_display = ("at", "user", "action", "until_before", "until_after", "staff", "reason")
    list_filter = ("action",)
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "staff")

    def get_readonly_fields(self, request: Any, obj: Any = None) -> tuple[str, ...]:
        return () if obj is None else ("user", "action", "reason", "until_before", "until_after", "staff", "at")

    def get_fields(self, request: Any, obj: Any = None) -> Any:
        if obj is None:
            return ("user", "action", "days", "reason")
        return ("user", "action", "reason", "until_before", "until_after", "staff", "at")

    def save_model(self, request: Any, obj: MembershipChange, form: Any, change: bool) -> None:
        data = form.cleaned_data
        try:
            if data["action"] == MembershipChange.Action.END:
                done = membership_end(user=data["user"], staff=request.user, reason=data["reason"])
            else:
                done = membership_extend(user=data["user"], staff=request.user, days=data["days"],
                                         reason=data["reason"])
        except MembershipRefused as refusal:  # a race with another operator: say it, change nothing
            self.message_user(request, str(refusal), level="error")
            raise
        obj.pk = done.pk  # the service wrote the log row: the admin's own record points at it

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(MembershipPeriod)
class MembershipPeriodAdmin(_ReadOnly):
    list_display = ("user", "source", "starts_at", "ends_at", "payment")
    list_filter = ("source",)
    search_fields = ("user__username",)
    list_select_related = ("user", "payment")


@admin.register(Payment)
class PaymentAdmin(_ReadOnly):
    list_display = ("paid_at", "user", "kind", "amount", "currency", "stripe_id", "subscription_id", "refunded_at")
    list_filter = ("kind", "currency")
    search_fields = ("user__username", "stripe_id", "subscription_id", "payment_intent")
    list_select_related = ("user",)


@admin.register(StripeEvent)
class StripeEventAdmin(_ReadOnly):
    list_display = ("received_at", "type", "event_id", "outcome")
    list_filter = ("type",)
    search_fields = ("event_id", "outcome")
