"""The board's SVG markup, written from a laid-out ``Board`` (backgammon/board_svg.py).

Built here with plain string joins rather than a Django template: every game page, checker
click, roll, move and pushed update draws a board, and the template (about 150 elements, each
through the template engine's variable lookups and escaping) was a fifth of a game page's
server time. Numbers are written as plain integers, never localised: SVG wants "1000", not
"1.000". Text is escaped as the template engine would.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape

from django.utils.safestring import SafeString, mark_safe

from .board_svg import DIE, Board, Colours, Die, DieFace, Shape, Theme, Triangle

__all__ = ["board_svg_markup", "dice_markup"]


def _e(value: object) -> str:
    return escape(str(value), quote=True)


# The definitions and the playing field are the same on every board of one look (theme, colours,
# side): drawn once per look and kept, they were about half of each board's markup.
@lru_cache(maxsize=64)
def _defs(theme: Theme, colours: Colours, halo: str, die_faces: tuple[DieFace, ...]) -> str:
    out = [
        "<defs>\n",
        '  <linearGradient id="bg-wood" x1="0" y1="0" x2="1" y2="1">\n',
        (f'    <stop offset="0" stop-color="{_e(theme.frame[0])}"/><stop offset="0.45" '
        f'stop-color="{_e(theme.frame[1])}"/><stop offset="1" stop-color="{_e(theme.frame[2])}"/>\n'),
        "  </linearGradient>\n",
        '  <radialGradient id="bg-felt" cx="0.5" cy="0.5" r="0.75">\n',
        (f'    <stop offset="0" stop-color="{_e(theme.field[0])}"/><stop offset="1" '
        f'stop-color="{_e(theme.field[1])}"/>\n'),
        "  </radialGradient>\n",
        '  <radialGradient id="bg-shine" cx="0.35" cy="0.3" r="0.8">\n',
        ('    <stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="0.6" '
        'stop-color="#fff" stop-opacity="0"/>\n'),
        "  </radialGradient>\n",
    ]
    for side, fill, rim in (("mine", colours.mine, colours.mine_rim),
                            ("theirs", colours.theirs, colours.theirs_rim)):
        out += [
            f'  <symbol id="ck-{side}" viewBox="0 0 46 46">\n',
            (f'    <circle class="halo" cx="23" cy="23" r="22.2" fill="none" stroke="{_e(halo)}" '
            'stroke-width="1.6"/>\n'),
            f'    <circle cx="23" cy="23" r="20.8" fill="{_e(fill)}" stroke="{_e(rim)}" stroke-width="2"/>\n',
            (f'    <circle cx="23" cy="23" r="14" fill="none" stroke="{_e(rim)}" stroke-opacity="0.45" '
            'stroke-width="1.5"/>\n'),
            '    <circle cx="23" cy="23" r="21" fill="url(#bg-shine)"/>\n',
            "  </symbol>\n",
        ]
    out.append("  ")
    for face in die_faces:
        ink = _e(face.ink)
        pips = "".join(f'<circle cx="{cx}" cy="{cy}" r="4" fill="{ink}"/>' for cx, cy in face.pips)
        out += [
            f'<symbol id="{_e(face.id)}" viewBox="0 0 42 42">\n',
            (f'    <rect x="1" y="1" width="40" height="40" rx="7" fill="{_e(face.fill)}" stroke="#111" '
            'stroke-width="1.5"/>\n'),
            f"    {pips}\n",
            "  </symbol>\n  ",
        ]
    out.append("\n</defs>\n")
    return "".join(out)


@lru_cache(maxsize=64)
def _field(theme: Theme, frame: Shape, fields: tuple[Shape, ...], bar: Shape, trays: tuple[Shape, ...],
           triangles: tuple[Triangle, ...], point_numbers: bool) -> str:
    out = [(f'<rect class="frame" x="{frame.x}" y="{frame.y}" width="{frame.width}" '
           f'height="{frame.height}" rx="8" fill="url(#bg-wood)"/>\n')]
    for f in fields:
        out.append(f'<rect class="field" x="{f.x}" y="{f.y}" width="{f.width}" height="{f.height}" '
                   'fill="url(#bg-felt)"/>\n')
    out.append(f'<rect class="bar" x="{bar.x}" y="{bar.y}" width="{bar.width}" height="{bar.height}" '
               f'fill="{_e(theme.bar)}"/>\n')
    for t in trays:
        out.append(f'<rect class="tray tray-{_e(t.kind)}" x="{t.x}" y="{t.y}" width="{t.width}" '
                   f'height="{t.height}" rx="3" fill="{_e(theme.tray)}"/>\n')
    out.append("\n")
    dark, light = _e(theme.point_dark), _e(theme.point_light)
    for p in triangles:
        out.append(f'<polygon class="point point-{_e(p.shade)}" points="{_e(p.points)}" '
                   f'fill="{dark if p.shade == "dark" else light}" stroke="#00000033"/>\n')
        if point_numbers:
            out.append(f'<text class="point-number" x="{p.label_x}" y="{p.label_y}" '
                       f'text-anchor="middle" font-size="14" fill="#333">{p.number}</text>\n')
    out.append("\n")
    return "".join(out)


def _playing_field(board: Board) -> list[str]:
    colours = board.colours
    out = [_field(board.theme, board.frame, board.fields, board.bar, board.trays, board.triangles,
                  board.point_numbers)]
    for s in board.last_move:
        out.append(f'<rect class="outline-last" x="{s.x}" y="{s.y}" width="{s.width}" height="{s.height}" '
                   'fill="none" stroke="#2f7fe0" stroke-width="3" rx="4"/>\n')
    # The parts a click building the turn changes are groups of their own (static/js/turn.js
    # redraws them in the page from the turn's click map, as this module would).
    out.append('<g id="board-steps">')
    for s in board.steps:
        dashes = ' stroke-dasharray="6 5"' if s.kind == "from" else ""
        out.append(f'<rect class="outline-step outline-{_e(s.kind)}" x="{s.x}" y="{s.y}" width="{s.width}" '
                   f'height="{s.height}" fill="none" stroke="#e8312a" stroke-width="3" rx="4"{dashes}/>\n')
    out.append('</g>\n<g id="board-slabs">')
    for s in board.slabs:
        mine = s.kind == "mine"
        out.append(f'<rect class="slab" x="{s.x}" y="{s.y}" width="{s.width}" height="{s.height}" rx="3" '
                   f'fill="{_e(colours.mine if mine else colours.theirs)}" '
                   f'stroke="{_e(colours.mine_rim if mine else colours.theirs_rim)}"/>\n')
    out.append("</g>\n")
    return out


def _pieces(board: Board) -> list[str]:
    colours = board.colours
    size = board.diameter
    out = ['<g id="board-checkers">']
    for c in board.checkers:
        out.append(f'<use href="#ck-{_e(c.symbol)}" x="{c.x}" y="{c.y}" width="{size}" height="{size}"/>\n')
        if c.count:
            ink = colours.mine_ink if c.symbol == "mine" else colours.theirs_ink
            out.append(f'<text class="stack-count" x="{c.text_x}" y="{c.text_y}" text-anchor="middle" '
                       f'font-size="17" font-weight="bold" fill="{_e(ink)}">{_e(c.count)}</text>\n')
    out.append('</g>\n<g id="board-texts">')
    for t in board.texts:
        fill = "#f3ede0" if t.kind == "off" else "#333"
        out.append(f'<text class="label-{_e(t.kind)}" x="{t.x}" y="{t.y}" text-anchor="{_e(t.anchor)}" '
                   f'font-size="13" fill="{fill}">{_label_words(t.text, t.kind)}</text>\n')
    out.append("</g>\n")
    for owner in ("theirs", "mine"):
        out.append(f'<g id="board-dice-{owner}">{dice_markup(board.dice, owner, board.die_size)}</g>\n')
    cube = board.cube
    if cube:
        out.append(f'<g class="cube cube-{_e(cube.where)}"><rect x="{cube.x}" y="{cube.y}" '
                   f'width="{board.cube_size}" height="{board.cube_size}" rx="6" fill="#fbfaf5" '
                   'stroke="#222" stroke-width="2"/>\n'
                   f'<text x="{cube.text_x}" y="{cube.text_y}" text-anchor="middle" font-size="20" '
                   f'font-weight="bold" fill="#222">{_e(cube.label)}</text></g>\n')
    out.append("\n")
    return out


def dice_markup(dice: Iterable[Die], owner: str, size: int = DIE) -> str:
    """The content of the board's group ``board-dice-{owner}``: ``owner``'s dice among ``dice``.
    A pushed roll (backgammon/game_region.pushed_roll) puts it in the page's group as it is."""
    out = []
    for d in dice:
        if d.owner != owner:
            continue
        used_class, used_opacity = (" die-used", ' opacity="0.35"') if d.used else ("", "")
        out.append(f'<use class="die die-{_e(d.owner)}{used_class}" href="#die-{_e(d.owner)}-{d.value}" '
                   f'x="{d.x}" y="{d.y}" width="{size}" height="{size}"{used_opacity}/>\n')
    return "".join(out)


