"""Time controls and the live match clock: arithmetic on instants it is given, never the wall clock.

A game is played by correspondence (a limit for each move, ItsYourTurn's way) or live, with a
tournament match clock: each player has a reserve for the whole match, and each of their turns
begins with a delay that is used up before the reserve starts to run. The clock runs for the
player whose decision it is (roll or double, move, take or pass, accept or reject a resignation)
and stops when they act.

>>> from datetime import datetime, timedelta, timezone
>>> control = LIVE_PRESETS["blitz"].control(match_length=5)
>>> control
TimeControl(kind=<ClockKind.LIVE: 'live'>, per_move_s=0, delay_s=8, reserve_s=150)
>>> start = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> clock = MatchClock.start(control, running=Side.BLACK, at=start)
>>> clock.reading(start + timedelta(seconds=10))   # 8 s of delay, then 2 s of the reserve
PerSide(black=148000, white=150000)
>>> clock.flag_at() == start + timedelta(seconds=158)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from .board import PerSide, Side
from .errors import InvalidTimeControlError
from .variants import MAX_MATCH_LENGTH

__all__ = [
    "CORRESPONDENCE_PER_MOVE_RANGE_S",
    "LIVE_DELAY_RANGE_S",
    "LIVE_PRESETS",
    "LIVE_RESERVE_RANGE_S",
    "ClockKind",
    "LivePreset",
    "MatchClock",
    "TimeControl",
]

_MS = timedelta(milliseconds=1)

CORRESPONDENCE_PER_MOVE_RANGE_S = (60, 14 * 24 * 3600)
"""A correspondence move: one minute to 14 days (ItsYourTurn's longest limit)."""
LIVE_DELAY_RANGE_S = (2, 60)
"""A live turn's delay: 2 seconds to a minute. Never less than 2 s, because the delay is what pays
for the network: a move reaches the opponent's page in a fifth of a second (the median measured
between two browsers) and the answer travels back as fast, so with 2 s even a slow connection
costs no reserve the player did not spend thinking."""
LIVE_RESERVE_RANGE_S = (30, 3 * 3600)
"""A live reserve: 30 s (one Blitz point) to 3 hours (more than a 25-point match at Standard's
2 minutes a point, 50 minutes, leaves room for slower custom clocks, and a match on a web page
still ends the same evening)."""


class ClockKind(StrEnum):
    CORRESPONDENCE = "correspondence"
    LIVE = "live"


def _check_range(name: str, value: int, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidTimeControlError(f"{name} must be a whole number of seconds from {low} to {high}, not {value!r}")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How a game is timed: ``per_move_s`` by correspondence, ``delay_s`` and ``reserve_s`` live.

    Build one with ``correspondence`` or ``live`` (which check the ranges) or ``from_dict``.
    """

    kind: ClockKind
    per_move_s: int = 0
    delay_s: int = 0
    reserve_s: int = 0

    @classmethod
    def correspondence(cls, per_move_s: int) -> TimeControl:
        _check_range("per_move_s", per_move_s, CORRESPONDENCE_PER_MOVE_RANGE_S)
        return cls(ClockKind.CORRESPONDENCE, per_move_s=per_move_s)

    @classmethod
    def live(cls, delay_s: int, reserve_s: int) -> TimeControl:
        _check_range("delay_s", delay_s, LIVE_DELAY_RANGE_S)
        _check_range("reserve_s", reserve_s, LIVE_RESERVE_RANGE_S)
        return cls(ClockKind.LIVE, delay_s=delay_s, reserve_s=reserve_s)

    @property
    def is_live(self) -> bool:
        return self.kind is ClockKind.LIVE

    def to_dict(self) -> dict[str, Any]:
        """The API's object: ``{"kind": "correspondence", "per_move_s"}`` or ``{"kind": "live", "delay_s", "reserve_s"}``."""
        if self.is_live:
            return {"kind": self.kind.value, "delay_s": self.delay_s, "reserve_s": self.reserve_s}
        return {"kind": self.kind.value, "per_move_s": self.per_move_s}

    @classmethod
    def from_dict(cls, data: Any) -> TimeControl:
        """The inverse of ``to_dict``, checked: anything else raises ``InvalidTimeControlError``.

        >>> TimeControl.from_dict({"kind": "live", "delay_s": 12, "reserve_s": 420}).to_dict()
        {'kind': 'live', 'delay_s': 12, 'reserve_s': 420}
        """
        if not isinstance(data, dict):
            raise InvalidTimeControlError("A time control is an object with a kind")
        kind = data.get("kind")
        fields = {"correspondence": {"kind", "per_move_s"}, "live": {"kind", "delay_s", "reserve_s"}}
        if kind not in fields:
            raise InvalidTimeControlError(f'A time control\'s kind is "correspondence" or "live", not {kind!r}')
        if set(data) != fields[kind]:
            raise InvalidTimeControlError(f"A {kind} time control has exactly: {', '.join(sorted(fields[kind]))}")
        if kind == "live":
            return cls.live(data["delay_s"], data["reserve_s"])
        return cls.correspondence(data["per_move_s"])

    def describe(self) -> str:
        """Words for lists and the game page, e.g. "12 s + 7 min" or "per move 3 days".

        >>> TimeControl.live(12, 420).describe()
        '12 s + 7 min'
        """
        if self.is_live:
            return f"{self.delay_s} s + {_duration_words(self.reserve_s)}"
        return f"per move {_duration_words(self.per_move_s)}"


def _duration_words(seconds: int) -> str:
    """A duration as a player reads a clock: the largest units first, none of them empty.

    >>> [_duration_words(s) for s in (45, 60, 150, 420, 5400, 86400, 3 * 86400, 129600, 0)]
    ['45 s', '1 min', '2 min 30 s', '7 min', '1 h 30 min', '1 day', '3 days', '1 day 12 h', '0 s']
    """
    parts = []
    for unit, name in ((86400, "day"), (3600, "h"), (60, "min"), (1, "s")):
        count, seconds = divmod(seconds, unit)
        if count:
            parts.append(f"{count} {name}{'s' if name == 'day' and count != 1 else ''}")
    return " ".join(parts) or "0 s"


@dataclass(frozen=True, slots=True)
class LivePreset:
    """A named live clock whose reserve grows with the match: ``reserve_per_point_s`` a point."""

    key: str
    name: str
    delay_s: int
    reserve_per_point_s: int

    def control(self, match_length: int) -> TimeControl:
        """This preset's clock for a match of ``match_length`` points (0, a money game, as one point)."""
        if not 0 <= match_length <= MAX_MATCH_LENGTH:
            raise InvalidTimeControlError(f"A match is 0 to {MAX_MATCH_LENGTH} points long, not {match_length}")
        reserve = self.reserve_per_point_s * max(1, match_length)
        return TimeControl.live(self.delay_s, min(reserve, LIVE_RESERVE_RANGE_S[1]))

    def describe(self) -> str:
        return f"{self.name}: {self.delay_s} s delay + {_duration_words(self.reserve_per_point_s)} a point"


LIVE_PRESETS = {
    preset.key: preset
    for preset in (
        LivePreset("blitz", "Blitz", 8, 30),
        LivePreset("rapid", "Rapid", 12, 60),
        # The American Backgammon Tour's clock.
        LivePreset("standard", "Standard", 12, 120),
    )
}


@dataclass(frozen=True, slots=True)
class MatchClock:
    """Both reserves of a live match as they stood at ``since``, and whose clock runs from then.

    ``since`` is when the running player's turn began: their delay runs first, then their
    reserve. Every answer is computed from an instant the caller passes in.
    """

    delay_ms: int
    reserve_ms: PerSide[int]
    running: Side | None = None
    since: datetime | None = None

    @classmethod
    def start(cls, control: TimeControl, *, running: Side | None, at: datetime) -> MatchClock:
        if not control.is_live:
            raise InvalidTimeControlError("Only a live game has a match clock")
        full = control.reserve_s * 1000
        return cls(control.delay_s * 1000, PerSide(full, full), running, at if running is not None else None)

    def _elapsed_ms(self, at: datetime) -> int:
        if self.since is None:
            return 0
        # An instant before the turn began (two servers' clocks a little apart) charges nothing.
        return max(0, (at - self.since) // _MS)

    def delay_left_ms(self, at: datetime) -> int:
        """What is left of the running player's delay at ``at`` (0 when no clock runs)."""
        if self.running is None:
            return 0
        return max(0, self.delay_ms - self._elapsed_ms(at))

    def reading(self, at: datetime) -> PerSide[int]:
        """Both reserves at ``at``, in milliseconds: the running one charged for the time past its delay."""
        if self.running is None:
            return self.reserve_ms
        spent = max(0, self._elapsed_ms(at) - self.delay_ms)
        left = max(0, self.reserve_ms[self.running] - spent)
        return self.reserve_ms.replace(self.running, left)

    def flag_at(self) -> datetime | None:
        """The instant the running reserve reaches zero (None when no clock runs)."""
        if self.running is None or self.since is None:
            return None
        return self.since + (self.delay_ms + self.reserve_ms[self.running]) * _MS

    def flagged(self, at: datetime) -> Side | None:
        """The side whose reserve has run out at ``at``, if any: that side loses on time."""
        flag = self.flag_at()
        if flag is None or at < flag:
            return None
        return self.running

    def handed_to(self, side: Side | None, at: datetime, *, new_turn: bool = False) -> MatchClock:
        """The clock after an action at ``at`` leaves ``side`` to decide (None: nobody, e.g. the match is over).

        The running reserve is charged up to ``at``. When the same player decides again within
        their turn (they rolled and now move) it goes on: no new delay. Otherwise, or with
        ``new_turn`` (the same player again, but on a turn of their own: the opponent's turn
        was played for them in between, a dance passed by the site, or a new game's opening
        roll fell to them), the clock passes to ``side`` and their delay starts at ``at``.
        """
        reserves = self.reading(at)
        if side is not None and side is self.running and not new_turn:
            # Keep the turn's start; the reserves stay as they stood then so the arithmetic of
            # the delay is unchanged.
            return self
        return MatchClock(self.delay_ms, reserves, side, at if side is not None else None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "delay_ms": self.delay_ms,
            "black_ms": self.reserve_ms.black,
            "white_ms": self.reserve_ms.white,
            "running": None if self.running is None else self.running.name.lower(),
            "since": None if self.since is None else self.since.isoformat(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchClock:
        running = data.get("running")
        since = data.get("since")
        return cls(
            int(data["delay_ms"]),
            PerSide(int(data["black_ms"]), int(data["white_ms"])),
            None if running is None else Side[str(running).upper()],
            None if since is None else datetime.fromisoformat(since),
        )
