"""The sample board on the "Edit game boards" page: a middle-game position drawn with the
settings being chosen, so a player sees a theme, the mirrored home board or hidden numbers before
saving them."""

from __future__ import annotations

from backgammon.board_svg import Board, BoardStyle, layout_board
from backgammon.engine import Position, Side
from backgammon.game_page import scheme_colours

__all__ = ["preview_board"]


def _layout(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    return tuple(points.get(point, 0) for point in range(1, 25)) + (bar,)


# Some of everything a board shows: a tall stack (with its count), a blot, a checker on the bar,
# both sides' dice and an owned cube.
SAMPLE = Position(
    _layout({6: 6, 5: 2, 4: 1, 8: 2, 13: 3, 24: 1}),
    _layout({6: 3, 5: 2, 4: 2, 8: 2, 13: 4, 24: 1}, bar=1),
)


def preview_board(*, style: BoardStyle, checker_scheme: str) -> Board:
    """The sample position seen by Black, in ``style`` and the checker colours ``checker_scheme``.

    >>> board = preview_board(style=BoardStyle(home_left=True), checker_scheme="orange-blue")
    >>> board.home_left, board.colours.mine
    (True, '#e69f00')
    """
    return layout_board(
        SAMPLE, viewer=Side.BLACK, names=("You", "Your opponent"),
        colours=scheme_colours(checker_scheme, Side.BLACK), style=style,
        my_dice=((6, False), (3, False)), cube=(2, "theirs"), last_move=frozenset({13, 17}),
    )
