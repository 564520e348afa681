"""The SVG board layout: pure Python, checked by its numbers and words (no database)."""

from __future__ import annotations

import re

from django.test import override_settings
from django.utils import translation

from backgammon.board_markup import board_svg_markup
from backgammon.board_svg import (
    BAR_W,
    BAR_X,
    BOTTOM_Y,
    CUBE,
    DEFAULT_COLOURS,
    MID_BOTTOM,
    MID_TOP,
    SLAB_H,
    TOP_Y,
    TRAY_W,
    TRAY_X,
    Board,
    MoveLink,
    changed_points,
    describe,
    layout_board,
    point_rect,
    point_x,
)
from backgammon.engine import BAR, OFF, Position, Side


def _layout(counts: dict[int, int]) -> tuple[int, ...]:
    cells = [0] * 25
    for point, count in counts.items():
        cells[point - 1] = count
    return tuple(cells)


def _checkers_at(board: Board, x: int, symbol: str) -> list[int]:
    return sorted(c.y for c in board.checkers if c.x == x and c.symbol == symbol)


def test_it_numbers_the_points_counter_clockwise_with_home_lower_right() -> None:
    # Point 1 is the rightmost of the lower half, 12 the leftmost; 13 upper left, 24 upper right.
    assert point_rect(1).x > point_rect(6).x > BAR_X > point_rect(7).x > point_rect(12).x
    assert point_rect(13).x < point_rect(18).x < BAR_X < point_rect(19).x < point_rect(24).x
    assert point_rect(24).y < point_rect(1).y
    assert point_x(1) == point_x(24) and point_x(12) == point_x(13)


def test_it_draws_the_starting_position_for_black() -> None:
    board = layout_board(Position.initial(), viewer=Side.BLACK)
    radius = board.radius
    # My 5 checkers on 6 sit in the lower right, stacked up from the bottom rim.
    six = _checkers_at(board, point_x(6) + 25 - radius, "mine")
    assert six == [BOTTOM_Y - 46 * n for n in range(5, 0, -1)]
    # My two back checkers on 24, top right, hang from the top rim.
    assert _checkers_at(board, point_x(24) + 25 - radius, "mine") == [TOP_Y, TOP_Y + 46]
    # The opponent's back checkers are on my 1 point, bottom right.
    assert _checkers_at(board, point_x(1) + 25 - radius, "theirs") == [BOTTOM_Y - 92, BOTTOM_Y - 46]
    assert len([c for c in board.checkers if c.symbol == "mine"]) == 15


def test_it_mirrors_the_same_game_for_each_viewer() -> None:
    # White has hit a Black blot: Black has a checker on the bar, White has escaped one back checker.
    black_view = Position(
        _layout({13: 5, 8: 3, 6: 5, 25: 1, 24: 1}), _layout({24: 1, 20: 1, 13: 5, 8: 3, 6: 5})
    )
    white_view = black_view.swapped()
    as_black = layout_board(black_view, viewer=Side.BLACK)
    as_white = layout_board(white_view, viewer=Side.WHITE)
    bar_x = BAR_X + BAR_W // 2 - 23
    mine_black = {(c.x, c.y) for c in as_black.checkers if c.symbol == "mine" and c.x != bar_x}
    theirs_white = {(c.x, c.y) for c in as_white.checkers if c.symbol == "theirs" and c.x != bar_x}
    # Black's point p is White's point 25 - p: the same column, reflected between top and bottom
    # (a top checker's y plus its bottom twin's y is TOP_Y + BOTTOM_Y - 46).
    assert len(mine_black) == 14
    assert theirs_white == {(x, TOP_Y + BOTTOM_Y - 46 - y) for x, y in mine_black}
    # Black's bar checker waits on the upper half of the bar for Black, on the lower half for White.
    black_bar = [c.y for c in as_black.checkers if c.x == bar_x and c.symbol == "mine"]
    white_sees = [c.y for c in as_white.checkers if c.x == bar_x and c.symbol == "theirs"]
    assert black_bar[0] + 46 <= MID_TOP
    assert white_sees[0] >= MID_BOTTOM
    assert as_black.colours == DEFAULT_COLOURS[Side.BLACK]
    assert as_white.colours.theirs == as_black.colours.mine  # Black's checkers stay dark


