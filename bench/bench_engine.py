"""Engine speed against GNU Backgammon on the same 5,000 positions and rolls (bench/cases_engine.txt).

Four timings, each the best of three runs:

1. gnubg's ``findbestmoves`` in-process at 0-ply, the loop only (boards decoded beforehand);
2. ``python -m backgammon.engine plays --batch`` as a subprocess fed the 5,000 lines: wall clock,
   start-up included, and its peak resident memory (through a bare launcher: see ``_peak_kb``);
3. ``legal_plays`` in-process over the same cases (Positions decoded beforehand);
4. ``click_map`` (the turn map every roll's answer carries) in-process over the same cases.

Targets: batch time at most 5 times gnubg's, batch peak memory under 100 MB. It reports and exits 0
either way, printing MET or MISSED per target, and writes bench/results/engine.md.

    .venv/bin/python bench/bench_engine.py
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from machine_speed import SPEED_LOOP, SPEED_RANGE_WORDS, machine_speed_ms

from backgammon.engine import Position
from backgammon.engine.plays import legal_plays
from backgammon.engine.turn import click_map

CASES = ROOT / "bench" / "cases_engine.txt"
RESULTS = ROOT / "bench" / "results" / "engine.md"
RUNS = 3
TARGET_RATIO = 5.0
TARGET_MEMORY_MB = 100.0

Case = tuple[str, tuple[int, int]]


def load_cases() -> list[Case]:
    cases = []
    for line in CASES.read_text(encoding="ascii").splitlines():
        position_id, dice = line.split()
        cases.append((position_id, (int(dice[0]), int(dice[1]))))
    return cases


def best_of(runs: int, timed: Callable[[], float]) -> float:
    return min(timed() for _ in range(runs))


def time_gnubg(cases: list[Case]) -> tuple[float, list[int]]:
    """Seconds for findbestmoves over every case, and gnubg's count of results per case."""
    from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

    boards = [(gnubg.positionfromid(position_id), dice) for position_id, dice in cases]
    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 0, 1, 0)
    counts: list[int] = []

    def run() -> float:
        counts.clear()
        start = time.perf_counter()
        for board, dice in boards:
            counts.append(len(gnubg.findbestmoves(board, cube, context, dice)))
        return time.perf_counter() - start

    return best_of(RUNS, run), [count or 1 for count in counts]  # no move: one result


def time_batch(cases: list[Case]) -> tuple[float, float, list[int]]:
    """Seconds and peak MB of the batch command over every case, and its count of results."""
    stdin = "".join(f"{position_id} {dice[0]}{dice[1]}\n" for position_id, dice in cases).encode()
    counts: list[int] = []

    def run() -> float:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "backgammon.engine", "plays", "--batch"], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert child.stdin is not None and child.stdout is not None
        # Write from a thread while reading here, so that neither pipe fills and blocks.
        writer = threading.Thread(target=_feed, args=(child.stdin, stdin))
        writer.start()
        out = child.stdout.read()
        writer.join()
        child.wait()
        elapsed = time.perf_counter() - start
        if child.returncode:
            sys.exit(f"the batch command failed with status {child.returncode}")
        counts[:] = [len(line.split()) for line in out.decode().splitlines()]
        return elapsed

    seconds = best_of(RUNS, run)
    peak_kb = _peak_kb(stdin)
    return seconds, peak_kb / 1024, counts


# Linux charges a child the memory its parent had when it forked (ru_maxrss survives exec), and
# this process holds gnubg's networks: so a bare launcher (``-S``, a few MB) forks the batch
# command and reports the peak it alone reached.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-m", "backgammon.engine", "plays", "--batch"])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status), file=sys.stderr)
"""


def _peak_kb(stdin: bytes) -> int:
    done = subprocess.run([sys.executable, "-S", "-c", _LAUNCHER], cwd=ROOT, input=stdin,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    peak_kb, status = (int(word) for word in done.stderr.split()[-2:])
    if status:
        sys.exit(f"the batch command failed with status {status}")
    return peak_kb


def _feed(pipe: IO[bytes], data: bytes) -> None:
    pipe.write(data)
    pipe.close()


def time_in_process(
    cases: list[Case], work: Callable[[Position, tuple[int, int]], object] = legal_plays
) -> float:
    """Seconds for ``work`` (legal_plays unless told) over every case."""
    positions = [(Position.from_id(position_id), dice) for position_id, dice in cases]

    def run() -> float:
        start = time.perf_counter()
        for position, dice in positions:
            work(position, dice)
        return time.perf_counter() - start

    return best_of(RUNS, run)


def verdict(met: bool) -> str:
    return "MET" if met else "MISSED"


def report(cases: list[Case]) -> list[str]:
    """The results as Markdown lines (also printed)."""
    speed_before = machine_speed_ms()
    gnubg_seconds, gnubg_counts = time_gnubg(cases)
    batch_seconds, batch_mb, batch_counts = time_batch(cases)
    in_process_seconds = time_in_process(cases)
    # Every roll's answer carries its click map (the game page builds the turn from it).
    click_map_seconds = time_in_process(cases, click_map)
    speed_after = machine_speed_ms()
    n = len(cases)
    ratio = batch_seconds / gnubg_seconds
    differ = sum(a != b for a, b in zip(gnubg_counts, batch_counts, strict=True))
    machine = platform.processor() or platform.machine()
    rows = [
        ("gnubg findbestmoves, 0-ply, in-process (loop only)", gnubg_seconds, ""),
        ("`python -m backgammon.engine plays --batch` (subprocess, start-up included)",
         batch_seconds, f"{batch_mb:.1f} MB"),
        ("`legal_plays` in-process (loop only)", in_process_seconds, ""),
        ("`click_map` in-process, the game page's turn map (loop only)", click_map_seconds, ""),
    ]
    return [
        "# Engine benchmark (bench/bench_engine.py)",
        "",
        (f"{date.today().isoformat()}, nproc {len(os.sched_getaffinity(0))}, {machine},"
         f" Python {platform.python_version()}; {n} cases from bench/cases_engine.txt,"
         f" best of {RUNS} runs each."),
        (f"The machine's speed (`{SPEED_LOOP}`, best of three; it changes with the hour on this shared"
         f" virtual machine: {SPEED_RANGE_WORDS}): {speed_before:.1f} ms before, {speed_after:.1f} ms after."),
        "",
        "| what | seconds | cases/s | peak memory |",
        "| --- | --- | --- | --- |",
        *(f"| {what} | {seconds:.3f} | {n / seconds:,.0f} | {memory} |"
          for what, seconds, memory in rows),
        "",
        (f"- batch time / gnubg time: {ratio:.2f} (target at most {TARGET_RATIO:g}):"
         f" {verdict(ratio <= TARGET_RATIO)}"),
        (f"- batch peak memory: {batch_mb:.1f} MB (target under {TARGET_MEMORY_MB:g} MB):"
         f" {verdict(batch_mb < TARGET_MEMORY_MB)}"),
        f"- cases where the batch command and gnubg count different numbers of results: {differ}",
    ]


def main() -> int:
    lines = report(load_cases())
    print("\n".join(lines))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
