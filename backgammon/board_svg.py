"""The board as the viewer sees it: every SVG coordinate computed here, the template only fills them in.

The viewer's home board is the lower right quarter and the viewer's checkers run counter-clockwise
from the upper right (their 24 point) along the top, down the left and along the bottom to their
1 point, as on ItsYourTurn. Points are numbered 1..24 for the viewer. The viewer's borne-off
checkers fill the lower tray (beside their home board) and the opponent's the upper one; on the
bar each side's checkers wait on the half next to the quarter where they must enter.

The input position is seen from the viewer (``mine`` is the viewer's side), so the view decides
who looks at the board and this module never has to swap sides. Nothing here imports Django.

>>> from backgammon.engine import Position, Side
>>> board = layout_board(Position.initial(), viewer=Side.BLACK)
>>> len(board.triangles), len(board.checkers)
(24, 30)
>>> board.view_box
'0 0 724 604'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from .board_themes import CLASSIC, HALO, Theme
from .engine.board import BAR, OFF, Position, Side

__all__ = [
    "DEFAULT_COLOURS",
    "DIE_PIPS",
    "Board",
    "BoardStyle",
    "Checker",
    "Colours",
    "Cube",
    "Die",
    "DieFace",
    "MoveLink",
    "MoveTarget",
    "Shape",
    "changed_points",
    "click_geometry",
    "describe",
    "laid_out_dice",
    "layout_board",
    "mirrored",
    "point_links",
    "point_rect",
]

# The drawing grid, in SVG user units. Integers only, so no locale can put a comma in a number.
# The frame, bar and trays are as narrow as a checker allows: the board's width is what a phone
# divides among the 12 columns of points, and a point must stay at least 24 px wide (a finger's
# target) on a 360 px screen (360 * 50 / 724 = 24.9).
POINT_W = 50
RADIUS = 23
DIAMETER = 2 * RADIUS
FRAME = 10
HALF_H = 5 * DIAMETER  # five checkers fill a point exactly
TRIANGLE_H = 214
GAP = 68  # between the top and bottom points: the dice roll here
BAR_W = 52  # a checker (46) waiting on the bar, with a margin
TRAY_W = 40
LABEL_H = 28  # the point numbers' row, above and below the frame: room for large numbers on a phone
SLAB_H = 12  # a borne-off checker seen edge-on: 15 leave room for the cube at the tray's inner end
DIE = 42
CUBE = 36
SHOWN_IN_STACK = 5

LEFT_X = FRAME  # 10: left edge of the left half
BAR_X = LEFT_X + 6 * POINT_W  # 310
RIGHT_X = BAR_X + BAR_W  # 362
TRAY_X = RIGHT_X + 6 * POINT_W + FRAME  # 672
FRAME_RIGHT = TRAY_X + TRAY_W + FRAME  # 722
WIDTH = FRAME_RIGHT + 2  # 724
TOP_Y = LABEL_H + FRAME  # 38: top edge of the playing field
MID_TOP = TOP_Y + HALF_H  # 268
MID_BOTTOM = MID_TOP + GAP  # 336
BOTTOM_Y = MID_BOTTOM + HALF_H  # 566
MID_Y = (MID_TOP + MID_BOTTOM) // 2  # 302
HEIGHT = BOTTOM_Y + FRAME + LABEL_H  # 604: the numbers' row below the frame mirrors the one above


@dataclass(frozen=True, slots=True)
class Colours:
    """Checker fill, rim and the ink for numbers written on them, for the viewer and the opponent."""

    mine: str
    mine_rim: str
    mine_ink: str
    theirs: str
    theirs_rim: str
    theirs_ink: str


_DARK = ("#2b2623", "#0d0b0a", "#f3ede0")
_LIGHT = ("#f4efe3", "#5e5442", "#2b2623")  # a dark rim: light checkers stand out on cream points
DEFAULT_COLOURS = {
    Side.BLACK: Colours(*_DARK, *_LIGHT),
    Side.WHITE: Colours(*_LIGHT, *_DARK),
}
"""Black's checkers are dark and White's light, whoever looks; keyed by the viewer's side."""


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """How a player likes boards drawn (their board settings): colours of the board, which side
    their home board is on, and whether point numbers and pip counts are written."""

    theme: Theme = CLASSIC
    home_left: bool = False
    point_numbers: bool = True
    pip_counts: bool = True


