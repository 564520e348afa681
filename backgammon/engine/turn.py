"""Click-to-move: a turn built one checker at a time, as on ItsYourTurn.

A click on a checker moves it by the first remaining die in the order the dice are shown ("swap
dice" reverses the order); a step is offered only when the turn can still be finished as a legal
play, so a click that would strand the other die takes the other die instead. Undo is free.

>>> turn = Turn(Position.initial(), (6, 5))
>>> turn.movable()[24]
(6, 18)
>>> turn = turn.step(24).step(18)
>>> turn.is_complete(), notation_of(turn)
(True, '24/13')
>>> turn.undo().remaining_dice()
(5,)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import Position
from .errors import IllegalPlayError
from .movegen import State, search, steps, unpack
from .plays import BEAR_OFF_RULE, Move, Play, check_dice, to_board, to_position

__all__ = ["ClickMap", "ClickNode", "Turn", "click_map", "notation_of"]


Node = tuple[State, tuple[int, ...]]
"""A partial turn: its state and the dice not used yet (in ascending order)."""


@lru_cache(maxsize=256)
def _goal(position: Position, dice: tuple[int, int]) -> tuple[frozenset[Node], int, tuple[int, ...]]:
    """The partial turns that can still end in a legal play, the dice a play uses, the opponent."""
    board, opp = to_board(position)
    goal = search(board, opp, position.mine_waiting, dice)
    used = len(next(iter(goal.values())))
    pool = (dice[0],) * 4 if dice[0] == dice[1] else tuple(sorted(dice))
    memo: dict[Node, bool] = {}

    def reaches(node: Node) -> bool:
        # Explores every branch (no early exit) so that every good partial turn is recorded.
        if node not in memo:
            state, left = node
            if len(pool) - len(left) == used:
                memo[node] = state in goal
            else:
                memo[node] = False
                for die in dict.fromkeys(left):
                    rest = _without(left, die)
                    for after, _ in steps(state[0], opp, state[1], state[2], die):
                        memo[node] = reaches((after, rest)) or memo[node]
        return memo[node]

    reaches(((board, 0, position.mine_waiting), pool))
    return frozenset(node for node, good in memo.items() if good), used, tuple(opp)


class _Clicks:
    """The click rules of one roll from one position, on partial turns given as (state, the dice
    not used yet in shown order): what a click on a checker plays, and what that leaves."""

    __slots__ = ("goal", "known_steps", "opp", "used")

    def __init__(self, position: Position, dice: tuple[int, int]) -> None:
        self.goal, self.used, opp = _goal(position, _sorted(dice))
        self.opp = list(opp)
        # A click map asks for the same state's steps with a die several times over (what is
        # offered, which die a click uses, what it leaves): each is generated once.
        self.known_steps: dict[tuple[State, int], list[tuple[State, tuple[int, int, bool]]]] = {}

    def steps(self, state: State, die: int) -> list[tuple[State, tuple[int, int, bool]]]:
        key = (state, die)
        found = self.known_steps.get(key)
        if found is None:
            found = self.known_steps[key] = steps(state[0], self.opp, state[1], state[2], die)
        return found

    def completable(self, state: State, remaining: tuple[int, ...]) -> bool:
        return (state, tuple(sorted(remaining))) in self.goal

    def offers(self, state: State, remaining: tuple[int, ...]) -> dict[int, tuple[int, int]]:
        """Origin -> (die, destination) that a click on that origin plays now."""
        return {origin: (die, destination) for origin, (die, destination, _, _) in self.leads(state, remaining).items()}

    def leads(self, state: State,
              remaining: tuple[int, ...]) -> dict[int, tuple[int, int, State, tuple[int, ...]]]:
        """Origin -> (die, destination, the state after, the dice left) of what a click on that
        origin plays now."""
        leads: dict[int, tuple[int, int, State, tuple[int, ...]]] = {}
        for die in dict.fromkeys(remaining):
            rest = _without(remaining, die)
            for next_state, raw in self.steps(state, die):
                if raw[0] in leads or not self.completable(next_state, rest):
                    continue
                if raw[0] - raw[1] == die:  # the die's exact distance: no other die plays this step
                    leads[raw[0]] = (die, raw[1], next_state, rest)
                    continue
                used = self.die_for(state, remaining, raw)  # a bear-off another die may play too
                if used is None:
                    leads[raw[0]] = (die, raw[1], next_state, rest)
                else:
                    leads[raw[0]] = (used[0], raw[1], used[1], _without(remaining, used[0]))
        return leads

    def die_for(self, state: State, remaining: tuple[int, ...],
                raw: tuple[int, int, bool]) -> tuple[int, State] | None:
        # A bear-off from below the die could use either die: take the smallest that keeps the
        # turn completable, so the same steps always leave the same dice.
        distance = raw[0] - raw[1]
        for die in sorted(dict.fromkeys(remaining), key=lambda d: (d < distance, d)):
            for after, step_raw in self.steps(state, die):
                if step_raw == raw and self.completable(after, _without(remaining, die)):
                    return die, after
        return None

    def extend(self, state: State, remaining: tuple[int, ...], origin: int,
               die: int) -> tuple[Move, State, tuple[int, ...]] | None:
        """The step a click on ``origin`` plays with ``die``, and the partial turn it leaves."""
        rest = _without(remaining, die)
        for next_state, raw in self.steps(state, die):
            if raw[0] == origin and self.completable(next_state, rest):
                return Move(*raw), next_state, rest
        return None

    def complete(self, state: State, remaining: tuple[int, ...], made: int) -> bool:
        return made == self.used and self.completable(state, remaining)


# A few: what is shared is mostly one page's questions, a moment apart, and the steps a roll of
# doubles generates from a scattered position come to about 0.3 MB (128 kept came to 37 MB).
@lru_cache(maxsize=16)
def _clicks_of(position: Position, dice: tuple[int, int]) -> _Clicks:
    """The click rules of one roll (``dice`` high first: they do not depend on the order shown),
    shared by every ``Turn`` of it and its click map, with the steps each has generated. A page
    asks a turn what is movable, whether it is complete and where it stands, and draws the map:
    each question walked the same steps again with rules of its own."""
    return _Clicks(position, dice)


@dataclass(frozen=True, slots=True)
class Turn:
    """The steps made so far of one player's turn, from ``position`` with ``dice`` in shown order."""

    position: Position
    dice: tuple[int, int]
    steps: tuple[Move, ...] = ()

    def __post_init__(self) -> None:
        check_dice(self.dice)
        self._walk()  # refuses steps that are not a legal beginning of a play

    @property
    def current(self) -> Position:
        """The position after the steps made so far (mover's view)."""
        return to_position(self.position, self._walk()[0])

    def remaining_dice(self) -> tuple[int, ...]:
        """Dice values not used yet, in shown order (four entries for doubles at the start)."""
        return self._walk()[1]

    def swap_dice(self) -> Turn:
        """The same turn with the dice shown the other way round (the steps are kept)."""
        return Turn(self.position, (self.dice[1], self.dice[0]), self.steps)

    def movable(self) -> dict[int, tuple[int, int]]:
        """Origin -> (die, destination) that a click on that origin plays now."""
        return self._clicks().offers(*self._walk())

    def step(self, origin: int) -> Turn:
        """Play the checker on ``origin`` as ``movable()`` says; IllegalPlayError with the reason."""
        offer = self.movable().get(origin)
        if offer is None:
            raise IllegalPlayError(self._refusal(origin))
        return self._extend(origin, offer[0])

    def step_to(self, origin: int, destination: int) -> Turn:
        """Move the checker on ``origin`` to ``destination`` (0 = off), by one die or several."""
        for dice in self._routes():
            turn: Turn = self
            point = origin
            try:
                for die in dice:
                    turn = turn._extend(point, die)
                    point = turn.steps[-1].destination
                    if point == destination:
                        return turn
                    if point < destination or point == 0:
                        break
            except IllegalPlayError:
                continue
        raise IllegalPlayError(self._refusal(origin, destination))

    def undo(self) -> Turn:
        """The turn without its last step."""
        if not self.steps:
            raise IllegalPlayError("There is no move to undo")
        return Turn(self.position, self.dice, self.steps[:-1])

    def is_complete(self) -> bool:
        """True when the steps form a whole legal play: Submit may be offered."""
        return self._clicks().complete(*self._walk(), len(self.steps))

    def play(self) -> Play:
        """The finished play; IllegalPlayError while it is not complete."""
        if not self.is_complete():
            raise IllegalPlayError(self._unfinished())
        return Play(self.steps, self.current)

    def forced_pass_reason(self) -> str | None:
        """Why the player cannot move at all, in words; None when some checker can move."""
        if _goal(self.position, _sorted(self.dice))[1]:
            return None
        if self.position.mine[24] > self.position.mine_waiting:
            return "No legal move: every entry point is blocked"
        return "No legal move: every checker is blocked"

    # The walk from the start is cheap next to a click's round trip, and keeping no cache keeps
    # the value object plain (equal turns are equal, whatever was asked of them before).
    def _walk(self) -> tuple[State, tuple[int, ...]]:
        clicks = self._clicks()
        board, _ = to_board(self.position)
        state: State = (board, 0, self.position.mine_waiting)
        remaining: tuple[int, ...] = (self.dice[0],) * 4 if self.dice[0] == self.dice[1] else self.dice
        for move in self.steps:
            found = clicks.die_for(state, remaining, (move.origin, move.destination, move.hit))
            if found is None:
                raise IllegalPlayError(f"The move {_text(move)} is not a legal step of this turn")
            state, remaining = found[1], _without(remaining, found[0])
        if len(self.steps) > clicks.used:
            raise IllegalPlayError("That is more moves than the roll allows")
        return state, remaining

    def _clicks(self) -> _Clicks:
        return _clicks_of(self.position, _sorted(self.dice))

    def _extend(self, origin: int, die: int) -> Turn:
        extended = self._clicks().extend(*self._walk(), origin, die)
        if extended is None:
            raise IllegalPlayError(self._refusal(origin))
        return Turn(self.position, self.dice, self.steps + (extended[0],))

    def _routes(self) -> list[tuple[int, ...]]:
        remaining = self.remaining_dice()
        if len(set(remaining)) == 1:
            return [remaining]
        return [remaining, tuple(reversed(remaining))]

    def _refusal(self, origin: int, destination: int | None = None) -> str:
        state, remaining = self._walk()
        board = unpack(state[0])
        if not remaining:
            return "You have used all your dice: submit the move or undo"
        if not 1 <= origin <= 25 or not board[origin]:
            return f"You have no checker on {'the bar' if origin == 25 else f'point {origin}'}"
        if board[25] > state[2] and origin != 25:
            return "A checker on the bar must enter first"
        for die in dict.fromkeys(remaining):
            dest = origin - die
            if destination is not None and dest < destination:
                continue
            if dest >= 1 and self._clicks().opp[dest] >= 2:
                return f"Point {dest} is blocked"
            if dest <= 0 and any(board[7:]):
                return BEAR_OFF_RULE
            if dest < 0 and any(board[origin + 1:7]):
                return f"A {die} bears off from point {origin} only when no checker is higher"
        if len(set(remaining)) == 2 and self._clicks().used == 1:
            return f"You must play the higher die ({max(remaining)}) when only one die can be played"
        if destination is not None:
            return f"No die or dice you have left take a checker from {origin} to {destination}"
        return "That move would leave a die you must use unplayable: you must use as many dice as you can"

    def _unfinished(self) -> str:
        remaining = self.remaining_dice()
        return f"The turn is not finished: play your {' and '.join(map(str, remaining))} too"


