"""Forms of the lobby: they parse what was typed; the services decide what is allowed."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django import forms

from backgammon.engine import MAX_MATCH_LENGTH, VARIANTS
from backgammon.engine.clock import (
    LIVE_DELAY_RANGE_S,
    LIVE_PRESETS,
    InvalidTimeControlError,
    TimeControl,
)
from backgammon.models import DEFAULT_TIME_LIMIT, TIME_LIMITS, AutoMatchRequest
from backgammon.services.auto_match import MAX_AUTO_MATCH_GAMES
from backgammon.services.challenges import (
    CHALLENGE_MESSAGE_MAX,
    DEFAULT_MATCH_LENGTHS,
    MAX_AUTOMATIC_DOUBLES,
    MAX_STAKE,
)
from backgammon.services.waiting_room import RATING_BOUNDS, OpenChallengeFilters

__all__ = ["AutoMatchForm", "ChallengeForm", "OpenChallengeForm", "WaitingRoomFilterForm", "time_limit_key"]


def time_limit_key(delta: timedelta) -> str:
    """The form value of a time limit: whole seconds, e.g. "259200" for 3 days."""
    return str(int(delta.total_seconds()))


CORRESPONDENCE = "correspondence"
CUSTOM = "custom"
CLOCK_CHOICES = [
    (CORRESPONDENCE, "Correspondence: a time limit per move"),
    *((key, f"Live, {preset.describe()}") for key, preset in LIVE_PRESETS.items()),
    (CUSTOM, "Live, custom clock"),
]
# The custom reserve is asked in whole minutes: 1 to 180 (the engine's range, 30 s to 3 h,
# less the half-minute nobody types).
CUSTOM_RESERVE_MINUTES = (1, 180)


class _ClockFields(forms.Form):
    """The clock of a new game: correspondence, a live preset, or a custom live clock."""

    # Not required: a form that does not show the choice (the waiting room's own) is correspondence.
    clock = forms.ChoiceField(
        required=False, choices=CLOCK_CHOICES, initial=CORRESPONDENCE, widget=forms.RadioSelect, label="Clock"
    )
    live_delay_s = forms.IntegerField(
        required=False, min_value=LIVE_DELAY_RANGE_S[0], max_value=LIVE_DELAY_RANGE_S[1],
        label="Delay each turn (seconds)", help_text="Custom clock: used up before the reserve runs.",
    )
    live_reserve_min = forms.IntegerField(
        required=False, min_value=CUSTOM_RESERVE_MINUTES[0], max_value=CUSTOM_RESERVE_MINUTES[1],
        label="Reserve for the match (minutes)", help_text="Custom clock: each player's, for the whole match.",
    )

    def time_control(self, variant: str, match_length: int | None) -> TimeControl | None:
        """The live clock chosen (a preset scaled to the match), or None for correspondence."""
        data = self.cleaned_data
        choice = data.get("clock")
        if choice in LIVE_PRESETS:
            length = match_length if match_length is not None else DEFAULT_MATCH_LENGTHS.get(variant, 0)
            return LIVE_PRESETS[choice].control(length)
        if choice == CUSTOM:
            return TimeControl.live(data["live_delay_s"], data["live_reserve_min"] * 60)
        return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("clock") == CUSTOM:
            for name in ("live_delay_s", "live_reserve_min"):
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, "A custom clock needs its delay and its reserve.")
            if not self.errors:
                try:
                    TimeControl.live(data["live_delay_s"], data["live_reserve_min"] * 60)
                except InvalidTimeControlError as refusal:
                    self.add_error(None, str(refusal))
        return data


class ChallengeForm(_ClockFields):
    opponent = forms.CharField(
        max_length=150,
        label="Opponent",
        help_text="The userid of the player you want to play, or “anyone” to put the challenge "
        "in the Waiting Room.",
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

    def __init__(self, *args: Any, rated_defaults: dict[str, bool] | None = None, **kwargs: Any) -> None:
        """``rated_defaults`` ({variant code: starts rated}, the player's Edit ratings choices)
        sets the box for the variant shown first; static/js/rated_default.js follows the
        variant chosen, unless the player ticked the box themselves."""
        kwargs.setdefault("label_suffix", "")  # labels read as labels, checkboxes included
        super().__init__(*args, **kwargs)
        if rated_defaults is not None:
            variant = self.initial.get("variant", self.fields["variant"].initial)
            self.fields["rated"].initial = rated_defaults.get(variant, False)
            self.fields["rated"].widget.attrs["data-rated-defaults"] = json.dumps(rated_defaults)

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
            "time_control": self.time_control(data["variant"], data["match_length"]),
        }


class OpenChallengeForm(ChallengeForm):
    """The waiting room's open challenge: the new-game form without an opponent, with a rating
    range for whoever joins."""

    min_rating = forms.IntegerField(
        required=False, min_value=RATING_BOUNDS[0], max_value=RATING_BOUNDS[1], label="Lowest rating",
    )
    max_rating = forms.IntegerField(
        required=False, min_value=RATING_BOUNDS[0], max_value=RATING_BOUNDS[1], label="Highest rating",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["opponent"]

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned data as keyword arguments of ``open_challenge_create``."""
        self.cleaned_data["opponent"] = ""
        arguments = super().service_arguments()
        del arguments["opponent"]
        return {
            **arguments,
            "min_rating": self.cleaned_data["min_rating"],
            "max_rating": self.cleaned_data["max_rating"],
        }


_TIME_LIMIT_CHOICES = [(time_limit_key(value), label) for value, label in TIME_LIMITS]
_VARIANT_CHOICES = [(code, f"{v.name} ({code})") for code, v in VARIANTS.items()]


class WaitingRoomFilterForm(forms.Form):
    """The waiting room's filters (a GET form); an empty field means any."""

    variant = forms.ChoiceField(required=False, choices=[("", "Any variant"), *_VARIANT_CHOICES])
    match_length = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_MATCH_LENGTH, label="Match length",
        widget=forms.NumberInput(attrs={"placeholder": "any", "title": "0 for single games"}),
    )
    time_limit = forms.ChoiceField(required=False, choices=[("", "Any time limit"), *_TIME_LIMIT_CHOICES])
    rated = forms.ChoiceField(
        required=False, choices=[("", "Rated or not"), ("yes", "Rated"), ("no", "Unrated")]
    )
    joinable = forms.BooleanField(required=False, label="Only those I may join")

    def __init__(self, *args: Any, live: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        if live:  # a live offer has a match clock, not a time limit per move
            del self.fields["time_limit"]

    def filters(self) -> OpenChallengeFilters:
        data = self.cleaned_data
        limit = data.get("time_limit")
        return OpenChallengeFilters(
            variant=data["variant"] or None,
            match_length=data["match_length"],
            time_limit=timedelta(seconds=int(limit)) if limit else None,
            rated={"yes": True, "no": False}.get(data["rated"]),
            joinable_only=data["joinable"],
        )


ANY_LIVE = "any"
_LIVE_CLOCK_CHOICES = [
    *((key, preset.describe()) for key, preset in LIVE_PRESETS.items()),
    (ANY_LIVE, "Any live clock"),
]


class AutoMatchForm(forms.Form):
    """What a player will play: auto-match pairs them with someone who will play the same."""

    variants = forms.MultipleChoiceField(
        choices=_VARIANT_CHOICES, widget=forms.CheckboxSelectMultiple, label="Variants",
        error_messages={"required": "Choose at least one variant you will play."},
    )
    time_limits = forms.MultipleChoiceField(
        required=False, choices=_TIME_LIMIT_CHOICES, widget=forms.CheckboxSelectMultiple,
        label="Correspondence: time limits per move",
    )
    live_clocks = forms.MultipleChoiceField(
        required=False, choices=_LIVE_CLOCK_CHOICES, widget=forms.CheckboxSelectMultiple,
        label="Live: match clocks",
        help_text="A request is for correspondence or live, not both. A live one pairs only players who "
        "are here now, and the match starts at once; a preset's reserve is so much a point.",
    )
    rated = forms.ChoiceField(
        choices=AutoMatchRequest.Rated.choices, initial=AutoMatchRequest.Rated.EITHER,
        widget=forms.RadioSelect, label="Rated",
    )
    max_games = forms.IntegerField(
        min_value=1, max_value=MAX_AUTO_MATCH_GAMES, initial=1, label="Games at most",
        help_text="The request stays until this many games have started, or you cancel it.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("time_limits") and not data.get("live_clocks") and "time_limits" not in self.errors:
            self.add_error(None, "Choose at least one time limit per move, or a live clock.")
        return data

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        live = data["live_clocks"]
        return {
            "variants": data["variants"],
            "time_limits": [timedelta(seconds=int(value)) for value in data["time_limits"]],
            "rated": data["rated"],
            "max_games": data["max_games"],
            "live_presets": [key for key in live if key in LIVE_PRESETS],
            "live_any": ANY_LIVE in live,
        }
