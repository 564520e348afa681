"""Where the machine's cores went during a load level: the app servers, PostgreSQL, Redis, the
task worker, and locust itself (the load driver shares the cores with what it measures).

CPU seconds per process group, read with psutil (a dependency of locust) when the measurement
begins (after the players' arrival, which costs more than their play: every page opened, every
stream connected) and when the level ends; locust, run to its end with subprocess.run, is
counted through the children's resource usage, less what its process tree had used by the
measurement's start. Beside them, the time the host's hypervisor gave the machine's cores to others ("stolen
by the host", Linux's steal time): on a shared virtual machine the same code holds fewer players
in some hours than in others, and this says how much of that is the host.
"""

from __future__ import annotations

import resource
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

import psutil

T = TypeVar("T")


def _tree_seconds(pid: int | None) -> float:
    if pid is None:
        return 0.0
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    return sum(_seconds(process) for process in processes)


def _seconds(process: psutil.Process) -> float:
    """The process's CPU time, and its children's that have ended and were waited for (gunicorn
    replaces its workers now and then; PostgreSQL's connections end): gone from the tree, but
    their time was spent all the same."""
    try:
        times = process.cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system + times.children_user + times.children_system


def _postgres_seconds() -> float:
    total = 0.0
    for process in psutil.process_iter(["name"]):
        if process.info["name"] in ("postgres", "postmaster"):
            total += _seconds(process)
    return total


STOLEN = "stolen by the host"


def _stolen_seconds() -> float:
    """All cores' steal time so far (0 where the system does not count it)."""
    return float(getattr(psutil.cpu_times(), "steal", 0.0))


def _children_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _driver_seconds() -> float:
    """The CPU time of the load driver while it runs: this process's children that run locust
    (the servers, also its children, are counted in their own groups)."""
    total = 0.0
    for child in psutil.Process().children():
        try:
            if any("locust" in part for part in child.cmdline()):
                total += sum(_seconds(process) for process in [child, *child.children(recursive=True)])
        except psutil.Error:
            pass
    return total


def measured(run: Callable[[], T], groups: dict[str, int | None], from_seconds: float = 0.0) -> tuple[T, dict[str, float]]:
    """``run()``'s result, and the cores each group used on average from ``from_seconds`` into
    the run to its end (seconds of CPU per second): ``groups`` names the process trees (app
    server, worker, Redis) by their root pid; PostgreSQL (every postgres process) and the load
    driver (``run``'s own children) are added."""
    clock = psutil.time.monotonic
    before: dict[str, float] = {}

    def snapshot() -> None:
        before.update({name: _tree_seconds(pid) for name, pid in groups.items()})
        before.update({"PostgreSQL": _postgres_seconds(), "locust": _children_seconds() + _driver_seconds(),
                       STOLEN: _stolen_seconds(), "at": clock()})

    timer = threading.Timer(from_seconds, snapshot) if from_seconds > 0 else None
    if timer is None:
        snapshot()
    else:
        timer.start()
    try:
        result = run()
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()
    if not before:  # the run ended before its measurement began
        snapshot()
    elapsed = max(clock() - before["at"], 1e-9)
    cores = {name: (_tree_seconds(pid) - before[name]) / elapsed for name, pid in groups.items()}
    cores["PostgreSQL"] = (_postgres_seconds() - before["PostgreSQL"]) / elapsed
    cores["locust"] = (_children_seconds() - before["locust"]) / elapsed
    cores[STOLEN] = (_stolen_seconds() - before[STOLEN]) / elapsed
    return result, cores


def words(cores: dict[str, float], order: Iterable[str] = ()) -> str:
    """``app servers 1.10, PostgreSQL 0.20, ...`` (cores), in ``order`` first."""
    names = [*[name for name in order if name in cores], *[name for name in cores if name not in order]]
    return ", ".join(f"{name} {cores[name]:.2f}" for name in names)
