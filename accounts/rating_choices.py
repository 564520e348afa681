"""A player's choices about their ratings, per variant ("Edit ratings", /accounts/ratings/).

Read by the pages and the API that show a rating to others (``hidden_variants``) and by the New
game and Waiting Room forms (``rated_defaults``); written only by ``rating_choices_update``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction

from accounts.models import RatingChoice
from backgammon.engine import VARIANTS

__all__ = [
    "RatingChoiceRefused",
    "hidden_variants",
    "hidden_variants_of",
    "rated_default",
    "rated_defaults",
    "rating_choices_update",
]


class RatingChoiceRefused(ValueError):
    """A choice for a variant that has no rating; nothing changed."""


def _rated_codes() -> tuple[str, ...]:
    return tuple(code for code, variant in VARIANTS.items() if not variant.money)


def hidden_variants(user: Any) -> set[str]:
    """The variants whose rating ``user`` keeps to themselves."""
    return set(RatingChoice.objects.filter(user=user, shown=False).values_list("variant", flat=True))


def hidden_variants_of(user_ids: Iterable[int]) -> dict[int, set[str]]:
    """{user id: hidden variants} for several players in one query (lists)."""
    hidden: dict[int, set[str]] = {}
    for user_id, variant in RatingChoice.objects.filter(user_id__in=list(user_ids), shown=False).values_list(
        "user_id", "variant"
    ):
        hidden.setdefault(user_id, set()).add(variant)
    return hidden


def rated_defaults(user: Any) -> dict[str, bool]:
    """{variant code: whether a new game of it starts rated} for every rated variant."""
    unrated = set()
    if user is not None and getattr(user, "is_authenticated", False):
        unrated = set(
            RatingChoice.objects.filter(user=user, rated_by_default=False).values_list("variant", flat=True)
        )
    return {code: code not in unrated for code in _rated_codes()}


def rated_default(user: Any, variant: str) -> bool:
    return rated_defaults(user).get(variant, False)


def rating_choices_update(*, user: Any, shown: Mapping[str, bool], rated: Mapping[str, bool]) -> None:
    """Save the player's choices for the variants named (others stay as they are)."""
    codes = set(_rated_codes())
    unknown = (set(shown) | set(rated)) - codes
    if unknown:
        raise RatingChoiceRefused(f"These variants have no rating: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        for code in sorted(set(shown) | set(rated)):
            choice, _ = RatingChoice.objects.select_for_update().get_or_create(user=user, variant=code)
            choice.shown = bool(shown.get(code, choice.shown))
            choice.rated_by_default = bool(rated.get(code, choice.rated_by_default))
            choice.save(update_fields=["shown", "rated_by_default"])
