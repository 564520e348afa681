"""Ratings: the FIBS formula, one rating per player and variant, changed once per rated match.

The formula, for an n-point match between ratings r1 and r2 (single games are n = 1):

* ``upset_chance``: the chance that the lower-rated player wins, 1 / (10^(D·√n/2000) + 1)
  with D = |r1 − r2|;
* ``k_factor``: each player's own K = max(1, 5 − experience/100), experience being the total
  length of their earlier rated matches;
* ``rating_changes``: the winner gains, and the loser loses, 4·K·√n·P, where P is the upset
  chance if the favourite won and its complement if the underdog won (0.5 between equals).

The three examples the issue gives:

>>> rating_changes(winner=1500.0, loser=1500.0, length=1,
...                winner_experience=400, loser_experience=400)
(2.0, -2.0)
>>> gain, loss = rating_changes(winner=1850.0, loser=1750.0, length=7,
...                             winner_experience=500, loser_experience=500)
>>> f"{gain:+.2f} {loss:+.2f}"
'+4.49 -4.49'
>>> gain, loss = rating_changes(winner=1500.0, loser=1500.0, length=3,
...                             winner_experience=0, loser_experience=0)
>>> f"{gain:+.2f} {loss:+.2f}"
'+17.32 -17.32'

``rating_apply`` is the service (a receiver of ``backgammon.signals.match_finished`` calls it,
inside the transaction that ends the match); ``rating_of`` and ``ratings_of`` are how the rest of
the site (ladders, tournaments, pages, the API) reads ratings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from django.db import transaction

from backgammon.engine import VARIANTS
from backgammon.models import Game

__all__ = [
    "RAMP_EXPERIENCE",
    "RATED_VARIANTS",
    "STARTING_RATING",
    "is_provisional",
    "k_factor",
    "match_length_of",
    "rating_apply",
    "rating_changes",
    "rating_history",
    "rating_of",
    "ratings_of",
    "ratings_of_players",
    "upset_chance",
]

STARTING_RATING = 1500.0
RATED_VARIANTS: tuple[str, ...] = tuple(code for code, variant in VARIANTS.items() if not variant.money)
"""Every variant code but money play (BX BP BA BN BR BS BO B9)."""


RAMP_EXPERIENCE = 400
"""Below this experience K is above 1 (the FIBS ramp): the rating is still provisional."""


def is_provisional(experience: int) -> bool:
    """Whether a rating with this experience still moves faster than an established one.

    >>> is_provisional(0), is_provisional(399), is_provisional(400)
    (True, True, False)
    """
    return experience < RAMP_EXPERIENCE


def upset_chance(difference: float, length: int) -> float:
    """The chance that the lower-rated player wins an n-point match, D = |r1 − r2|.

    >>> upset_chance(0.0, 5)
    0.5
    >>> round(upset_chance(100.0, 7), 4)
    0.4244
    """
    return 1.0 / (10.0 ** (abs(difference) * math.sqrt(length) / 2000.0) + 1.0)


def k_factor(experience: int) -> float:
    """K = max(1, 5 − experience/100): new players move fast, experienced ones by at most 4·√n·P.

    >>> k_factor(0), k_factor(250), k_factor(400), k_factor(5000)
    (5.0, 2.5, 1.0, 1.0)
    """
    return max(1.0, 5.0 - experience / 100.0)


def rating_changes(
    *, winner: float, loser: float, length: int, winner_experience: int, loser_experience: int
) -> tuple[float, float]:
    """(the winner's gain, the loser's change, negative) for an n-point match, each player
    with their own K, so the two need not add up to zero."""
    if length < 1:
        raise ValueError(f"A match is at least 1 point long, not {length}")
    upset = upset_chance(winner - loser, length)
    # The favourite winning was the likely result, so it moves the ratings by less.
    chance = upset if winner > loser else 1.0 - upset
    step = 4.0 * math.sqrt(length) * chance
    return k_factor(winner_experience) * step, -k_factor(loser_experience) * step


def match_length_of(game: Game) -> int:
    """n in the formula: the match's length, and 1 for a single-game variant."""
    return game.match_length if VARIANTS[game.variant].is_match and game.match_length else 1


