"""``from bots import decide``: the one public entry point for a bot's decision, from a plain
script with Django set up, on its main thread (issue 30, item 2), the worker's bots through it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import os, sys
sys.path[:0] = [{root!r}, {tests!r}]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")
import django
django.setup()
from dataclasses import replace
from bots import decide
assert "gnubg" not in sys.modules  # loaded by the first decision, not by importing bots
from backgammon.engine import Action
from backgammon.engine.match import Phase
from test_gnubg_bridge import RACE_CRUSHING, RACE_DOUBLE_TAKE, state_at
opening = state_at("BP:5", {{24: 2, 13: 5, 8: 3, 6: 5}}, {{24: 2, 13: 5, 8: 3, 6: 5}})
crushing, fair = state_at("MP", *RACE_CRUSHING), state_at("MP", *RACE_DOUBLE_TAKE)
offered = replace(crushing, phase=Phase.TAKE_OR_DROP)
lost = state_at("BP:5", {{6: 3}}, {{1: 2}}, phase=Phase.RESIGN_OFFERED, resign_level=1)
cases = [
    (opening, {{"roll"}}),
    (crushing, {{"double"}}),
    (replace(opening, phase=Phase.MOVE, dice=(3, 1)), {{"play"}}),
    (offered, {{"drop"}}),
    (replace(fair, phase=Phase.TAKE_OR_DROP), {{"take"}}),
    (lost, {{"accept_resign"}}),
]
for level in ("easy", "medium", "strong"):
    for state, kinds in cases:
        action = decide(state, level)
        assert isinstance(action, Action), action
        if level != "easy":  # easy may err: its kind is still one of the phase's
            assert action.kind.value in kinds, (level, state.phase, action)
for bad in ("hard", "", "Medium"):
    try:
        decide(opening, bad)
    except ValueError as refusal:
        assert "easy, medium or strong" in str(refusal)
    else:
        raise AssertionError(bad)
try:
    decide(replace(opening, phase=Phase.OPENING_ROLL), "medium")
except ValueError:
    pass
else:
    raise AssertionError("nobody acts in the opening roll")
print("decided")
"""


def test_a_plain_script_asks_the_bots_for_their_decision_in_every_phase() -> None:
    script = SCRIPT.format(root=str(ROOT), tests=str(ROOT / "tests" / "site"))
    run = subprocess.run([sys.executable, "-c", script], env=dict(os.environ), cwd=ROOT, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().endswith("decided")
