"""The computer opponents' speed, and GNU Backgammon's analysis of a 5-point match.

For each level, two bots play a 5-point match (BP) against each other through the one public entry
point, ``bots.decide``, on this process's main thread as the worker's bots do; every decision is
timed, by kind: the roll or double, the play, the answer to a double (take, pass or beaver) and
the answer to a resignation. Then the medium bots' match goes to gnubg's own analysis, in its own
process as the worker runs it (``analysis.gnubg_cube.gnubg_export_text``), and that is timed too.
The dice come from a seeded generator, so each run plays the same matches. Writes
bench/results/bots.md.

    .venv/bin/python bench/bench_bots.py
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

import django

import gamesite.testenv  # noqa: F401  (throwaway keys: no database or request is used here)

django.setup()

from analysis.gnubg_cube import gnubg_export_text
from backgammon.engine import Action, MatchState, PerSide, Phase, apply_action, new_match
from backgammon.engine.actions import ActionKind
from backgammon.engine.match import MatchRules
from backgammon.engine.matfile import export_mat
from backgammon.engine.variants import find_variant
from bots import decide

RESULTS = ROOT / "bench" / "results" / "bots.md"
LEVELS = ("easy", "medium", "strong")
MATCH_LENGTH = 5
SEED = 20261127
MOST_ACTIONS = 3000  # a match of bots ends long before; a bound all the same

_DECISIONS = {
    Phase.ROLL: "roll or double",
    Phase.MOVE: "play",
    Phase.TAKE_OR_DROP: "take, pass or beaver",
    Phase.RESIGN_OFFERED: "answer a resignation",
}


def _rolled(action: Action, rng: random.Random) -> Action:
    """A roll request's placeholder dice replaced by real ones, as the site rolls them."""
    if action.kind is ActionKind.ROLL:
        return Action.roll(rng.randint(1, 6), rng.randint(1, 6))
    return action


def play_match(level: str) -> tuple[MatchRules, list[Action], dict[str, list[float]]]:
    """A match between two bots of ``level``: its rules, its actions, and each decision's seconds by kind."""
    rng = random.Random(SEED)
    rules = MatchRules(find_variant("BP"), MATCH_LENGTH)
    state: MatchState = new_match(rules)
    actions: list[Action] = []
    times: dict[str, list[float]] = defaultdict(list)
    while state.phase is not Phase.MATCH_OVER and len(actions) < MOST_ACTIONS:
        if state.phase is Phase.OPENING_ROLL:
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            action = Action.roll(first, second)
        else:
            started = time.perf_counter()
            action = decide(state, level)
            times[_DECISIONS[state.phase]].append(time.perf_counter() - started)
            action = _rolled(action, rng)
        state = apply_action(state, action)
        actions.append(action)
    return rules, actions, times


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def report() -> list[str]:
    lines = [
        "# The computer opponents' speed (`bench/bench_bots.py`)",
        "",
        (f"{date.today().isoformat()}, {platform.python_implementation()} {platform.python_version()}, "
         f"{os.cpu_count()} cores. Each level's bots play a {MATCH_LENGTH}-point match (BP) against each other "
         "through `bots.decide`, on the main thread, the dice seeded; every decision timed."),
        "",
        "| level | decision | count | mean ms | p95 ms | max ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    medium_match: tuple[MatchRules, list[Action]] | None = None
    for level in LEVELS:
        rules, actions, times = play_match(level)
        if level == "medium":
            medium_match = (rules, actions)
        for kind in _DECISIONS.values():
            seconds = sorted(times.get(kind, []))
            if not seconds:
                continue
            p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
            lines.append(f"| {level} | {kind} | {len(seconds)} | {_ms(statistics.fmean(seconds))} | "
                         f"{_ms(p95)} | {_ms(seconds[-1])} |")
            print(f"{level:>6} {kind:<22} {len(seconds):4d} decisions, mean {_ms(statistics.fmean(seconds))} ms, "
                  f"p95 {_ms(p95)} ms, max {_ms(seconds[-1])} ms", flush=True)
    assert medium_match is not None
    rules, actions = medium_match
    mat = export_mat(rules, actions, PerSide("gnubg-medium", "gnubg-medium-2"))
    started = time.perf_counter()
    analysis = gnubg_export_text(mat, rules)
    analysed = time.perf_counter() - started
    print(f"analysis of the medium bots' {MATCH_LENGTH}-point match ({len(actions)} actions): {analysed:.2f} s",
          flush=True)
    lines += [
        "",
        (f"GNU Backgammon's analysis (0-ply, its own process, as the worker runs it) of the medium bots' "
         f"{MATCH_LENGTH}-point match, {len(actions)} actions: **{analysed:.2f} s** "
         f"({len(analysis.splitlines())} lines of gnubg's export)."),
    ]
    return lines + board_report(rules, actions)


BOARD_POSITIONS = 60


def board_report(rules: MatchRules, actions: list[Action]) -> list[str]:
    """The analysis board's answer (``analysis.position_board.analyse_position``, as the worker
    computes it) for positions of the medium bots' match: every few states with dice to play or a
    double to consider, at 0-ply and 2-ply."""
    from analysis.position_board import analyse_position
    from backgammon.engine import state_for_analysis

    state = new_match(rules)
    positions = []
    for action in actions:
        if state.phase is Phase.MOVE or (state.phase is Phase.ROLL and state.can_double()):
            positions.append(state_for_analysis(state))
        state = apply_action(state, action)
    chosen = positions[:: max(1, len(positions) // BOARD_POSITIONS)][:BOARD_POSITIONS]
    lines = [
        "",
        (f"The analysis board's answer (gnubg's ranked plays for the roll and its cube decision, as the worker "
         f"computes them) for {len(chosen)} positions of that match:"),
        "",
        "| depth | positions | mean ms | p95 ms | max ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for plies in (0, 2):
        seconds = []
        for position in chosen:
            started = time.perf_counter()
            analyse_position(position, plies)
            seconds.append(time.perf_counter() - started)
        seconds.sort()
        p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
        lines.append(f"| {plies}-ply | {len(seconds)} | {_ms(statistics.fmean(seconds))} | {_ms(p95)} | "
                     f"{_ms(seconds[-1])} |")
        print(f"board {plies}-ply: {len(seconds)} positions, mean {_ms(statistics.fmean(seconds))} ms, "
              f"p95 {_ms(p95)} ms, max {_ms(seconds[-1])} ms", flush=True)
    lines += ["", ("A player waits for that plus the worker's pick-up (`db_worker` looks for new tasks every "
                   "second when idle) and the page's first look (0.4 s later, then every 0.4 s). 2-ply answers "
                   "run on the analyses' queue: the slowest here, a 1-1 with hundreds of legal plays, would "
                   "hold up the bots and deadlines of the default queue for that long.")]
    return lines


def main() -> int:
    lines = report()
    RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"written: {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