@dataclass(frozen=True, slots=True)
class MoveLink:
    """A checker the viewer may move now: clicking it plays ``die`` from ``origin`` to ``destination``."""

    origin: int
    destination: int
    die: int
    href: str


@dataclass(frozen=True, slots=True)
class Shape:
    """A rectangle (outlines, trays, hit areas): integer corner and size."""

    x: int
    y: int
    width: int
    height: int
    kind: str = ""


@dataclass(frozen=True, slots=True)
class Triangle:
    number: int
    points: str
    shade: str
    label_x: int
    label_y: int


@dataclass(frozen=True, slots=True)
class Checker:
    """One drawn checker: ``symbol`` is ``mine`` or ``theirs``; ``count`` is written on it when a
    stack is taller than shown."""

    x: int
    y: int
    symbol: str
    count: str = ""
    text_x: int = 0
    text_y: int = 0


_LOW, _MID, _HIGH = 11, 21, 31
DIE_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_MID, _MID),),
    2: ((_LOW, _LOW), (_HIGH, _HIGH)),
    3: ((_LOW, _LOW), (_MID, _MID), (_HIGH, _HIGH)),
    4: ((_LOW, _LOW), (_HIGH, _LOW), (_LOW, _HIGH), (_HIGH, _HIGH)),
    5: ((_LOW, _LOW), (_HIGH, _LOW), (_MID, _MID), (_LOW, _HIGH), (_HIGH, _HIGH)),
    6: ((_LOW, _LOW), (_HIGH, _LOW), (_LOW, _MID), (_HIGH, _MID), (_LOW, _HIGH), (_HIGH, _HIGH)),
}
"""Pip centres on a 42-unit die face."""


@dataclass(frozen=True, slots=True)
class DieFace:
    """A ``<symbol>`` for one face of one side's dice, in that side's checker colours."""

    id: str
    fill: str
    ink: str
    pips: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Die:
    x: int
    y: int
    value: int
    owner: str
    used: bool


@dataclass(frozen=True, slots=True)
class Cube:
    x: int
    y: int
    label: str
    text_x: int
    text_y: int
    where: str


@dataclass(frozen=True, slots=True)
class MoveTarget:
    """A clickable checker: the hit area, the ring on the checker that moves, and the destination
    shown while the link has the pointer or the keyboard focus."""

    href: str
    label: str
    area: Shape
    ring_x: int
    ring_y: int
    target: Shape
    origin: int = 0


@dataclass(frozen=True, slots=True)
class Text:
    x: int
    y: int
    text: str
    anchor: str = "middle"
    kind: str = ""


@dataclass(frozen=True, slots=True)
class Board:
    title: str
    desc: str
    colours: Colours
    view_box: str = f"0 0 {WIDTH} {HEIGHT}"
    width: int = WIDTH
    height: int = HEIGHT
    frame: Shape = Shape(0, LABEL_H, FRAME_RIGHT, BOTTOM_Y + FRAME - LABEL_H)
    fields: tuple[Shape, ...] = (
        Shape(LEFT_X, TOP_Y, 6 * POINT_W, BOTTOM_Y - TOP_Y),
        Shape(RIGHT_X, TOP_Y, 6 * POINT_W, BOTTOM_Y - TOP_Y),
    )
    bar: Shape = Shape(BAR_X, TOP_Y, BAR_W, BOTTOM_Y - TOP_Y)
    trays: tuple[Shape, ...] = (
        Shape(TRAY_X, TOP_Y, TRAY_W, HALF_H, "theirs"),
        Shape(TRAY_X, MID_BOTTOM, TRAY_W, HALF_H, "mine"),
    )
    triangles: tuple[Triangle, ...] = ()
    checkers: tuple[Checker, ...] = ()
    slabs: tuple[Shape, ...] = ()
    texts: tuple[Text, ...] = ()
    dice: tuple[Die, ...] = ()
    cube: Cube | None = None
    last_move: tuple[Shape, ...] = ()
    steps: tuple[Shape, ...] = ()
    moves: tuple[MoveTarget, ...] = field(default=())
    die_faces: tuple[DieFace, ...] = ()
    theme: Theme = CLASSIC
    halo: str = HALO
    point_numbers: bool = True
    home_left: bool = False
    radius: int = RADIUS
    diameter: int = DIAMETER
    die_size: int = DIE
    cube_size: int = CUBE