def rating_of(user: Any, variant_code: str) -> float:
    """The player's current rating in a variant (the starting rating before any rated match)."""
    from tournaments.models import Rating

    found = Rating.objects.filter(player=user, variant=variant_code).values_list("rating", flat=True).first()
    return STARTING_RATING if found is None else found


def ratings_of(user: Any) -> dict[str, tuple[float, int]]:
    """{variant code: (rating, experience)} for every rated variant, the starting values where
    the player has not played one yet."""
    from tournaments.models import Rating

    found = {row.variant: (row.rating, row.experience) for row in Rating.objects.filter(player=user)}
    return {code: found.get(code, (STARTING_RATING, 0)) for code in RATED_VARIANTS}


def ratings_of_players(user_ids: Iterable[int], variant_code: str) -> dict[int, float]:
    """{user id: current rating in the variant} for several players in one query (the starting
    rating for those with none); nothing for a variant that is never rated (money play).
    The lobby's rating source (backgammon.services.ratings_source)."""
    from tournaments.models import Rating

    if variant_code not in RATED_VARIANTS:
        return {}
    ids = list(user_ids)
    found = dict(
        Rating.objects.filter(player_id__in=ids, variant=variant_code).values_list("player_id", "rating")
    )
    return {user_id: found.get(user_id, STARTING_RATING) for user_id in ids}


def rating_history(user: Any) -> dict[str, list[Any]]:
    """{variant code: the player's RatingChange rows, oldest first} for the variants they have
    played rated matches in."""
    from tournaments.models import RatingChange

    history: dict[str, list[Any]] = {}
    for change in RatingChange.objects.filter(player=user).order_by("created_at", "pk"):
        history.setdefault(change.variant, []).append(change)
    return history


def counts_for_rating(game: Game, how: str) -> bool:
    """A rated, finished game of a rated variant with a winner. Staff adjudications count (as on
    FIBS-like sites: the adjudicated winner is the winner); aborted games and BA draws do not."""
    return (
        game.rated
        and how in ("played", "adjudicated")
        and game.status == Game.Status.FINISHED
        and game.winner_id is not None
        and game.variant in RATED_VARIANTS
        and game.black_id != game.white_id
    )


def rating_apply(*, game: Game, how: str) -> bool:
    """Change both players' ratings for a finished match, once; True if it changed them.

    Runs inside the transaction that ends the match. Both Rating rows are locked in player-id
    order, so two matches of one player ending at the same moment queue rather than lose an
    update (or deadlock); a RatingChange per (game, player) makes a second call a no-op.
    """
    from tournaments.models import Rating, RatingChange

    if not counts_for_rating(game, how):
        return False
    with transaction.atomic():
        if RatingChange.objects.filter(game=game).exists():
            return False
        ids = sorted((game.black_id, game.white_id))
        # ON CONFLICT DO NOTHING: a concurrent first match of the same player waits, not fails.
        Rating.objects.bulk_create(
            [Rating(player_id=pk, variant=game.variant) for pk in ids], ignore_conflicts=True
        )
        locked = {
            row.player_id: row
            for row in Rating.objects.select_for_update()
            .filter(player_id__in=ids, variant=game.variant)
            .order_by("player_id")
        }
        won = locked[game.winner_id]
        lost = locked[game.black_id if game.winner_id == game.white_id else game.white_id]
        length = match_length_of(game)
        gain, loss = rating_changes(
            winner=won.rating, loser=lost.rating, length=length,
            winner_experience=won.experience, loser_experience=lost.experience,
        )
        changes = []
        for row, change in ((won, gain), (lost, loss)):
            changes.append(RatingChange(
                game=game, player_id=row.player_id, variant=game.variant,
                rating_before=row.rating, rating_after=row.rating + change, change=change,
                experience_before=row.experience, match_length=length,
            ))
            row.rating += change
            row.experience += length
            row.save(update_fields=["rating", "experience", "updated_at"])
        RatingChange.objects.bulk_create(changes)
    return True
