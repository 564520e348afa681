"""The replay page's content: the match stepped through decision by decision.

Step 0 is the first decision of the match; each step is one logged action other than a roll (a
play, a double, a take...), shown as gnubg shows a decision: the board before it, with the dice,
the action taken, gnubg's verdict when the analysis is done, and the Position ID, Match ID and
XGID of that moment. The last step is the final position. The states come from replaying the log
through the engine (a match is a few hundred actions: milliseconds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from backgammon.board_svg import Board, layout_board
from backgammon.engine import PerSide, Side
from backgammon.engine import match as engine_match
from backgammon.engine.actions import Action, ActionKind
from backgammon.engine.match import MatchState, Phase, apply_action
from backgammon.game_page import board_style_for, colours_for
from backgammon.models import Game
from backgammon.move_records import LoggedAction, logged_actions, messages_shown_to

from .chart import Chart, win_chart
from .marks import mark, play_mark
from .report import decision_ids, stored_summary

__all__ = ["ReplayPage", "ReplayStep", "build_replay", "replay_steps"]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One decision: the state before ``action`` (None for the final position)."""

    state: MatchState
    action: LoggedAction | None
    roll: LoggedAction | None
    """The roll this play answered, for its luck."""


def replay_steps(game: Game, logged: list[LoggedAction]) -> list[ReplayStep]:
    state = engine_match.new_match(game.rules())  # looked up here (tests patch it)
    steps: list[ReplayStep] = []
    last_roll: LoggedAction | None = None
    datas = list(game.actions.order_by("number").values_list("data", flat=True))
    for item, data in zip(logged, datas, strict=True):
        if item.kind is ActionKind.ROLL:
            last_roll = item
        else:
            roll = last_roll if item.kind is ActionKind.PLAY else None
            steps.append(ReplayStep(state, item, roll))
        state = apply_action(state, Action.from_dict(data))
    steps.append(ReplayStep(state, None, None))
    return steps


@dataclass
class ReplayPage:
    game: Game
    step: int
    last: int
    current: ReplayStep
    board: Board
    names: PerSide[str]
    doing: str
    position_id: str
    match_id: str
    xgid: str
    verdict: dict[str, Any] | None
    luck: float | None
    cube_verdict: dict[str, Any] | None
    chart: Chart | None
    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    message: str = ""
    no_double: dict[str, Any] | None = None
    """gnubg's verdict on rolling rather than doubling, before this play's roll."""

    @property
    def previous(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next(self) -> int | None:
        return self.step + 1 if self.step < self.last else None

    @property
    def player_rows(self) -> list[tuple[str, dict[str, Any]]]:
        return [(self.names[side], self.players.get(side.name.lower(), {})) for side in Side]


_DOING = {
    ActionKind.DOUBLE: "doubles",
    ActionKind.TAKE: "takes",
    ActionKind.DROP: "passes",
    ActionKind.BEAVER: "beavers",
    ActionKind.RESIGN: "offers to resign",
    ActionKind.ACCEPT_RESIGN: "accepts the resignation",
    ActionKind.REJECT_RESIGN: "rejects the resignation",
    ActionKind.TIMEOUT: "runs out of time",
}


def _doing(step: ReplayStep, names: PerSide[str]) -> str:
    item = step.action
    if item is None:
        return "The final position."
    who = names[item.actor] if item.actor is not None else "The site"
    if item.kind is ActionKind.PLAY:
        dice = step.state.dice or (0, 0)
        return f"{who} plays {max(dice)}{min(dice)}: {item.notation or 'cannot move'}."
    return f"{who} {_DOING.get(item.kind, item.kind.value)}."


def build_replay(game: Game, *, user: Any, step: int, analysis: Any) -> ReplayPage:
    logged = logged_actions(game)
    steps = replay_steps(game, logged)
    step = max(0, min(step, len(steps) - 1))
    current = steps[step]
    state = current.state
    names = PerSide(game.black.get_username(), game.white.get_username())
    side = game.side_of(user)
    viewer = Side.BLACK if side is None else side  # watchers see Black's side, as on the game page
    results = analysis.results if analysis is not None and analysis.status == "done" else {}
    entries = results.get("actions", [])
    item = current.action
    verdict = entries[item.number - 1] if item is not None and len(entries) >= item.number else None
    roll = current.roll
    luck = no_double = None
    if roll is not None and len(entries) >= roll.number:
        luck = entries[roll.number - 1].get("luck")
        no_double = entries[roll.number - 1] if "cube_error" in entries[roll.number - 1] else None
    ids = decision_ids(state)
    return ReplayPage(
        game=game, step=step, last=len(steps) - 1, current=current,
        board=_board(state, viewer, names, user),
        names=names, doing=_doing(current, names),
        position_id=ids["position_id"], match_id=ids["match_id"], xgid=ids["xgid"],
        verdict=_marked(verdict, "equity_loss") if verdict and verdict.get("kind") == "play" else None,
        luck=luck,
        cube_verdict=_marked(verdict, "cube_error") if verdict and "cube_error" in verdict else None,
        chart=win_chart(entries, current=item.number if item else len(logged)) if entries else None,
        players=stored_summary(analysis),
        # Messages are private between the two players, here as on the game page.
        message=item.message if item is not None and messages_shown_to(game, user, [item]) else "",
        no_double=_marked(no_double, "cube_error") if no_double else None,
    )


def _marked(entry: dict[str, Any], error_key: str) -> dict[str, Any]:
    """A stored verdict with gnubg's mark of it, as the API gives it."""
    return {**entry, "mark": play_mark(entry) if error_key == "equity_loss" else mark(entry.get(error_key))}


def _board(state: MatchState, viewer: Side, names: PerSide[str], user: Any) -> Board:
    """The position in the viewer's own board settings and colours (players and watchers alike)."""
    dice: tuple[tuple[int, bool], ...] = ()
    if state.phase is Phase.MOVE and state.dice is not None:
        dice = tuple((die, False) for die in state.dice)
    cube = None
    if state.rules.variant.uses_cube and not state.crawford:
        owner = state.cube_owner
        cube = (state.cube_value, None if owner is None else ("mine" if owner is viewer else "theirs"))
    return layout_board(
        state.position_for(viewer), viewer=viewer,
        names=(names[viewer], names[viewer.other]),
        colours=colours_for(user, viewer), style=board_style_for(user),
        my_dice=dice if state.turn is viewer else (), their_dice=dice if state.turn is not viewer else (),
        cube=cube,
    )
