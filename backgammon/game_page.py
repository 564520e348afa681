"""What the game page shows, worked out from a game, its log and the viewer; no HTTP here.

The turn a player is building lives in the page's URL (``?steps=13-8,8-5&swap=1``) so that
click-to-move works as plain links: the page replays those steps with the engine's ``Turn``, and
each movable checker links to the same page with one more step.

Nothing here replays the game's log: the current state is the game's stored snapshot, and each
logged row carries what the moves list needs from the states around it (services.log_facts), so
a page costs the same at action 10 as at action 1,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from backgammon.board_svg import (
    DEFAULT_COLOURS,
    Board,
    BoardStyle,
    Colours,
    MoveLink,
    changed_points,
    click_geometry,
    layout_board,
)
from backgammon.board_themes import theme_named
from backgammon.engine import BAR, OFF, EngineError, PerSide, Position, Side
from backgammon.engine.actions import ActionKind
from backgammon.engine.match import MatchState, Phase
from backgammon.engine.turn import ClickNode, Turn, click_map, notation_of
from backgammon.models import Game
from backgammon.move_records import GameRecord, LoggedAction, game_records, result_words

if TYPE_CHECKING:  # the page is worked out from what was read, and never reads (game_reads.py)
    from backgammon.game_reads import GameReads

__all__ = [
    "GamePage",
    "board_style_for",
    "build_page",
    "colours_for",
    "format_steps",
    "parse_steps",
    "scheme_colours",
    "shown_dice",
    "turn_from_url",
    "waiting_prompt",
]

MAX_STEPS = 4
TAMPERED = "Those moves do not fit this roll, so the turn starts again from the beginning"


def parse_steps(text: str) -> tuple[tuple[int, int], ...]:
    """Steps from the URL: ``origin-destination`` pairs, ``bar`` and ``off`` allowed.

    >>> parse_steps("13-8,bar-22,6-off")
    ((13, 8), (25, 22), (6, 0))
    >>> parse_steps("")
    ()
    >>> parse_steps("13-8,x")
    Traceback (most recent call last):
    ...
    ValueError: 'x' is not a move like 13-8
    """
    steps = []
    for part in filter(None, text.split(",")):
        origin, dash, destination = part.strip().partition("-")
        if not dash:
            raise ValueError(f"{part!r} is not a move like 13-8")
        steps.append((_point(origin), _point(destination)))
    if len(steps) > MAX_STEPS:
        raise ValueError("A turn has at most four moves")
    return tuple(steps)


def _point(text: str) -> int:
    names = {"bar": BAR, "off": OFF}
    if text in names:
        return names[text]
    if not text.isdigit() or not 0 <= int(text) <= BAR:
        raise ValueError(f"{text!r} is not a point")
    return int(text)


def format_steps(steps: Sequence[tuple[int, int]]) -> str:
    """The URL form of steps.

    >>> format_steps([(25, 22), (6, 0), (13, 8)])
    'bar-22,6-off,13-8'
    """
    names = {BAR: "bar", OFF: "off"}
    return ",".join(f"{names.get(o, o)}-{names.get(d, d)}" for o, d in steps)


def turn_from_url(state: MatchState, steps_text: str, swap: bool) -> tuple[Turn, str]:
    """The turn under construction, or the turn from its start and why, when the steps do not fit."""
    assert state.dice is not None, "the MOVE phase always has dice"
    dice = (state.dice[1], state.dice[0]) if swap else state.dice
    turn = Turn(state.position, dice)
    try:
        for origin, destination in parse_steps(steps_text):
            turn = turn.step_to(origin, destination)
    except (ValueError, EngineError):
        return Turn(state.position, dice), TAMPERED
    return turn, ""


# Each scheme's checkers with the names the page calls them by (the viewer's first). Rims are dark
# and the board draws a light halo round every checker, so checkers stand out on dark (red) and
# light (cream) points alike.
_SCHEMES = {
    "red-blue": (Colours("#d8432f", "#2a0d08", "#fff", "#2e5fa8", "#0f2347", "#fff"), ("Red", "Blue")),
    "brown-cream": (Colours("#6b3e1f", "#2a1506", "#f6ecd7", "#f6efdc", "#4a3a1c", "#3b1f0c"), ("Brown", "Cream")),
    # Okabe-Ito orange and blue: apart for every kind of colour blindness, and in lightness too.
    "orange-blue": (Colours("#e69f00", "#3d2a00", "#1a1200", "#00558c", "#000f1c", "#fff"), ("Orange", "Blue")),
}


def _scheme(user: Any) -> str:
    return str(getattr(getattr(user, "profile", None), "checker_colours", "black-white"))


def colours_for(user: Any, viewer: Side) -> Colours:
    """The viewer's checker colours: Black dark and White light unless the profile asks otherwise;
    the other schemes give the viewer the first colour named."""
    return scheme_colours(_scheme(user), viewer)


def scheme_colours(scheme: str, viewer: Side) -> Colours:
    """The checker colours of the scheme called ``scheme`` (accounts.CheckerColours) for ``viewer``."""
    found = _SCHEMES.get(scheme)
    return found[0] if found else DEFAULT_COLOURS[viewer]


def board_style_for(user: Any) -> BoardStyle:
    """The player's board settings (accounts' "Edit game boards"); the defaults for anyone else."""
    profile = getattr(user, "profile", None)
    if profile is None:
        return BoardStyle()
    return BoardStyle(theme=theme_named(profile.board_theme), home_left=profile.home_board_left,
                      point_numbers=profile.show_point_numbers, pip_counts=profile.show_pip_counts)


def colour_names(user: Any, viewer: Side) -> PerSide[str]:
    """What each side's checkers are called on this viewer's board: "Red" and "Blue", say."""
    found = _SCHEMES.get(_scheme(user))
    if found is None:
        return PerSide("Black", "White")
    mine, theirs = found[1]
    return PerSide(mine, theirs) if viewer is Side.BLACK else PerSide(theirs, mine)


def _side_key(side: Side) -> str:
    """"black" or "white": what the templates call a side."""
    return side.name.lower()


@dataclass
class GamePage:
    """Everything the game template shows, for one viewer at one moment of the game."""

    game: Game
    reads: GameReads
    state: MatchState
    viewer: Side
    is_player: bool
    can_act: bool
    board: Board
    turn: Turn | None = None
    swap: bool = False
    steps_text: str = ""
    notice: str = ""
    undo_steps: str | None = None
    forced_pass: str | None = None
    submit_moves: str = ""
    names: PerSide[str] = field(default_factory=lambda: PerSide("", ""))
    colour_names: PerSide[str] = field(default_factory=lambda: PerSide("Black", "White"))
    opening: str = ""
    previous_result: str = ""
    resign_levels: tuple[tuple[int, str], ...] = ()
    prompt: str = ""
    asks_before_doubling: bool = True
    confirming_double: bool = False
    asks_before_submit: bool = False
    confirming_submit: bool = False
    # What a page needs to build this turn by itself (static/js/turn.js): every partial turn the
    # clicks can reach, and where the board draws what they change. None when there is nothing
    # to click (not the viewer's move, a forced pass, the step confirming a move).
    turn_map: dict[str, Any] | None = None

    @cached_property
    def records(self) -> list[GameRecord]:
        """The current game's moves list. Only the region's side panel shows it: a page drawing the
        main column alone (a click building the turn, the answer to a roll) never works it out."""
        return game_records(self.reads.logged, self.names, counts_gammons=self.state.rules.variant.counts_gammons,
                            with_messages=self.reads.messages_shown)

    @property
    def has_earlier_games(self) -> bool:
        return self.state.game_number > 1

    @property
    def numbered_games(self) -> bool:
        """Whether the moves list heads each game with its number (a match past its first game)."""
        return self.has_earlier_games or len(self.records) > 1

    @property
    def phase(self) -> str:
        return self.state.phase.value

    # Templates get plain strings: Django looks up ``names.black`` as ``names["black"]`` first,
    # which PerSide (indexed by Side) would answer wrongly.
    @property
    def black_name(self) -> str:
        return self.names.black

    @property
    def white_name(self) -> str:
        return self.names.white

    @property
    def black_link(self) -> str:
        return self.reads.player_links.black

    @property
    def white_link(self) -> str:
        return self.reads.player_links.white

    @property
    def actor_link(self) -> str:
        """The player to act, named as a link ("" when nobody is)."""
        actor_id = self.game.actor_id
        if actor_id is None:
            return ""
        return self.reads.player_links.black if actor_id == self.game.black_id else self.reads.player_links.white

    @property
    def viewer_key(self) -> str:
        return _side_key(self.viewer)

    @property
    def player_rows(self) -> list[tuple[str, str, int, str]]:
        """Per side: its key, its player's name as a link, its score and its checkers' colour."""
        return [(_side_key(side), self.reads.player_links[side], self.state.score[side], self.colour_names[side])
                for side in Side]

    @cached_property
    def swatches(self) -> dict[str, str]:
        """Each side's checker colour as this viewer sees it, for the coloured dots beside names."""
        colours = self.board.colours
        return {self.viewer_key: colours.mine, _side_key(self.viewer.other): colours.theirs}

    @property
    def submit_notation(self) -> str:
        """The finished move in standard notation, for the step that confirms it."""
        return notation_of(self.turn) if self.turn is not None and self.submit_moves else ""

    @property
    def cube_words(self) -> str:
        return _cube_words(self.state, self.names)

    @property
    def double_to(self) -> int:
        return self.state.cube_value * 2

    @property
    def opponent_name(self) -> str:
        return self.names[self.viewer.other]

    @property
    def answers(self) -> tuple[tuple[str, str], ...]:
        """The buttons (action kind, label) answering the opponent's double or resignation, the
        plain yes first; none in any other phase."""
        if self.state.phase is Phase.TAKE_OR_DROP:
            beaver = (("beaver", "Beaver"),) if self.state.can_beaver() else ()
            return (("take", "Take"), ("drop", "Pass (drop)"), *beaver)
        if self.state.phase is Phase.RESIGN_OFFERED:
            return (("accept_resign", "Accept"), ("reject_resign", "Reject"))
        return ()


