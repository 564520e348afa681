"""The Play the computer now form: it parses what was posted; the service decides."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms

from backgammon.engine import MAX_MATCH_LENGTH, VARIANTS
from backgammon.forms import time_limit_key
from backgammon.models import TIME_LIMITS
from bots.models import Bot
from bots.play_now import ComputerGameTerms, computer_game_terms_for, computer_games_count
from bots.terms_words import terms_words

__all__ = ["MATCH_LENGTHS_OFFERED", "PlayNowForm", "offer_form"]

MATCH_LENGTHS_OFFERED = (1, 3, 5, 7)


class PlayNowForm(forms.Form):
    bot = forms.ChoiceField(label="Opponent")
    match_length = forms.IntegerField(
        label="Match to", required=False, min_value=1, max_value=MAX_MATCH_LENGTH,
        widget=forms.Select(choices=[(n, f"{n} point{'s' if n > 1 else ''}") for n in MATCH_LENGTHS_OFFERED]),
    )
    variant = forms.ChoiceField(choices=[(code, code) for code in VARIANTS], widget=forms.HiddenInput)
    time_limit = forms.TypedChoiceField(
        choices=[(time_limit_key(value), label) for value, label in TIME_LIMITS],
        coerce=lambda seconds: timedelta(seconds=int(seconds)),
        widget=forms.HiddenInput,
    )
    rated = forms.BooleanField(required=False, widget=forms.HiddenInput)
    expected_games = forms.IntegerField(min_value=0, max_value=1_000_000, widget=forms.HiddenInput)

    def __init__(self, *args: Any, terms: ComputerGameTerms | None = None, expected_games: int = 0,
                 **kwargs: Any) -> None:
        if terms is not None:
            kwargs.setdefault("initial", {
                "bot": terms.bot, "match_length": terms.match_length or None, "variant": terms.variant,
                "time_limit": time_limit_key(terms.time_limit), "rated": terms.rated,
                "expected_games": expected_games,
            })
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["bot"].choices = [
            (bot.user.get_username(), f"{bot.user.get_username()} ({bot.strength})")
            for bot in sorted(Bot.objects.select_related("user"), key=_by_strength)
        ]
        lengths = self.fields["match_length"].widget.choices
        length = self.initial.get("match_length")
        if length and length not in dict(lengths):  # a longer last choice
            self.fields["match_length"].widget.choices = [*lengths, (length, f"{length} points")]
        if terms is not None and not VARIANTS[terms.variant].is_match:
            self.fields["match_length"].widget = forms.HiddenInput()

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {key: data[key] for key in ("bot", "variant", "match_length", "time_limit", "rated", "expected_games")}


def _by_strength(bot: Bot) -> int:
    return list(Bot.Strength.values).index(bot.strength)


def offer_form(player: Any) -> tuple[PlayNowForm, str]:
    """The form with the player's last terms against the computer (or the defaults), and those
    terms in words (bots.terms_words)."""
    terms = computer_game_terms_for(player)
    return PlayNowForm(terms=terms, expected_games=computer_games_count(player)), terms_words(terms)
