"""A live game's two clocks as the game page shows them: read from the server's clock at the
moment the region is rendered, so every page load, htmx answer and pushed update sets the clocks
on the page afresh (static/js/match_clock.js only counts down between two of them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from backgammon.engine import PerSide, Side
from backgammon.models import Game

__all__ = ["ClockFace", "LiveClocks", "clock_text", "live_clocks"]

WARN_MS = 10_000
"""The last seconds of a reserve, shown as a warning."""


def clock_text(ms: int) -> str:
    """A reserve as a clock shows it: "4:08", "1:02:30", and tenths in the last 10 seconds.

    >>> clock_text(247_400), clock_text(3_750_000), clock_text(9_450), clock_text(0)
    ('4:08', '1:02:30', '0:09.4', '0:00.0')
    """
    if ms < WARN_MS:
        return f"0:0{ms // 1000}.{ms % 1000 // 100}"
    seconds = -(-ms // 1000)  # a clock shows a second until all of it is gone
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@dataclass(frozen=True)
class ClockFace:
    side: str  # "black" or "white"
    name: str
    ms: int
    running: bool

    @property
    def text(self) -> str:
        return clock_text(self.ms)

    @property
    def warning(self) -> bool:
        return self.running and self.ms < WARN_MS


@dataclass(frozen=True)
class LiveClocks:
    faces: tuple[ClockFace, ClockFace]
    delay_left_ms: int
    data: dict[str, Any]  # what the script starts from (static/js/match_clock.js)


def live_clocks(game: Game, names: PerSide[str], at: datetime) -> LiveClocks | None:
    """Both clocks of a live game at ``at``, Black's first; None by correspondence."""
    clock = game.match_clock()
    if clock is None:
        return None
    reading = clock.reading(at)
    running = clock.running if game.is_active else None
    black, white = (ClockFace(side.name.lower(), names[side], reading[side], running is side)
                    for side in (Side.BLACK, Side.WHITE))
    delay_left = clock.delay_left_ms(at) if running is not None else 0
    data = {
        "black_ms": reading.black,
        "white_ms": reading.white,
        "running": None if running is None else running.name.lower(),
        "delay_left_ms": delay_left,
        "at": at.isoformat(),
    }
    return LiveClocks((black, white), delay_left, data)