def _last_plays(logged: Sequence[LoggedAction], game_number: int) -> dict[Side, LoggedAction]:
    plays: dict[Side, LoggedAction] = {}
    for item in logged:
        if item.kind is ActionKind.PLAY and item.game_number == game_number and item.side is not None:
            plays[item.side] = item
    return plays


def _dice_pairs(dice: tuple[int, int], remaining: Sequence[int] = ()) -> tuple[tuple[int, bool], ...]:
    """Dice as (value, used) pairs: four of them for doubles, used ones first dimmed."""
    values = list(dice) * (2 if dice[0] == dice[1] else 1)
    left = list(remaining)
    pairs = []
    for value in values:
        unused = value in left
        if unused:
            left.remove(value)
        pairs.append((value, not unused))
    # Used dice go first so the dice still to play read left to right in the order they apply.
    return tuple(sorted(pairs, key=lambda pair: not pair[1]))


def _cube(state: MatchState, viewer: Side) -> tuple[int, str | None] | None:
    # In the Crawford game nobody may double: no cube on the board rather than a centred "64".
    if not state.rules.variant.uses_cube or state.crawford:
        return None
    if state.doubled_by is not None:
        return state.cube_value * 2, "offered-mine" if state.doubled_by is viewer else "offered-theirs"
    owner = state.cube_owner
    return state.cube_value, None if owner is None else ("mine" if owner is viewer else "theirs")