@dataclass(frozen=True, slots=True)
class ClickNode:
    """A partial turn of a click map: whether it is a whole play (Submit), and for each checker
    that can be clicked, (its die, its destination, the node the click leads to)."""

    complete: bool
    clicks: dict[int, tuple[int, int, int]]
    remaining: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ClickMap:
    """Every partial turn click-to-move can reach from the start of a turn: ``nodes``, and the
    node each order of the dice starts from (``roots``: as given, then swapped; the same node for
    doubles). A page can build the turn from it without asking the server at each click: the
    rules are the ones ``Turn`` applies, on the same search.

    >>> clicks = click_map(Position.initial(), (6, 5))
    >>> start = clicks.nodes[clicks.roots[0]]
    >>> start.clicks[24][:2]
    (6, 18)
    >>> after = clicks.nodes[start.clicks[24][2]]
    >>> after.clicks[18][:2], clicks.nodes[after.clicks[18][2]].complete
    ((5, 13), True)
    """

    nodes: tuple[ClickNode, ...]
    roots: tuple[int, int]


def click_map(position: Position, dice: tuple[int, int]) -> ClickMap:
    """The click map of a roll (``dice`` in shown order) from ``position``, built once from the
    search that every ``Turn`` of this roll shares: each partial turn is a node, however many
    click orders reach it."""
    clicks = _clicks_of(position, _sorted(dice))
    board, _ = to_board(position)
    start: State = (board, 0, position.mine_waiting)
    found: dict[tuple[State, tuple[int, ...]], int] = {}
    nodes: list[ClickNode | None] = []

    def visit(state: State, remaining: tuple[int, ...], made: int) -> int:
        key = (state, remaining)
        if key in found:
            return found[key]
        index = found[key] = len(nodes)
        nodes.append(None)
        leads: dict[int, tuple[int, int, int]] = {}
        for origin, (die, destination, after, rest) in clicks.leads(state, remaining).items():
            leads[origin] = (die, destination, visit(after, rest, made + 1))
        nodes[index] = ClickNode(clicks.complete(state, remaining, made), leads, remaining)
        return index

    as_shown = (dice[0],) * 4 if dice[0] == dice[1] else dice
    first = visit(start, as_shown, 0)
    second = first if dice[0] == dice[1] else visit(start, (dice[1], dice[0]), 0)
    return ClickMap(tuple(node for node in nodes if node is not None), (first, second))


def notation_of(turn: Turn) -> str:
    """The steps so far in standard notation (for showing the move being built)."""
    from .notation import format_steps

    return format_steps(turn.steps)


def _sorted(dice: tuple[int, int]) -> tuple[int, int]:
    return (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])


def _without(remaining: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = remaining.index(die)
    return remaining[:index] + remaining[index + 1:]


def _text(move: Move) -> str:
    origin = "bar" if move.origin == 25 else str(move.origin)
    return f"{origin}/{'off' if move.destination == 0 else move.destination}"
