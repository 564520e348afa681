"""The engine against GNU Backgammon: every legal result of over 10,000 positions and rolls.

The fixture (``data/gnubg_plays.txt``, made by ``tools/gnubg_reference.py``) holds, per line,
``CATEGORY POSITION_ID DICE RESULT_ID ...``: gnubg's distinct positions after each legal play, with
the opponent on roll. ``data/gnubg_moves.txt.gz`` holds gnubg's move text for each of those results,
in the same order, to name what the engine missed. On a disagreement the tests print a breakdown per
case, as python-chess's perft does: the category, the case, the missing plays in gnubg's words and
the extra plays in the engine's.
"""

from __future__ import annotations

import gzip
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from backgammon.engine import Position
from backgammon.engine.notation import format_play
from backgammon.engine.plays import legal_plays

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
ROLLS = {f"{a}{b}" for a in range(1, 7) for b in range(1, a + 1)}
PHASES = {
    "opening", "contact", "race", "prime", "bearoff-contact", "bearoff-race", "bearoff-bar",
    *(f"bar{closed}" for closed in range(7)),
}
"""Every phase the fixture must cover with all 21 rolls (categories before any ``/`` suffix)."""
START = "4HPwATDgc/ABMA"
SAMPLE = 2500
SHOWN = 25


@dataclass(frozen=True, slots=True)
class Case:
    category: str
    position_id: str
    dice: str
    expected: tuple[str, ...]

    @property
    def phase(self) -> str:
        return self.category.split("/")[0]

    @property
    def roll(self) -> tuple[int, int]:
        return int(self.dice[0]), int(self.dice[1])


@cache
def cases() -> tuple[Case, ...]:
    with open(DATA / "gnubg_plays.txt", encoding="ascii") as lines:
        return tuple(
            Case(fields[0], fields[1], fields[2], tuple(fields[3:]))
            for fields in (line.split() for line in lines)
        )


@cache
def gnubg_texts() -> dict[tuple[str, str], dict[str, str]]:
    """gnubg's move text per case and result ID."""
    texts = {}
    with gzip.open(DATA / "gnubg_moves.txt.gz", "rt", encoding="ascii") as lines:
        for case, line in zip(cases(), lines, strict=True):
            key, *moves = line.rstrip("\n").split("\t")
            assert key == f"{case.position_id} {case.dice}", "the two data files are out of step"
            texts[case.position_id, case.dice] = dict(zip(case.expected, moves, strict=True))
    return texts


def engine_texts(case: Case) -> dict[str, str]:
    """The engine's notation per result ID."""
    plays = legal_plays(Position.from_id(case.position_id), case.roll)
    return {play.result.swapped().id: format_play(play) or "(no move)" for play in plays}


def breakdown(wrong: Iterable[tuple[Case, set[str]]], total: int) -> str:
    """A perft-style report: per case, what gnubg allows that the engine lacks, and the reverse."""
    wrong = list(wrong)
    by_category = dict(Counter(case.category for case, _ in wrong))
    lines = [f"{len(wrong)} of {total} cases disagree with gnubg (by category: {by_category})"]
    for case, got in wrong[:SHOWN]:
        expected = set(case.expected)
        gnubg_moves = gnubg_texts()[case.position_id, case.dice]
        ours = engine_texts(case)
        lines.append(f"{case.category} {case.position_id} {case.dice}: "
                     f"gnubg {len(expected)} results, engine {len(got)}")
        lines += [f"    missing {result}  {gnubg_moves[result]}" for result in sorted(expected - got)]
        lines += [f"    extra   {result}  {ours.get(result, '?')}" for result in sorted(got - expected)]
    if len(wrong) > SHOWN:
        lines.append(f"... and {len(wrong) - SHOWN} more")
    return "\n".join(lines)


def coverage_table(checked: Iterable[Case]) -> str:
    """Cases checked per category and per roll."""
    checked = list(checked)
    by_category = Counter(case.category for case in checked)
    by_roll = Counter(case.dice for case in checked)
    lines = [f"gnubg cross-check: {len(checked)} cases"]
    lines += [f"  {name:28} {count:6}" for name, count in sorted(by_category.items())]
    lines.append("  per roll: " + " ".join(f"{roll}:{by_roll[roll]}" for roll in sorted(by_roll)))
    return "\n".join(lines)


def test_the_fixture_is_large_well_formed_and_covers_every_roll_of_every_phase() -> None:
    assert len(cases()) >= 10_000
    assert len({(case.position_id, case.dice) for case in cases()}) == len(cases())
    rolls_seen: dict[str, set[str]] = {}
    for case in cases():
        assert case.dice in ROLLS, case
        assert case.expected and list(case.expected) == sorted(set(case.expected)), case
        if case.category.endswith("/nomove"):
            assert case.expected == (Position.from_id(case.position_id).swapped().id,), case
        rolls_seen.setdefault(case.phase, set()).add(case.dice)
    assert set(rolls_seen) == PHASES
    for phase, rolls in rolls_seen.items():
        assert rolls == ROLLS, f"{phase} lacks the rolls {sorted(ROLLS - rolls)}"


def test_the_batch_command_gives_gnubgs_results_for_every_case(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Every other line gives the lower die first: the command takes the dice in either order.
    lines = [f"{case.position_id} {case.dice if n % 2 else case.dice[::-1]}\n"
             for n, case in enumerate(cases())]
    done = subprocess.run(
        [sys.executable, "-m", "backgammon.engine", "plays", "--batch"], input="".join(lines),
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    answers = done.stdout.splitlines()
    assert len(answers) == len(cases()), f"{len(cases())} cases in, {len(answers)} lines out"
    wrong = []
    for case, answer in zip(cases(), answers, strict=True):
        got = answer.split(" ")
        assert got == sorted(set(got)), f"{case.position_id} {case.dice}: unsorted or repeated IDs"
        if tuple(got) != case.expected:
            wrong.append((case, set(got)))
    with capsys.disabled():
        print("\n" + coverage_table(cases()))
    assert not wrong, breakdown(wrong, len(cases()))


def test_legal_plays_in_process_agree_with_gnubg_on_a_sample() -> None:
    sample = random.Random(7).sample(cases(), SAMPLE)
    # Always include the rare categories whole: they are where the rules bite.
    counts = Counter(case.category for case in cases())
    sample += [case for case in cases() if counts[case.category] < 60 and case not in sample]
    wrong = []
    for case in sample:
        plays = legal_plays(Position.from_id(case.position_id), case.roll)
        got = [play.result.swapped().id for play in plays]
        assert len(got) == len(set(got)), f"{case.position_id} {case.dice}: a result twice"
        if set(got) != set(case.expected):
            wrong.append((case, set(got)))
    assert not wrong, breakdown(wrong, len(sample))


def test_the_breakdown_names_missing_and_extra_plays() -> None:
    # The report itself must be right, or a real mismatch would be misread.
    case = next(case for case in cases() if case.position_id == START and case.dice == "31")
    dropped = "sGfwATDgc/ABMA"  # 8/5 6/5
    got = set(case.expected) - {dropped} | {"4HPwATDgc/ABMA"}
    report = breakdown([(case, got)], 1)
    assert f"missing {dropped}  8/5 6/5" in report
    assert "extra   4HPwATDgc/ABMA  ?" in report
    assert report.startswith("1 of 1 cases disagree")