def _label_words(text: str, kind: str) -> str:
    """A pip count's word is a span of its own, which a small board leaves out (game.css): there the
    number alone fits beside the corner point's number."""
    if kind == "pips" and text.endswith(" pips"):
        return f'{_e(text[:-5])}<tspan class="pips-word"> pips</tspan>'
    return _e(text)


def _moves(board: Board) -> list[str]:
    out = ['<g id="board-moves">']
    for m in board.moves:
        href, label, area, target = _e(m.href), _e(m.label), m.area, m.target
        out.append(
            f'<a class="move" href="{href}" aria-label="{label}" hx-get="{href}" hx-push-url="true" '
            f'data-origin="{m.origin}">\n'
            f"  <title>{label}</title>\n"
            f'  <rect class="hit" x="{area.x}" y="{area.y}" width="{area.width}" height="{area.height}" '
            'fill="#fff" fill-opacity="0"/>\n'
            f'  <circle class="ring" cx="{m.ring_x}" cy="{m.ring_y}" r="{board.radius}" fill="none" '
            'stroke="#ffd23f" stroke-width="4"/>\n'
            f'  <rect class="target" opacity="0" pointer-events="none" x="{target.x}" y="{target.y}" '
            f'width="{target.width}" height="{target.height}" rx="4" fill="#ffd23f" fill-opacity="0.18" '
            'stroke="#ffd23f" stroke-width="3" stroke-dasharray="8 5"/>\n'
            "</a>\n"
        )
    out.append("</g>\n")
    return out


def board_svg_markup(board: Board) -> SafeString:
    """The whole ``<svg class="board">`` element, safe to place in a page as it is."""
    home = "left" if board.home_left else "right"
    head = [
        (f'<svg class="board" viewBox="{_e(board.view_box)}" data-theme="{_e(board.theme.key)}" '
        f'data-home="{home}" role="group" aria-roledescription="board" aria-labelledby="board-title" '
        'aria-describedby="board-desc" '
        'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">\n'),
        f'<title id="board-title">{_e(board.title)}</title>\n',
        f'<desc id="board-desc">{_e(board.desc)}</desc>\n',
    ]
    parts = [*head, _defs(board.theme, board.colours, board.halo, board.die_faces), *_playing_field(board),
             *_pieces(board), *_moves(board)]
    parts.append("</svg>\n")
    return mark_safe("".join(parts))
