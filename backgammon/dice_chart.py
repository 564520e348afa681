"""Bar charts of dice counts as SVG numbers computed here (the template only fills them in, like the
board and the rating chart): one bar per category for what was rolled, a mark across it for what
fair dice give. Integers only, so no locale can put a comma in a coordinate.

>>> from types import SimpleNamespace as Row  # dice_statistics.Row, without Django
>>> chart = bar_chart([Row(label="1", observed=5, expected=10.0), Row(label="2", observed=15, expected=10.0)])
>>> [(bar.label, bar.height) for bar in chart.bars]
[('1', 55), ('2', 164)]
>>> chart.bars[0].expected_y == chart.bars[1].expected_y
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Bar", "BarChart", "bar_chart"]

HEIGHT = 200
TOP = 12  # room above the tallest bar for its mark
AXIS_Y = HEIGHT - 24  # the labels' row below
PLOT_H = AXIS_Y - TOP
SLOT_W = 30  # each category's column
GAP = 6


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    x: int
    y: int
    width: int
    height: int
    expected_y: int
    label_x: int
    tooltip: str


@dataclass(frozen=True, slots=True)
class BarChart:
    width: int
    height: int
    axis_y: int
    bars: tuple[Bar, ...]


def bar_chart(rows: Sequence[Any], *, slot: int = SLOT_W) -> BarChart:
    """One bar per row (``label``, ``observed``, ``expected``), scaled to the largest of them all;
    ``slot`` is each row's column width (wider for long labels)."""
    top = max([row.observed for row in rows] + [row.expected for row in rows] + [1])
    bars = []
    for index, row in enumerate(rows):
        x = index * slot + GAP // 2
        height = round(row.observed / top * PLOT_H)
        bars.append(Bar(
            label=row.label, x=x, y=AXIS_Y - height, width=slot - GAP, height=height,
            expected_y=AXIS_Y - round(row.expected / top * PLOT_H), label_x=x + (slot - GAP) // 2,
            tooltip=f"{row.label}: {row.observed} rolled, {row.expected:.1f} expected",
        ))
    return BarChart(len(rows) * slot, HEIGHT, AXIS_Y, tuple(bars))
