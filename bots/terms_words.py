"""The terms of a game against the computer in words, for the offer (main screen, its page)."""

from __future__ import annotations

from backgammon.engine import VARIANTS
from backgammon.models import time_limit_label
from bots.play_now import ComputerGameTerms

__all__ = ["terms_words"]


def terms_words(terms: ComputerGameTerms) -> str:
    """E.g. "Pro Backgammon (BP), unrated, 3 days a move for you" (the match length is the form's
    own choice, beside it)."""
    variant = VARIANTS[terms.variant]
    single = "" if variant.is_match else ", a single game"
    rated = "rated" if terms.rated and not variant.money else "unrated"
    return f"{variant.name} ({terms.variant}){single}, {rated}, {time_limit_label(terms.time_limit)} a move for you"