def build_page(
    game: Game, reads: GameReads, *, user: Any, steps_text: str = "", swap: bool = False,
    link: Any = None, confirm_double: bool = False, confirm_submit: bool = False,
) -> GamePage:
    """The page for ``user`` (spectators see Black's side), worked out from ``game`` and what was
    read for it (``game_reads.gather``) without reading anything more; ``link(steps, swap)`` makes
    a URL; ``confirm_double`` asks for the step that confirms a double, ``confirm_submit`` the one
    that confirms a finished move (for players who ask for it)."""
    logged = reads.logged
    state = game.state()
    side = game.side_of(user)
    viewer = side if side is not None else Side.BLACK
    names = PerSide(game.black.get_username(), game.white.get_username())
    can_act = side is not None and game.is_active and state.actor is side
    # The board is laid out last (_board), once the page knows what it shows.
    page = GamePage(game, reads, state, viewer, side is not None, can_act,
                    board=Board("", "", DEFAULT_COLOURS[viewer]), names=names, swap=swap)
    # Watchers see the game in their own colours too, so the names follow their scheme.
    page.colour_names = colour_names(user, viewer)
    page.opening = _opening_words(logged, state, names)
    # "The next game has started" is news only until someone acts in the new game.
    if not _acted_in_game(logged, state.game_number):
        page.previous_result = _previous_result(state, names)
    turn: Turn | None = None
    if can_act and state.phase is Phase.MOVE:
        turn, page.notice = turn_from_url(state, steps_text, swap)
        page.turn = turn
        _fill_turn(page, turn, link)
    page.resign_levels = _resign_levels(state) if can_act and state.phase in (Phase.ROLL, Phase.MOVE) else ()
    page.asks_before_doubling = getattr(getattr(user, "profile", None), "confirm_double", True)
    page.confirming_double = confirm_double and can_act and state.phase is Phase.ROLL and state.can_double()
    page.asks_before_submit = bool(getattr(getattr(user, "profile", None), "confirm_submit", False))
    page.confirming_submit = confirm_submit and bool(page.submit_moves or page.forced_pass)
    page.board = _board(page, logged, turn, link, user)
    page.prompt = _prompt(page)
    if turn is not None and link is not None and not page.forced_pass and not page.confirming_submit:
        page.turn_map = _turn_map(page, turn, link, user)
    return page


