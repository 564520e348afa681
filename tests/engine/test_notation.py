"""Move notation: formatting as GNU Backgammon writes it, and lenient parsing."""

from __future__ import annotations

import pytest
from playhelp import pos

from backgammon.engine import InvalidNotationError, Position
from backgammon.engine.notation import format_moves, format_play, parse_moves, parse_play
from backgammon.engine.plays import find_play, legal_plays

START = Position.initial()


@pytest.mark.parametrize(
    ("position", "dice", "moves", "text"),
    [
        (START, (4, 3), [(13, 9), (13, 10)], "13/10 13/9"),
        (START, (6, 6), [(24, 18), (24, 18), (13, 7), (13, 7)], "24/18(2) 13/7(2)"),
        (START, (6, 5), [(24, 18), (18, 13)], "24/13"),
        (pos({25: 1, 6: 14}, {22: 1, 1: 14}), (3, 1), [(25, 22), (6, 5)], "bar/22* 6/5"),
        (pos({6: 2, 5: 13}, {20: 15}), (6, 5), [(6, 0), (5, 0)], "6/off 5/off"),
        (pos({13: 1, 1: 14}, {7: 1, 20: 14}), (6, 3), [(13, 7), (7, 4)], "13/7*/4"),
        (pos({13: 2, 1: 13}, {20: 15}), (3, 3), [(13, 10)] * 2 + [(10, 7)] * 2, "13/7(2)"),
    ],
)
def test_it_formats_plays_in_standard_notation(
    position: Position, dice: tuple[int, int], moves: list[tuple[int, int]], text: str
) -> None:
    assert format_play(find_play(position, dice, moves)) == text


def test_no_move_formats_as_the_empty_string() -> None:
    blocked = pos({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    assert format_play(legal_plays(blocked, (6, 5))[0]) == ""


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("13/9 13/10", ((13, 9), (13, 10))),
        ("BAR/22* 6/OFF", ((25, 22), (6, 0))),
        ("25/22 6/0", ((25, 22), (6, 0))),
        ("13/7*/1", ((13, 7), (7, 1))),
        ("13/7/1", ((13, 7), (7, 1))),
        ("24/18(2)", ((24, 18), (24, 18))),
        ("  8/5,6/5 ", ((8, 5), (6, 5))),
        ("", ()),
    ],
)
def test_it_parses_every_accepted_form(text: str, moves: tuple[tuple[int, int], ...]) -> None:
    assert parse_moves(text) == moves


@pytest.mark.parametrize("text", ["13/", "13-9", "x/3", "13/9(5)", "30/24", "13//9", "13/9 pass"])
def test_it_refuses_text_that_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_moves(text)


def test_parse_play_finds_the_legal_play() -> None:
    play = parse_play(START, (3, 1), "8/5 6/5")
    assert play.result.swapped().id == "sGfwATDgc/ABMA"


def test_a_hit_on_the_way_may_be_left_out_when_it_is_the_only_reading() -> None:
    # 13/10*/4 is the only way to play 13/4 with 6-3 when 7 is blocked.
    position = pos({13: 1, 1: 14}, {10: 1, 7: 2, 20: 12})
    assert format_play(parse_play(position, (6, 3), "13/4")) == "13/10*/4"


def test_format_moves_writes_bare_pairs() -> None:
    assert format_moves([(25, 20), (6, 0), (13, 9)]) == "bar/20 13/9 6/off"