def point_x(point: int) -> int:
    """Left edge of the viewer's point 1..24.

    >>> point_x(1), point_x(12), point_x(13), point_x(24)
    (612, 10, 10, 612)
    """
    if point <= 6:
        return RIGHT_X + (6 - point) * POINT_W
    if point <= 12:
        return LEFT_X + (12 - point) * POINT_W
    if point <= 18:
        return LEFT_X + (point - 13) * POINT_W
    return RIGHT_X + (point - 19) * POINT_W


def is_top(point: int) -> bool:
    return point >= 13


def point_rect(point: int) -> Shape:
    """The column a point's checkers occupy; ``OFF`` is the viewer's tray, ``BAR`` their half of the bar.

    >>> point_rect(24)
    Shape(x=612, y=38, width=50, height=230, kind='')
    >>> point_rect(0).x, point_rect(0).y
    (672, 336)
    """
    if point == OFF:
        return Shape(TRAY_X, MID_BOTTOM, TRAY_W, HALF_H)
    if point == BAR:
        return Shape(BAR_X, TOP_Y, BAR_W, HALF_H)
    return Shape(point_x(point), TOP_Y if is_top(point) else MID_BOTTOM, POINT_W, HALF_H)


def _slot_y(point: int, index: int) -> int:
    """Centre height of the ``index``-th checker (0 at the rim) on a point."""
    if is_top(point):
        return TOP_Y + RADIUS + index * DIAMETER
    return BOTTOM_Y - RADIUS - index * DIAMETER


def _bar_slot_y(mine: bool, index: int) -> int:
    """My bar checkers wait on the upper half, next to the quarter where they enter; theirs below."""
    if mine:
        return MID_TOP - RADIUS - index * DIAMETER
    return MID_BOTTOM + RADIUS + index * DIAMETER


def _stack(centres: Sequence[tuple[int, int]], count: int, symbol: str) -> list[Checker]:
    shown = min(count, SHOWN_IN_STACK)
    stack = []
    for index in range(shown):
        cx, cy = centres[index]
        label = str(count) if count > SHOWN_IN_STACK and index == shown - 1 else ""
        stack.append(Checker(cx - RADIUS, cy - RADIUS, symbol, label, cx, cy + 6))
    return stack


def _point_checkers(position: Position) -> list[Checker]:
    checkers: list[Checker] = []
    for point in range(1, 25):
        mine, theirs = position.mine[point - 1], position.theirs[24 - point]
        if mine:
            checkers += _stack(_SLOT_CENTRES[point], mine, "mine")
        if theirs:
            checkers += _stack(_SLOT_CENTRES[point], theirs, "theirs")
    mine_bar, theirs_bar = position.bar()
    checkers += _stack(_BAR_CENTRES[True], mine_bar, "mine")
    checkers += _stack(_BAR_CENTRES[False], theirs_bar, "theirs")
    return checkers


