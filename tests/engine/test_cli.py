"""The interop command, run as other engines and scripts run it: a subprocess from the project root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playhelp import pos

from backgammon.engine import Position
from backgammon.engine.plays import legal_plays
from backgammon.engine.position_id import encode_position_id

# My checker on my point 6 and theirs on their point 19, the same point.
CLASH = encode_position_id((0,) * 18 + (1,) + (0,) * 6, (0,) * 5 + (1,) + (0,) * 19)
ROOT = Path(__file__).resolve().parents[2]
START = "4HPwATDgc/ABMA"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backgammon.engine", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )


def test_it_prints_the_16_opening_31_plays() -> None:
    done = run("plays", START, "31")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 16
    assert "8/5 6/5\tsGfwATDgc/ABMA" in lines
    assert all(len(line.split("\t")) == 2 and len(line.split("\t")[1]) == 14 for line in lines)


def test_dice_in_either_order_give_the_same_plays() -> None:
    assert sorted(run("plays", START, "13").stdout.splitlines()) == sorted(
        run("plays", START, "31").stdout.splitlines())


def test_no_move_is_printed_clearly() -> None:
    closed = pos({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    done = run("plays", closed.id, "65")
    assert done.stdout == f"(no move)\t{closed.swapped().id}\n"


def test_batch_writes_sorted_distinct_ids_per_line() -> None:
    cases = f"{START} 31\n{START} 66\n4HPwATDgc/ABMA 13\n"
    done = run("plays", "--batch", stdin=cases)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[0] == lines[2]
    for line, roll in zip(lines, [(3, 1), (6, 6)], strict=False):
        ids = line.split(" ")
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        assert set(ids) == {p.result.swapped().id for p in legal_plays(Position.initial(), roll)}


def test_race_variants_let_waiting_checkers_stay_on_the_bar() -> None:
    race_start = Position((0,) * 24 + (15,), (0,) * 24 + (15,))
    ordinary = run("plays", race_start.id, "65").stdout.splitlines()
    race = run("plays", race_start.id, "65", "--variant", "br").stdout.splitlines()
    assert [line.split("\t")[0] for line in ordinary] == ["bar/20 bar/19"]
    assert {line.split("\t")[0] for line in race} == {"bar/20 bar/19", "bar/14"}
    batch = run("plays", "--batch", "--variant", "BS", stdin=f"{race_start.id} 65\n")
    assert len(batch.stdout.split()) == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("plays", "4HPwATDgc/ABM", "31"), "14 characters"),
        (("plays", "4HPwATDgc/AB!A", "31"), "base64"),
        (("plays", "//////////////", "31"), "15"),
        (("plays", CLASH, "31"), "Both sides"),
        (("plays", START, "07"), "not a roll"),
        (("plays", START, "7"), "not a roll"),
        (("plays", START, "123"), "not a roll"),
        (("plays", START, "31", "--variant", "XX"), "Unknown variant"),
        (("plays", START), "DICE"),
        (("plays",), "POSITION_ID"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: tuple[str, ...], words: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert words in done.stderr and done.stdout == ""


@pytest.mark.parametrize("bad", ["4HPwATDgc/ABMA 77", "", "4HPwATDgc/ABMA", "nonsense!!!!!! 31"])
def test_a_bad_batch_line_stops_the_run_naming_its_line(bad: str) -> None:
    done = run("plays", "--batch", stdin=f"{START} 31\n{START} 42\n{bad}\n{START} 55\n")
    assert done.returncode == 2
    assert "line 3" in done.stderr
    assert len(done.stdout.splitlines()) == 2


def test_help_documents_the_command() -> None:
    done = run("plays", "--help")
    assert done.returncode == 0
    for words in ("--batch", "--variant", "RESULT_ID", "exit status 2"):
        assert words in done.stdout


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    # As with `... | head`: the reader has gone by the time the command writes its answers.
    child = subprocess.Popen(
        [sys.executable, "-m", "backgammon.engine", "plays", "--batch"], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    child.stdout.close()
    _, errors = child.communicate(f"{START} 31\n".encode(), timeout=60)
    assert "Traceback" not in errors.decode()
    assert child.returncode == 1