def test_it_shows_a_count_on_stacks_taller_than_five() -> None:
    position = Position(_layout({6: 9, 5: 6}), _layout({24: 15}))
    board = layout_board(position, viewer=Side.BLACK)
    counts = sorted(c.count for c in board.checkers if c.count)
    assert counts == ["15", "6", "9"]
    assert len([c for c in board.checkers if c.symbol == "mine"]) == 10


def test_it_stacks_borne_off_checkers_in_the_trays_and_counts_pips() -> None:
    position = Position(_layout({1: 2}), _layout({3: 1}))
    board = layout_board(position, viewer=Side.BLACK)
    mine = [s for s in board.slabs if s.kind == "mine"]
    theirs = [s for s in board.slabs if s.kind == "theirs"]
    assert len(mine) == 13 and len(theirs) == 14
    assert min(s.y for s in mine) > max(s.y for s in theirs)
    texts = {t.text for t in board.texts}
    assert {"2 pips", "3 pips", "13 off", "14 off"} <= texts


def test_it_places_the_cube_by_owner_and_hides_it_without_one() -> None:
    centred = layout_board(Position.initial(), viewer=Side.BLACK, cube=(1, None)).cube
    mine = layout_board(Position.initial(), viewer=Side.BLACK, cube=(4, "mine")).cube
    theirs = layout_board(Position.initial(), viewer=Side.BLACK, cube=(2, "theirs")).cube
    assert centred and mine and theirs
    assert (centred.label, mine.label, theirs.label) == ("64", "4", "2")
    assert theirs.y < centred.y < mine.y
    # Centred on the bar between the halves; owned, at the inner end of the owner's tray, clear of
    # fifteen borne-off slabs stacked from the outer end.
    assert BAR_X < centred.x and centred.x + CUBE <= BAR_X + BAR_W
    assert mine.x == theirs.x >= TRAY_X and mine.x + CUBE <= TRAY_X + TRAY_W
    assert mine.y >= MID_BOTTOM and mine.y + CUBE < BOTTOM_Y - 15 * SLAB_H
    assert theirs.y + CUBE <= MID_TOP and theirs.y > TOP_Y + 15 * SLAB_H
    assert layout_board(Position.initial(), viewer=Side.BLACK).cube is None
    # A double on offer: the turned cube waits in the middle of the doubler's half.
    offered = layout_board(Position.initial(), viewer=Side.BLACK, cube=(2, "offered-theirs")).cube
    assert offered and offered.label == "2" and point_x(12) < offered.x < BAR_X


def test_it_puts_their_dice_left_and_mine_right() -> None:
    board = layout_board(
        Position.initial(), viewer=Side.BLACK, my_dice=((5, True), (3, False)), their_dice=((6, False), (6, False))
    )
    theirs = [d for d in board.dice if d.owner == "theirs"]
    mine = [d for d in board.dice if d.owner == "mine"]
    assert all(d.x + board.die_size < BAR_X for d in theirs)
    assert all(d.x > BAR_X + 60 for d in mine)
    assert [(d.value, d.used) for d in mine] == [(5, True), (3, False)]


def test_it_outlines_the_opponents_last_move() -> None:
    before = Position.initial()
    # The opponent played 13/11 13/8 (their numbering): my points 12 and 17 changed.
    their_after = _layout({24: 2, 13: 3, 11: 1, 8: 4, 6: 5})
    after = Position(before.mine, their_after)
    outlined = changed_points(before, after)
    assert outlined == frozenset({12, 14, 17})
    board = layout_board(after, viewer=Side.BLACK, last_move=outlined)
    assert [(s.x, s.kind) for s in board.last_move] == [
        (point_x(12) + 2, "last"), (point_x(14) + 2, "last"), (point_x(17) + 2, "last")
    ]


def test_it_makes_each_movable_checker_a_labelled_link() -> None:
    position = Position(_layout({25: 1, 13: 5, 6: 5, 4: 4}), _layout({24: 2, 13: 5, 8: 3, 6: 5}))
    links = [MoveLink(BAR, 22, 3, "?steps=25-22"), MoveLink(4, OFF, 6, "?steps=4-0")]
    board = layout_board(position, viewer=Side.BLACK, moves=links, steps=[(13, 8)])
    assert [m.label for m in board.moves] == [
        "enter the checker from the bar by 3 on 22",
        "bear off the checker on 4 with the 6",
    ]
    enter, bear_off = board.moves
    assert enter.area == point_rect(BAR) and enter.target == point_rect(22)
    assert bear_off.target == point_rect(OFF)
    # The ring sits on the checker that moves: the top of the stack of four on 4.
    assert bear_off.ring_y == BOTTOM_Y - 23 - 3 * 46
    assert {s.kind for s in board.steps} == {"from", "to"}


