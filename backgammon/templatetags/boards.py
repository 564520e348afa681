"""``{{ board|board_svg }}``: a laid-out board (backgammon/board_svg.py) as its SVG element."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from backgammon.board_markup import board_svg_markup
from backgammon.board_svg import Board

register = template.Library()


@register.filter
def board_svg(board: Board) -> SafeString:
    return board_svg_markup(board)
