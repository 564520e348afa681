"""A player's rating changes with the formula's numbers, for "Edit ratings": each rated match's
opponent, the ratings before and after, n, the player's experience and K, and the chance P the
formula used, computed again from the stored ratings before the match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backgammon.engine import VARIANTS
from tournaments.ratings import is_provisional, k_factor, upset_chance

__all__ = ["HistoryRow", "rating_history_rows"]


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game_id: int
    when: Any
    variant: str
    variant_name: str
    opponent: Any
    opponent_before: float | None
    won: bool
    length: int
    before: float
    after: float
    change: float
    experience: int
    k: float
    chance: float | None
    """P in 4·K·√n·P: the upset chance if the favourite won, its complement otherwise."""
    provisional: bool


def _chance(before: float, opponent_before: float | None, won: bool, length: int) -> float | None:
    if opponent_before is None:
        return None
    winner, loser = (before, opponent_before) if won else (opponent_before, before)
    upset = upset_chance(winner - loser, length)
    return upset if winner > loser else 1.0 - upset


def rating_history_rows(user: Any) -> list[HistoryRow]:
    """Every rating change of the player, newest first (two queries)."""
    from tournaments.models import RatingChange

    mine = list(RatingChange.objects.filter(player=user).select_related("game").order_by("-created_at", "-pk"))
    theirs = {
        change.game_id: change
        for change in RatingChange.objects.filter(game_id__in=[c.game_id for c in mine])
        .exclude(player=user).select_related("player")
    }
    rows = []
    for change in mine:
        other = theirs.get(change.game_id)
        won = change.change > 0
        opponent_before = None if other is None else other.rating_before
        rows.append(HistoryRow(
            game_id=change.game_id, when=change.created_at, variant=change.variant,
            variant_name=VARIANTS[change.variant].name if change.variant in VARIANTS else change.variant,
            opponent=None if other is None else other.player, opponent_before=opponent_before,
            won=won, length=change.match_length, before=change.rating_before, after=change.rating_after,
            change=change.change, experience=change.experience_before, k=k_factor(change.experience_before),
            chance=_chance(change.rating_before, opponent_before, won, change.match_length),
            provisional=is_provisional(change.experience_before),
        ))
    return rows
