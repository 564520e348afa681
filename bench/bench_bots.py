"""The computer opponents' speed, and GNU Backgammon's analysis of a 5-point match.

For each level, two bots play a 5-point match (BP) against each other through the one public entry
point, ``bots.decide``, on this process's main thread as the worker's bots do; every decision is
timed, by kind: the roll or double, the play, the answer to a double (take, pass or beaver) and
the answer to a resignation. Then the medium bots' match is analysed as the worker analyses it
(``analysis.isolated.analyse_isolated``: a process of its own, gnubg's ``analyse match`` of the
.mat in another, its export read back, the chances for the chart), and that is timed too.
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")

import django

import gamesite.testenv  # noqa: F401  (throwaway keys: no database or request is used here)

django.setup()

from analysis.isolated import analyse_isolated
from backgammon.engine import Action, MatchState, Phase, apply_action, new_match
from backgammon.engine.actions import ActionKind
from backgammon.engine.match import MatchRules
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
    matches: dict[str, tuple[MatchRules, list[Action]]] = {}
    for level in LEVELS:
        rules, actions, times = play_match(level)
        matches[level] = (rules, actions)
        for kind in _DECISIONS.values():
            seconds = sorted(times.get(kind, []))
            if not seconds:
                continue
            p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
            lines.append(f"| {level} | {kind} | {len(seconds)} | {_ms(statistics.fmean(seconds))} | "
                         f"{_ms(p95)} | {_ms(seconds[-1])} |")
            print(f"{level:>6} {kind:<22} {len(seconds):4d} decisions, mean {_ms(statistics.fmean(seconds))} ms, "
                  f"p95 {_ms(p95)} ms, max {_ms(seconds[-1])} ms", flush=True)
    rules, actions = matches["medium"]
    started = time.perf_counter()
    analysis = analyse_isolated(rules, actions)
    analysed = time.perf_counter() - started
    print(f"analysis of the medium bots' {MATCH_LENGTH}-point match ({len(actions)} actions): {analysed:.2f} s",
          flush=True)
    lines += [
        "",
        (f"The analysis of the medium bots' {MATCH_LENGTH}-point match as the worker runs it (gnubg's own "
         f"`analyse match` at 0-ply, its export read back, in processes of their own), {len(actions)} "
         f"actions: **{analysed:.2f} s** ({len(analysis['actions'])} verdicts)."),
    ]
    return lines + skill_report(matches, analysis) + board_report(rules, actions)


def skill_report(matches: dict[str, tuple[MatchRules, list[Action]]], medium: dict[str, Any]) -> list[str]:
    """How well each level plays, as gnubg's analysis (0-ply) rates its match: the checker plays'
    error rate (mEMG lost per unforced play) and PR of both bots, and their cube errors."""
    lines = ["", "Each level's match as gnubg's analysis (0-ply) rates both of its bots:", "",
             "| level | unforced plays | error rate (mEMG) | PR | very bad plays | cube decisions | cube equity lost |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for level, (rules, actions) in matches.items():
        players = (medium if level == "medium" else analyse_isolated(rules, actions))["players"]
        rows = [players[side] for side in ("black", "white")]
        unforced = sum(row["unforced"] for row in rows)
        lost = sum(row["error_rate"] * row["unforced"] for row in rows) / max(1, unforced)
        line = (f"| {level} | {unforced} | {lost:.1f} | {lost / 2:.1f} | {sum(row['blunders'] for row in rows)} | "
                f"{sum(row['cube_decisions'] for row in rows)} | {sum(row['cube_lost'] for row in rows):.3f} |")
        lines.append(line)
        print(line, flush=True)
    return lines


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
                   "0.25 s when idle) and the page's first look (0.4 s later, then every 0.4 s). 2-ply answers "
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