def _prompt(page: GamePage) -> str:
    """One line saying what happens now, addressed to the viewer."""
    state, names = page.state, page.names
    if state.phase is Phase.MATCH_OVER or not page.game.is_active:
        last = state.last_game_result
        if state.phase is Phase.MATCH_OVER and not state.rules.match_length and last is not None:
            return result_words(last, names, counts_gammons=state.rules.variant.counts_gammons)
        return page.game.result or "This game is over."
    actor = state.actor
    if actor is None:
        return "Rolling the opening dice."
    if not page.can_act:
        return waiting_prompt(state, names)
    return _my_prompt(page)


def waiting_prompt(state: MatchState, names: PerSide[str]) -> str:
    """The prompt of a page whose viewer waits for the player to act (``state.actor``)."""
    assert state.actor is not None
    waiting = {Phase.ROLL: "to roll or double", Phase.MOVE: "to move",
               Phase.TAKE_OR_DROP: "to take or pass the double",
               Phase.RESIGN_OFFERED: "to answer the resignation"}[state.phase]
    return f"Waiting for {names[state.actor]} {waiting}."


def _my_prompt(page: GamePage) -> str:
    state, names = page.state, page.names
    if state.phase is Phase.ROLL:
        return "Your turn: roll the dice, or double."
    if state.doubled_by is not None:
        offer = "beavers" if state.beavered else "doubles"
        return f"{names[state.doubled_by]} {offer} to {state.cube_value * 2}: take, or pass and lose {state.cube_value}."
    if state.phase is Phase.RESIGN_OFFERED:
        what = {1: "a single game", 2: "a gammon", 3: "a backgammon"}.get(state.resign_level, "the game")
        return f"{names[state.turn]} offers to resign {what}: accept or reject."
    turn = page.turn
    if turn is None:
        return ""
    rolled = roll_text(turn.dice)
    if page.forced_pass:
        return f"You rolled {rolled}: {page.forced_pass}. Submit to pass."
    if turn.is_complete():
        return COMPLETE_PROMPT
    return f"You rolled {rolled}: click a checker to move it by {_click_die(turn)}."


def roll_text(dice: tuple[int, int]) -> str:
    """A roll as players write it, the higher die first: ``6-5``, never ``5-6``."""
    return f"{max(dice)}-{min(dice)}"


