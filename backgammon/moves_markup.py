"""The game page's moves list, one game's table at a time, written from a ``GameRecord``.

Built with string joins rather than a template, as the board is (board_markup.py): every game
region a player or watcher receives carries the current game's list, and the template's loop
(an include per game, a tag per row and cell) cost half the region's rendering time for a game
of 40-odd rows. Text is escaped as the template engine escapes it.
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe

from .move_records import GameRecord

__all__ = ["moves_record_markup"]


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def moves_record_markup(record: GameRecord, *, black: str, white: str, numbered: bool) -> SafeString:
    """One game's moves list: rows numbered like a .mat file, Black left, White right; the
    messages that came with moves on a row below theirs; ``numbered`` heads it "Game N"."""
    out: list[str] = []
    if numbered:
        out.append(f"<h3>Game {_e(record.number)}</h3>\n")
    if record.opening:
        out.append(f'<p class="moves__opening">{_e(record.opening)}</p>\n')
    if record.rows:
        out.append(f'<table>\n  <thead><tr><th scope="col">#</th><th scope="col">{_e(black)}</th>'
                   f'<th scope="col">{_e(white)}</th></tr></thead>\n  <tbody>\n')
        for row in record.rows:
            cells = "".join(f"<td>{'' if cell is None else _e(cell)}</td>" for cell in row.cells)
            out.append(f"    <tr><td>{_e(row.number)}</td>{cells}</tr>\n")
            if row.has_message:
                said = "".join(f"<td>“{_e(text)}”</td>" if text else "<td></td>" for text in row.messages)
                out.append(f'    <tr class="moves__message"><td></td>{said}</tr>\n')
        out.append("  </tbody>\n</table>\n")
    if record.result:
        out.append(f'<p class="moves__result">{_e(record.result)}</p>\n')
    return mark_safe("".join(out))  # every value above went through _e
