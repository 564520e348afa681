"""Forms of the lobby: they parse what was typed; the services decide what is allowed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms

from backgammon.engine import MAX_MATCH_LENGTH, VARIANTS
from backgammon.models import DEFAULT_TIME_LIMIT, TIME_LIMITS
from backgammon.services.challenges import (
    CHALLENGE_MESSAGE_MAX,
    MAX_AUTOMATIC_DOUBLES,
    MAX_STAKE,
)

__all__ = ["ChallengeForm", "time_limit_key"]


def time_limit_key(delta: timedelta) -> str:
    """The form value of a time limit: whole seconds, e.g. "259200" for 3 days."""
    return str(int(delta.total_seconds()))


class ChallengeForm(forms.Form):
    opponent = forms.CharField(
        max_length=150,
        label="Opponent",
        help_text="The userid of the player you want to play.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    variant = forms.ChoiceField(
        choices=[(code, f"{v.name} ({code})") for code, v in VARIANTS.items()],
        initial="BP",
        widget=forms.RadioSelect,
    )
    match_length = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_MATCH_LENGTH,
        label="Match length (points)",
        help_text="For BP, BS, BO and B9 only; empty for the usual 5 (9 for B9).",
    )
    time_limit = forms.TypedChoiceField(
        choices=[(time_limit_key(value), label) for value, label in TIME_LIMITS],
        initial=time_limit_key(DEFAULT_TIME_LIMIT),
        coerce=lambda seconds: timedelta(seconds=int(seconds)),
        label="Time limit per move",
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label="Rated game",
        help_text="The result changes both players' ratings for this variant (Help: Ratings). "
        "Money play is never rated.",
    )
    message = forms.CharField(
        required=False,
        max_length=CHALLENGE_MESSAGE_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Message to your opponent",
    )
    jacoby = forms.BooleanField(required=False, label="Jacoby rule (money game)")
    beavers = forms.BooleanField(required=False, label="Beavers (money game)")
    automatic_doubles = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_AUTOMATIC_DOUBLES,
        initial=0,
        label="Automatic doubles at most (money game)",
    )
    stake = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_STAKE,
        label="Stake per point (money game)",
        help_text="Empty for 1.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")  # labels read as labels, checkboxes included
        super().__init__(*args, **kwargs)

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned data as keyword arguments of ``challenge_create``."""
        data = self.cleaned_data
        return {
            "opponent": data["opponent"],
            "variant": data["variant"],
            "match_length": data["match_length"],
            "time_limit": data["time_limit"],
            "rated": data["rated"] and not VARIANTS[data["variant"]].money,
            "message": data["message"],
            "jacoby": data["jacoby"],
            "beavers": data["beavers"],
            "automatic_doubles": data["automatic_doubles"] or 0,
            "stake": data["stake"],
        }