def _click_die(turn: Turn) -> str:
    """The die a click plays now: the first one shown unless no checker can move by it."""
    return _click_die_words({die for die, _ in turn.movable().values()}, turn.remaining_dice())


def _click_die_words(offered: set[int], remaining: Sequence[int]) -> str:
    order = [die for die in dict.fromkeys(remaining) if die in offered]
    if len(order) > 1:
        return f"{order[0]} (by {order[1]} where it cannot move {order[0]})"
    return str(order[0]) if order else str(remaining[0])


COMPLETE_PROMPT = "Your move is complete: Submit it, or undo a step."


def _node_prompt(node: ClickNode, rolled: str) -> str:
    """What _my_prompt says at this partial turn."""
    if node.complete:
        return COMPLETE_PROMPT
    offered = {die for die, _, _ in node.clicks.values()}
    return f"You rolled {rolled}: click a checker to move it by {_click_die_words(offered, node.remaining)}."


def _turn_map(page: GamePage, turn: Turn, link: Any, user: Any) -> dict[str, Any]:
    """The turn's click map for static/js/turn.js: the partial turns (complete or not, the dice
    left, the prompt as its place in ``prompts``, and per clickable checker its die, destination
    and the partial turn it leads to), the position they start from, the page's links and how
    the board draws. A roll of doubles has hundreds of partial turns and a handful of prompts:
    written once each, the map is a third of its size with the prompt in every node."""
    state, viewer = page.state, page.viewer
    assert state.dice is not None
    clicks = click_map(state.position, state.dice)
    rolled = roll_text(state.dice)
    prompts: dict[str, int] = {}
    nodes = [[int(node.complete), list(node.remaining), prompts.setdefault(_node_prompt(node, rolled), len(prompts)),
              {str(origin): list(lead) for origin, lead in node.clicks.items()}] for node in clicks.nodes]
    position = state.position_for(viewer)
    mine_off, theirs_off = position.borne_off()
    colours, style = page.board.colours, board_style_for(user)
    colour = page.colour_names
    return {
        "base": link("", False),
        "dice": list(state.dice),
        "swap": page.swap,
        "steps": [[move.origin, move.destination] for move in turn.steps],
        "roots": list(clicks.roots),
        "nodes": nodes,
        "prompts": list(prompts),
        "mine": list(position.mine),
        "theirs": [position.theirs[24 - point] for point in range(1, 25)] + [position.theirs[24]],
        "off": [mine_off, theirs_off],
        "names": [f"{page.names[viewer]} ({colour[viewer]}, you)", f"{page.names[viewer.other]} ({colour[viewer.other]})"],
        "descExtra": f" Cube: {_cube_words(state, page.names)}." if state.rules.variant.uses_cube else "",
        "colours": {"mine": colours.mine, "mineRim": colours.mine_rim, "mineInk": colours.mine_ink,
                    "theirs": colours.theirs, "theirsRim": colours.theirs_rim, "theirsInk": colours.theirs_ink},
        "pips": style.pip_counts,
        "geometry": click_geometry(style.home_left),
    }


def _fill_turn(page: GamePage, turn: Turn, link: Any) -> None:
    steps = [(move.origin, move.destination) for move in turn.steps]
    page.steps_text = format_steps(steps)
    if steps:
        page.undo_steps = format_steps(steps[:-1])
    page.forced_pass = turn.forced_pass_reason()
    if turn.is_complete():
        page.submit_moves = page.steps_text


def _resign_levels(state: MatchState) -> tuple[tuple[int, str], ...]:
    if state.rules.variant.counts_gammons:
        return ((1, "a single game"), (2, "a gammon"), (3, "a backgammon"))
    return ((1, "the game"),)


def _opening_words(logged: Sequence[LoggedAction], state: MatchState, names: PerSide[str]) -> str:
    """Before anyone has played in this game: the opening roll, one die each, and who goes first."""
    opening = [item for item in logged if item.side is None and item.kind is ActionKind.ROLL
               and item.game_number == state.game_number]
    if not opening or _acted_in_game(logged, state.game_number) or state.phase is not Phase.MOVE:
        return ""
    black, white = opening[-1].rolled or (0, 0)
    first = names[state.turn]
    return (f"Opening roll: {names.black} {black}, {names.white} {white}. "
            f"{first} moves first with {roll_text((black, white))}.")


