"""The machine's own speed, which on a shared virtual machine changes with the hour: the same fixed
pure-Python loop as `python3 -m timeit -n 3 -r 3 "sum(i*i for i in range(1000000))"`, the best of
three. Sessions saw 28-34 ms in quick hours and 42-131 ms in slow ones: a benchmark's figures are
comparable with another run's only at a like speed, so each report states it."""

from __future__ import annotations

import timeit

__all__ = ["SPEED_LOOP", "SPEED_RANGE_WORDS", "machine_speed_ms"]

SPEED_LOOP = "sum(i * i for i in range(1000000))"
SPEED_RANGE_WORDS = "28-34 ms in quick hours, 42-131 in slow ones"


def machine_speed_ms() -> float:
    return min(timeit.repeat(SPEED_LOOP, number=3, repeat=3)) / 3 * 1000