# Where each shown checker of a stack sits (every board drawn places its checkers on these).
_SLOT_CENTRES = {
    point: tuple((point_x(point) + POINT_W // 2, _slot_y(point, index)) for index in range(SHOWN_IN_STACK))
    for point in range(1, 25)
}
_BAR_CENTRES = {
    mine: tuple((BAR_X + BAR_W // 2, _bar_slot_y(mine, index)) for index in range(SHOWN_IN_STACK))
    for mine in (True, False)
}


def _top_checker_y(position: Position, origin: int) -> int:
    if origin == BAR:
        return _bar_slot_y(True, min(position.bar()[0], SHOWN_IN_STACK) - 1)
    return _slot_y(origin, min(position.mine[origin - 1], SHOWN_IN_STACK) - 1)


def _triangles() -> tuple[Triangle, ...]:
    triangles = []
    for point in range(1, 25):
        left = point_x(point)
        apex_x = left + POINT_W // 2
        if is_top(point):
            base_y, apex_y, label_y = TOP_Y, TOP_Y + TRIANGLE_H, LABEL_H - 6
        else:
            base_y, apex_y, label_y = BOTTOM_Y, BOTTOM_Y - TRIANGLE_H, HEIGHT - 6
        points = f"{left},{base_y} {left + POINT_W},{base_y} {apex_x},{apex_y}"
        shade = "dark" if point % 2 else "light"
        triangles.append(Triangle(point, points, shade, apex_x, label_y))
    return tuple(triangles)


_TRIANGLES = _triangles()


def _slabs(position: Position) -> list[Shape]:
    """Borne-off checkers as slabs: mine stack up from the bottom of my tray, theirs down from the top."""
    mine_off, theirs_off = position.borne_off()
    slabs = [Shape(TRAY_X + 4, BOTTOM_Y - 3 - (i + 1) * SLAB_H, TRAY_W - 8, SLAB_H - 2, "mine") for i in range(mine_off)]
    slabs += [Shape(TRAY_X + 4, TOP_Y + 3 + i * SLAB_H, TRAY_W - 8, SLAB_H - 2, "theirs") for i in range(theirs_off)]
    return slabs


def _texts(position: Position, pip_counts: bool) -> list[Text]:
    mine_pips, theirs_pips = position.pip_count()
    mine_off, theirs_off = position.borne_off()
    tray_mid = TRAY_X + TRAY_W // 2
    texts = []
    if pip_counts:
        texts += [
            Text(FRAME_RIGHT, LABEL_H - 6, f"{theirs_pips} pips", "end", "pips"),
            Text(FRAME_RIGHT, HEIGHT - 6, f"{mine_pips} pips", "end", "pips"),
        ]
    if theirs_off:
        texts.append(Text(tray_mid, MID_TOP + 22, f"{theirs_off} off", kind="off"))
    if mine_off:
        texts.append(Text(tray_mid, MID_BOTTOM - 12, f"{mine_off} off", kind="off"))
    return texts


def laid_out_dice(my_dice: Sequence[tuple[int, bool]], their_dice: Sequence[tuple[int, bool]], *,
                  home_left: bool = False) -> tuple[Die, ...]:
    """The dice where ``layout_board`` draws them (theirs first), on a board with its home board
    on the right, or on the left (``home_left``, as ``mirrored`` moves them): what a page that
    only changes its dice needs (a pushed roll, backgammon/game_region.pushed_roll).

    >>> [(die.x, die.owner) for die in laid_out_dice([(3, False)], [(5, False), (2, True)])]
    [(113, 'theirs'), (165, 'theirs'), (491, 'mine')]
    >>> [die.x for die in laid_out_dice([(3, False)], [], home_left=True)]
    [191]
    """
    dice = tuple(_dice(their_dice, "theirs") + _dice(my_dice, "mine"))
    return tuple(replace(d, x=_flip_x(d.x, DIE)) for d in dice) if home_left else dice


def _dice(values: Sequence[tuple[int, bool]], owner: str) -> list[Die]:
    if not values:
        return []
    spacing = DIE + 10
    centre = (RIGHT_X if owner == "mine" else LEFT_X) + 3 * POINT_W
    left = centre - (len(values) * spacing - 10) // 2
    return [Die(left + i * spacing, MID_Y - DIE // 2, value, owner, used) for i, (value, used) in enumerate(values)]


def _cube(value: int, owner: str | None) -> Cube:
    """The cube: centred in the middle of the bar, between the halves; an owned cube at the inner end
    of its owner's tray (the viewer's below), clear of the borne-off slabs stacked from the outer end.

    ``offered-mine`` / ``offered-theirs``: a double on offer, the cube already turned to its new
    value in the middle of the doubler's half of the board, where their dice would be.
    """
    if owner in ("offered-mine", "offered-theirs"):
        centre = (RIGHT_X if owner == "offered-mine" else LEFT_X) + 3 * POINT_W
        x, y = centre - CUBE // 2, MID_Y - CUBE // 2
    elif owner is None:
        x, y = BAR_X + (BAR_W - CUBE) // 2, MID_Y - CUBE // 2
    else:
        x = TRAY_X + (TRAY_W - CUBE) // 2
        y = MID_BOTTOM + 4 if owner == "mine" else MID_TOP - 4 - CUBE
    label = "64" if owner is None and value == 1 else str(value)
    return Cube(x, y, label, x + CUBE // 2, y + CUBE // 2 + 7, owner or "centre")


def move_label(link: MoveLink) -> str:
    """What a screen reader says for a clickable checker.

    >>> move_label(MoveLink(13, 8, 5, ""))
    'move the checker on 13 by 5 to 8'
    >>> move_label(MoveLink(25, 22, 3, "")), move_label(MoveLink(4, 0, 6, ""))
    ('enter the checker from the bar by 3 on 22', 'bear off the checker on 4 with the 6')
    """
    if link.origin == BAR:
        return f"enter the checker from the bar by {link.die} on {link.destination}"
    if link.destination == OFF:
        return f"bear off the checker on {link.origin} with the {link.die}"
    return f"move the checker on {link.origin} by {link.die} to {link.destination}"


def _move_targets(position: Position, links: Sequence[MoveLink]) -> list[MoveTarget]:
    targets = []
    for link in links:
        area = point_rect(link.origin)
        ring_y = _top_checker_y(position, link.origin)
        targets.append(MoveTarget(link.href, move_label(link), area, area.x + area.width // 2, ring_y,
                                  point_rect(link.destination), link.origin))
    return targets


def point_links(position: Position, links: Sequence[tuple[int, str, str]]) -> tuple[MoveTarget, ...]:
    """Clickable points (the analysis board's set-up): each (point, href, label) makes the whole
    point (or the viewer's half of the bar) a link, ringed at its top checker, or where the first
    would stand on an empty point. ``replace(board, moves=...)`` puts them on a laid-out board."""
    targets = []
    for point, href, label in links:
        area = point_rect(point)
        shown = position.bar()[0] if point == BAR else position.mine[point - 1] or position.theirs[24 - point]
        slot = max(0, min(shown, SHOWN_IN_STACK) - 1)
        ring_y = _bar_slot_y(True, slot) if point == BAR else _slot_y(point, slot)
        targets.append(MoveTarget(href, label, area, area.x + area.width // 2, ring_y, area, point))
    return tuple(targets)


def changed_points(before: Position, after: Position) -> frozenset[int]:
    """The viewer's points 1..24 whose checkers changed between two positions seen by the viewer:
    ItsYourTurn outlines them to show the opponent's last move.

    >>> start = Position.initial()
    >>> after = Position(start.mine, start.theirs[:5] + (6,) + start.theirs[6:7] + (2,) + start.theirs[8:])
    >>> sorted(changed_points(start, after))
    [17, 19]
    """
    return frozenset(
        point for point in range(1, 25)
        if before.mine[point - 1] != after.mine[point - 1] or before.theirs[24 - point] != after.theirs[24 - point]
    )


def _words(on_points: Sequence[tuple[int, int]], bar: int, off: int) -> str:
    parts = [f"{count} on {point}" for point, count in on_points if count]
    if bar:
        parts.insert(0, f"{bar} on the bar")
    if off:
        parts.append(f"{off} borne off")
    return ", ".join(parts) if parts else "no checkers"


def describe(position: Position, mine: str, theirs: str) -> str:
    """The position in words, both sides' points numbered from the viewer's side.

    >>> describe(Position.initial(), "Black (you)", "White")
    'Black (you): 2 on 24, 5 on 13, 3 on 8, 5 on 6; 167 pips. White: 5 on 19, 3 on 17, 5 on 12, 2 on 1; 167 pips.'
    """
    points = range(24, 0, -1)
    mine_bar, theirs_bar = position.bar()
    mine_off, theirs_off = position.borne_off()
    mine_pips, theirs_pips = position.pip_count()
    my_words = _words([(p, position.mine[p - 1]) for p in points], mine_bar, mine_off)
    their_words = _words([(p, position.theirs[24 - p]) for p in points], theirs_bar, theirs_off)
    return f"{mine}: {my_words}; {mine_pips} pips. {theirs}: {their_words}; {theirs_pips} pips."


def layout_board(
    position: Position,
    *,
    viewer: Side,
    names: tuple[str, str] | None = None,
    colours: Colours | None = None,
    my_dice: Sequence[tuple[int, bool]] = (),
    their_dice: Sequence[tuple[int, bool]] = (),
    cube: tuple[int, str | None] | None = None,
    last_move: frozenset[int] = frozenset(),
    steps: Sequence[tuple[int, int]] = (),
    moves: Sequence[MoveLink] = (),
    extra_desc: Mapping[str, str] | None = None,
    style: BoardStyle | None = None,
) -> Board:
    """Lay out ``position`` (seen from ``viewer``: ``mine`` is the viewer's side) for drawing.

    ``names`` label (mine, theirs) in the description; dice are (value, used) pairs; ``cube`` is
    (value, owner) with owner ``"mine"``, ``"theirs"`` or None for centred (``"offered-mine"`` or
    ``"offered-theirs"`` while a double to ``value`` waits for an answer), or None for no cube;
    ``last_move`` the points to outline; ``steps`` the (origin, destination) moves made so far
    this turn, marked; ``moves`` the checkers that can be clicked now; ``style`` the viewer's
    board settings (theme, home board on the left, numbers and pip counts shown).
    """
    style = style or BoardStyle()
    mine_name, theirs_name = names or (f"{viewer.name.title()} (you)", viewer.other.name.title())
    desc = describe(position, mine_name, theirs_name)
    for label, text in (extra_desc or {}).items():
        desc += f" {label}: {text}."
    step_marks = [Shape(*_rect(point_rect(destination)), "to") for _, destination in steps]
    step_marks += [Shape(*_rect(point_rect(origin)), "from") for origin, _ in steps]
    board = Board(
        title=f"Backgammon board seen by {mine_name}",
        desc=desc,
        colours=colours or DEFAULT_COLOURS[viewer],
        triangles=_TRIANGLES,
        checkers=tuple(_point_checkers(position)),
        slabs=tuple(_slabs(position)),
        texts=tuple(_texts(position, style.pip_counts)),
        dice=laid_out_dice(my_dice, their_dice),
        cube=_cube(*cube) if cube else None,
        last_move=tuple(Shape(*_rect(point_rect(p)), "last") for p in sorted(last_move)),
        steps=tuple(step_marks),
        moves=tuple(_move_targets(position, moves)),
        die_faces=_die_faces(colours or DEFAULT_COLOURS[viewer]),
        theme=style.theme,
        point_numbers=style.point_numbers,
    )
    return mirrored(board) if style.home_left else board


@cache  # one per colour scheme and side (a few): every board drawn carries the twelve faces
def _die_faces(colours: Colours) -> tuple[DieFace, ...]:
    sides = (("mine", colours.mine, colours.mine_ink), ("theirs", colours.theirs, colours.theirs_ink))
    return tuple(DieFace(f"die-{owner}-{value}", fill, ink, pips)
                 for owner, fill, ink in sides for value, pips in DIE_PIPS.items())


def _rect(shape: Shape) -> tuple[int, int, int, int]:
    """An outline drawn just inside a region, so neighbouring outlines do not overlap."""
    return shape.x + 2, shape.y + 2, shape.width - 4, shape.height - 4


def _flip_x(x: int, width: int = 0) -> int:
    """Where something ``width`` wide starting at ``x`` starts once the board is mirrored."""
    return WIDTH - x - width


def _flip_shape(shape: Shape) -> Shape:
    return replace(shape, x=_flip_x(shape.x, shape.width))


def _flip_triangle(triangle: Triangle) -> Triangle:
    corners = (corner.split(",") for corner in triangle.points.split())
    points = " ".join(f"{_flip_x(int(x))},{y}" for x, y in corners)
    return replace(triangle, points=points, label_x=_flip_x(triangle.label_x))


_FLIPPED_ANCHOR = {"start": "end", "end": "start", "middle": "middle"}


def mirrored(board: Board) -> Board:
    """The board seen in a mirror: the viewer's home board lower left, their checkers moving
    clockwise, trays and cube swapped to the other rails. Every coordinate, hit area and label is
    moved rather than the drawing flipped, so numbers and dice still read the right way round.

    >>> board = layout_board(Position.initial(), viewer=Side.BLACK)
    >>> flipped = mirrored(board)
    >>> [t.label_x for t in flipped.triangles[:1]], [t.label_x for t in board.triangles[:1]]
    ([87], [637])
    >>> mirrored(flipped) == board
    True
    """
    cube = board.cube
    if cube is not None:
        cube = replace(cube, x=_flip_x(cube.x, CUBE), text_x=_flip_x(cube.text_x))
    return replace(
        board,
        frame=_flip_shape(board.frame),
        fields=tuple(_flip_shape(s) for s in board.fields),
        bar=_flip_shape(board.bar),
        trays=tuple(_flip_shape(s) for s in board.trays),
        triangles=tuple(_flip_triangle(t) for t in board.triangles),
        checkers=tuple(replace(c, x=_flip_x(c.x, DIAMETER), text_x=_flip_x(c.text_x)) for c in board.checkers),
        slabs=tuple(_flip_shape(s) for s in board.slabs),
        texts=tuple(replace(t, x=_flip_x(t.x), anchor=_FLIPPED_ANCHOR[t.anchor]) for t in board.texts),
        dice=tuple(replace(d, x=_flip_x(d.x, DIE)) for d in board.dice),
        cube=cube,
        last_move=tuple(_flip_shape(s) for s in board.last_move),
        steps=tuple(_flip_shape(s) for s in board.steps),
        moves=tuple(replace(m, area=_flip_shape(m.area), ring_x=_flip_x(m.ring_x), target=_flip_shape(m.target))
                    for m in board.moves),
        home_left=not board.home_left,
    )


@cache
def click_geometry(home_left: bool = False) -> dict[str, object]:
    """Where the parts a click changes are drawn, for a page that builds the turn itself
    (static/js/turn.js): each place's five checker slots ``[x, y, text_x, text_y]`` (``"1"`` ..
    ``"24"``, ``"bar"`` for the viewer's, ``"theirBar"``), each place's column ``[x, y, width,
    height]`` (``"0"`` the viewer's tray, ``"25"`` their half of the bar), the borne-off slabs,
    the pip and "off" labels ``[x, y, anchor]`` and the viewer's dice; mirrored for a board with
    the home board on the left. The same numbers ``layout_board`` draws with. Made once per
    orientation: the caller must not change it.

    >>> geometry = click_geometry()
    >>> geometry["slots"]["24"][0], geometry["places"]["24"]
    ([614, 38, 637, 67], [612, 38, 50, 230])
    >>> click_geometry(home_left=True)["slots"]["24"][0]
    [64, 38, 87, 67]
    """

    def x(value: int, width: int = 0) -> int:
        return _flip_x(value, width) if home_left else value

    def slot(cx: int, cy: int) -> list[int]:
        return [x(cx - RADIUS, DIAMETER), cy - RADIUS, x(cx), cy + 6]

    slots = {str(point): [slot(*centre) for centre in _SLOT_CENTRES[point]] for point in range(1, 25)}
    slots["bar"] = [slot(*centre) for centre in _BAR_CENTRES[True]]
    slots["theirBar"] = [slot(*centre) for centre in _BAR_CENTRES[False]]
    places = {}
    for place in range(26):
        shape = point_rect(place)
        places[str(place)] = [x(shape.x, shape.width), shape.y, shape.width, shape.height]
    slab_x = x(TRAY_X + 4, TRAY_W - 8)
    tray_mid = x(TRAY_X + TRAY_W // 2)
    end = "start" if home_left else "end"
    return {
        "slots": slots,
        "places": places,
        "slab": {"x": slab_x, "width": TRAY_W - 8, "height": SLAB_H - 2,
                 "mine": [BOTTOM_Y - 3 - (i + 1) * SLAB_H for i in range(15)],
                 "theirs": [TOP_Y + 3 + i * SLAB_H for i in range(15)]},
        "labels": {"theirPips": [x(FRAME_RIGHT), LABEL_H - 6, end], "minePips": [x(FRAME_RIGHT), HEIGHT - 6, end],
                   "theirOff": [tray_mid, MID_TOP + 22, "middle"], "mineOff": [tray_mid, MID_BOTTOM - 12, "middle"]},
        "dice": {str(count): [x(d.x, DIE) for d in _dice([(1, False)] * count, "mine")] for count in (2, 4)},
        "diceY": MID_Y - DIE // 2,
        "radius": RADIUS,
        "diameter": DIAMETER,
        "die": DIE,
    }