def _acted_in_game(logged: Sequence[LoggedAction], game_number: int) -> bool:
    """Whether anything but a roll has happened in this game (a play, a double, a resignation...)."""
    return any(item.kind is not ActionKind.ROLL and item.game_number == game_number for item in logged)


def _previous_result(state: MatchState, names: PerSide[str]) -> str:
    result = state.last_game_result
    if result is None:
        return ""
    return f"Game {result.game_number}: {result_words(result, names, counts_gammons=state.rules.variant.counts_gammons)}"


DicePairs = tuple[tuple[int, bool], ...]


def shown_dice(state: MatchState, viewer: Side, turn: Turn | None = None,
               last_play: LoggedAction | None = None) -> tuple[DicePairs, DicePairs]:
    """The (mine, theirs) dice the board shows ``viewer``, as (value, used) pairs: the turn being
    built, or the roll in play; else the dice of ``last_play``, the opponent's last play while
    it is outlined (see ``_board``)."""
    mine: DicePairs = ()
    theirs: DicePairs = ()
    if turn is not None:
        mine = _dice_pairs(turn.dice, turn.remaining_dice())
    elif state.phase is Phase.MOVE and state.dice is not None:
        current = _dice_pairs(state.dice, state.dice * (2 if state.dice[0] == state.dice[1] else 1))
        if state.turn is viewer:
            mine = current
        else:
            theirs = current
    if not theirs and last_play is not None and last_play.dice is not None:
        theirs = _dice_pairs(last_play.dice, last_play.dice * 2)
    return mine, theirs


def _board(page: GamePage, logged: Sequence[LoggedAction], turn: Turn | None, link: Any, user: Any) -> Board:
    state, viewer = page.state, page.viewer
    plays = _last_plays(logged, state.game_number)
    last, mine = plays.get(viewer.other), plays.get(viewer)
    outline: frozenset[int] = frozenset()
    # The opponent's last play is outlined until the viewer has played since (spectators see Black's side).
    if last is not None and (mine is None or mine.number < last.number):
        # No play has come since it in this game, so the board it left is the board now.
        before = Position.from_id(last.board_id)
        outline = changed_points(before.swapped() if last.side is not viewer else before, state.position_for(viewer))
    else:
        last = None
    mine_dice, their_dice = shown_dice(state, viewer, turn, last)
    position = turn.current if turn is not None else state.position_for(viewer)
    moves = []
    if turn is not None and link is not None:
        steps = [(m.origin, m.destination) for m in turn.steps]
        for origin, (die, destination) in sorted(turn.movable().items(), reverse=True):
            href = link(format_steps([*steps, (origin, destination)]), page.swap)
            moves.append(MoveLink(origin, destination, die, href))
    you = " (you)" if page.is_player else ""
    colour = page.colour_names
    names = (f"{page.names[viewer]} ({colour[viewer]}{', you' if you else ''})",
             f"{page.names[viewer.other]} ({colour[viewer.other]})")
    cube = _cube(state, viewer)
    extra = {"Cube": _cube_words(state, page.names)} if state.rules.variant.uses_cube else {}
    return layout_board(
        position, viewer=viewer, names=names, colours=colours_for(user, viewer), style=board_style_for(user),
        my_dice=mine_dice, their_dice=their_dice, cube=cube, last_move=outline,
        steps=[(m.origin, m.destination) for m in turn.steps] if turn else (), moves=moves, extra_desc=extra,
    )


def _cube_words(state: MatchState, names: PerSide[str]) -> str:
    if state.crawford:
        return "out of play: this is the Crawford game, nobody may double"
    if state.doubled_by is not None:
        return f"{state.cube_value}, {names[state.doubled_by]} offers {state.cube_value * 2}"
    if state.cube_owner is None:
        return f"{state.cube_value}, in the middle"
    return f"{state.cube_value}, owned by {names[state.cube_owner]}"
