"""``{% moves_record record black white numbered %}``: one game's moves list (moves_markup.py)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from backgammon.move_records import GameRecord
from backgammon.moves_markup import moves_record_markup

register = template.Library()


@register.simple_tag
def moves_record(record: GameRecord, black: str, white: str, numbered: bool) -> SafeString:
    return moves_record_markup(record, black=black, white=white, numbered=bool(numbered))