def test_it_describes_the_position_in_words() -> None:
    position = Position(_layout({25: 1, 6: 4}), _layout({1: 2}))
    text = describe(position, "Alice (Black, you)", "Bob (White)")
    assert text == (
        "Alice (Black, you): 1 on the bar, 4 on 6, 10 borne off; 49 pips. "
        "Bob (White): 2 on 24, 13 borne off; 2 pips."
    )
    board = layout_board(position, viewer=Side.BLACK, names=("Alice", "Bob"), extra_desc={"Cube": "2, Bob owns it"})
    assert board.title == "Backgammon board seen by Alice"
    assert board.desc.endswith("Cube: 2, Bob owns it.")


@override_settings(USE_THOUSAND_SEPARATOR=True, LANGUAGE_CODE="de")
def test_it_renders_numbers_without_locale_commas() -> None:
    # A German locale writes 1.5 as "1,5" and 1000 as "1.000": SVG needs plain integers.
    position = Position(_layout({6: 9}), _layout({24: 15}))
    board = layout_board(position, viewer=Side.BLACK, cube=(16, "mine"), my_dice=((6, False), (6, False)))
    with translation.override("de"):
        svg = board_svg_markup(board)
    for match in re.finditer(r'\b(?:x|y|width|height|cx|cy|r)="([^"]*)"', svg):
        assert re.fullmatch(r"-?\d+(\.\d+)?", match.group(1)), match.group(0)
    for match in re.finditer(r'points="([^"]*)"', svg):
        assert re.fullmatch(r"(\d+,\d+ ?){3}", match.group(1)), match.group(0)
    assert 'viewBox="0 0 724 604"' in svg
    assert "<desc id=\"board-desc\">Black (you): 9 on 6, 6 borne off" in svg


def test_names_and_words_in_the_markup_are_escaped() -> None:
    # Player names reach the board's title and description: they must stay text.
    position = Position(_layout({6: 5}), _layout({24: 2}))
    board = layout_board(position, viewer=Side.BLACK, names=('<script>x</script>', 'B&"o'))
    svg = board_svg_markup(board)
    assert "<script>" not in svg
    assert "&lt;script&gt;x&lt;/script&gt;" in svg
    assert "B&amp;&quot;o" in svg
    assert svg.startswith('<svg class="board" ') and svg.endswith("</svg>\n")


def test_each_look_of_the_board_is_drawn_in_its_own_colours_and_places() -> None:
    # The definitions and the playing field are kept once drawn (board_markup): boards of other
    # themes, colours, sides and settings drawn one after another must each keep their own.
    from backgammon.board_svg import BoardStyle, mirrored
    from backgammon.board_themes import THEMES

    position = Position.initial()
    for theme in THEMES.values():
        for viewer in (Side.BLACK, Side.WHITE):
            for home_left in (False, True):
                for numbers in (False, True):
                    style = BoardStyle(theme=theme, home_left=home_left, point_numbers=numbers)
                    board = layout_board(position, viewer=viewer, style=style)
                    svg = board_svg_markup(board)
                    assert f'<stop offset="0" stop-color="{theme.frame[0]}"/>' in svg
                    assert f'fill="{theme.point_dark}"' in svg and f'fill="{theme.tray}"' in svg
                    colours = DEFAULT_COLOURS[viewer]
                    assert f'r="20.8" fill="{colours.mine}" stroke="{colours.mine_rim}"' in svg
                    drawn = re.findall(r'<polygon class="point [^"]*" points="([^"]*)"', svg)
                    assert drawn == [triangle.points for triangle in board.triangles]
                    assert drawn != [triangle.points for triangle in mirrored(board).triangles]
                    first = board.triangles[0]
                    assert (f'<text class="point-number" x="{first.label_x}"' in svg) is numbers
