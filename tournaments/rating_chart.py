"""A player's rating history in one variant as SVG numbers computed here (the template only
fills them in, like the board and the replay's chart).

Not ``analysis.chart.win_chart``: that one plots a chance between 0 and 1 per play with a
separator per game; this plots ratings on a scale fitted to the player's own range, one point
per rated match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["HEIGHT", "WIDTH", "RatingChart", "rating_chart"]

WIDTH, HEIGHT, MARGIN = 600, 160, 10
_MIN_SPAN = 20.0
"""The least rating range the chart spans, so a few small changes do not look like cliffs."""


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: int
    y: int
    rating: str
    """The rating after the match, as text (a point's tooltip)."""
    change: str
    game_id: int


@dataclass(frozen=True, slots=True)
class RatingChart:
    width: int
    height: int
    line: str
    """The ``points`` attribute of the polyline, from the starting rating on."""
    points: tuple[ChartPoint, ...]
    top: str
    bottom: str
    """The ratings at the top and bottom edges, as labels."""


def rating_chart(history: Sequence[Any]) -> RatingChart | None:
    """The chart of ``history`` (RatingChange rows of one player and variant, oldest first);
    None when there is nothing to draw."""
    if not history:
        return None
    ratings = [history[0].rating_before, *(change.rating_after for change in history)]
    low, high = min(ratings), max(ratings)
    if high - low < _MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - _MIN_SPAN / 2, middle + _MIN_SPAN / 2
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    step = inner_w / (len(ratings) - 1)

    def y_of(rating: float) -> int:
        return round(MARGIN + (high - rating) / (high - low) * inner_h)

    coords = [(round(MARGIN + index * step), y_of(rating)) for index, rating in enumerate(ratings)]
    points = tuple(
        ChartPoint(x, y, f"{change.rating_after:.2f}", f"{change.change:+.2f}", change.game_id)
        for (x, y), change in zip(coords[1:], history, strict=True)
    )
    line = " ".join(f"{x},{y}" for x, y in coords)
    return RatingChart(WIDTH, HEIGHT, line, points, f"{high:.0f}", f"{low:.0f}")
