"""The chart of winning chances over a match, as SVG numbers computed here (the template only
fills them in, like the board).

Hand-written: the SVG chart libraries (pygal among them) emit inline ``<style>`` and ``<script>``
that the site's Content-Security-Policy refuses, and one polyline per game is all this needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["HEIGHT", "WIDTH", "Chart", "win_chart"]

WIDTH, HEIGHT, MARGIN = 600, 160, 8


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int
    number: int
    """The action number this point follows."""
    percent: int


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    middle_y: int
    lines: tuple[str, ...]
    """One ``points`` attribute per game of the match (a game starts at even chances)."""
    separators: tuple[int, ...]
    """x of the line between two games."""
    points: tuple[Point, ...]
    marker: Point | None

    @property
    def empty(self) -> bool:
        return not self.points


def win_chart(entries: Sequence[dict[str, Any]], *, current: int | None = None) -> Chart:
    """Black's winning chances after every play: ``entries`` are the analysis's per-action dicts
    (in log order, so entry i is action i + 1); ``current`` the action number to mark."""
    samples = [(number, entry["game"], entry["win_black"])
               for number, entry in enumerate(entries, start=1) if "win_black" in entry]
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    # One slot for each game's start (50%) plus one per sample.
    games = sorted({game for _, game, _ in samples})
    slots = len(samples) + len(games)
    step = inner_w / max(slots - 1, 1)

    def y_of(chance: float) -> int:
        return round(MARGIN + (1 - chance) * inner_h)

    lines, separators, points = [], [], []
    slot = 0
    for game in games:
        if slot:
            separators.append(round(MARGIN + (slot - 0.5) * step))
        coords = [f"{round(MARGIN + slot * step)},{y_of(0.5)}"]
        slot += 1
        for number, in_game, chance in samples:
            if in_game != game:
                continue
            point = Point(round(MARGIN + slot * step), y_of(chance), number, round(100 * chance))
            points.append(point)
            coords.append(f"{point.x},{point.y}")
            slot += 1
        lines.append(" ".join(coords))
    marker = None
    if current is not None:
        before = [point for point in points if point.number <= current]
        marker = before[-1] if before else None
    return Chart(WIDTH, HEIGHT, y_of(0.5), tuple(lines), tuple(separators), tuple(points), marker)
