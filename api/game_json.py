"""GAME, the API's picture of a game: one function from the Game row, its snapshot and its log.

Everything comes from the stored snapshot (``game.state()``) and the logged rows; nothing here
replays a match or changes one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone

from backgammon.engine import PerSide, Position, Side
from backgammon.engine.match import MatchState, Phase
from backgammon.engine.notation import format_play
from backgammon.models import Game
from backgammon.move_records import GameRecord, game_records, logged_actions, messages_shown_to

__all__ = ["clock_json", "game_json", "status_word"]

_RESIGN_WORDS = {1: "single", 2: "gammon", 3: "backgammon"}


def status_word(game: Game) -> str:
    """``active`` or ``finished``; a game staff aborted is finished too (with no winner)."""
    return "active" if game.status == Game.Status.ACTIVE else "finished"


def _names(game: Game) -> PerSide[str]:
    return PerSide(game.black.get_username(), game.white.get_username())


def _viewer_side(game: Game, state: MatchState) -> Side:
    """The side the board is seen from: whoever must act, else Black."""
    if game.status == Game.Status.ACTIVE and state.actor is not None:
        return state.actor
    return Side.BLACK


def board_json(position: Position, names: PerSide[str], side: Side) -> dict[str, Any]:
    """``position`` (from ``side``'s point of view) in plain numbers, keyed by the players' names."""
    mine, theirs = position.mine, position.theirs
    # My point p is the opponent's point 25 - p (index 24 - p of their layout).
    points = [mine[p - 1] - theirs[24 - p] for p in range(1, 25)]
    me, them = names[side], names[side.other]
    bar_mine, bar_theirs = position.bar()
    off_mine, off_theirs = position.borne_off()
    return {
        "points": points,
        "bar": {me: bar_mine, them: bar_theirs},
        "off": {me: off_mine, them: off_theirs},
        "waiting": {me: position.mine_waiting, them: position.theirs_waiting},
    }


def _awaiting(game: Game, state: MatchState) -> dict[str, Any]:
    if game.status != Game.Status.ACTIVE or state.actor is None:
        return {"awaiting": None}
    phase = state.phase
    if phase is Phase.ROLL:
        return {"awaiting": "roll_or_double" if state.can_double() else "roll"}
    if phase is Phase.MOVE:
        return {"awaiting": "play"}
    if phase is Phase.TAKE_OR_DROP:
        return {"awaiting": "take_or_drop", "beaver_allowed": state.can_beaver()}
    if phase is Phase.RESIGN_OFFERED:
        return {"awaiting": "resignation", "resignation": _RESIGN_WORDS[state.resign_level]}
    return {"awaiting": None}


def _legal_plays(awaiting: str | None, state: MatchState) -> list[str]:
    if awaiting != "play":
        return []
    # A player who cannot move has one legal play: the empty one, written "".
    return [format_play(play) for play in state.legal_plays()] or [""]


def _result(game: Game, state: MatchState) -> dict[str, Any] | None:
    """The result of a match the rules ended; None while it runs or when staff ended it."""
    last = state.last_game_result
    if game.status == Game.Status.ACTIVE or state.phase is not Phase.MATCH_OVER or last is None:
        return None
    return {"points": last.points, "kind": str(last.kind)}


def _moves(records: list[GameRecord]) -> list[dict[str, Any]]:
    return [
        {
            "game": record.number,
            "opening": record.opening,
            "rows": [
                {
                    "number": row.number,
                    "black": row.cells[Side.BLACK],
                    "white": row.cells[Side.WHITE],
                    "messages": {"black": row.messages[Side.BLACK], "white": row.messages[Side.WHITE]},
                }
                for row in record.rows
            ],
            "result": record.result,
        }
        for record in records
    ]


def clock_json(game: Game, at: datetime) -> dict[str, Any] | None:
    """A live game's clock read at ``at`` (the server's instant of the answer); None by correspondence."""
    clock = game.match_clock()
    if clock is None:
        return None
    reading = clock.reading(at)
    return {
        "black_ms": reading.black,
        "white_ms": reading.white,
        "running": None if clock.running is None else clock.running.name.lower(),
        "at": at.isoformat(),
        "delay_left_ms": clock.delay_left_ms(at),
    }


def game_json(game: Game, *, viewer: Any) -> dict[str, Any]:
    """The contract's GAME for ``game`` as ``viewer`` may see it (messages only for its players)."""
    state = game.state()
    names = _names(game)
    side = _viewer_side(game, state)
    awaiting = _awaiting(game, state)
    actor = state.actor if game.status == Game.Status.ACTIVE else None
    cube_owner = state.cube_owner
    logged = logged_actions(game)
    records = game_records(
        logged, names,
        counts_gammons=state.rules.variant.counts_gammons,
        with_messages=messages_shown_to(game, viewer, logged),
    )
    return {
        "id": game.pk,
        "variant": game.variant,
        "match_length": game.match_length or (0 if state.rules.variant.money else 1),
        "players": {"black": names.black, "white": names.white},
        "score": {names.black: state.score.black, names.white: state.score.white},
        "status": status_word(game),
        "turn": None if actor is None else names[actor],
        **awaiting,
        "dice": None if state.dice is None else list(state.dice),
        "cube": {"value": state.cube_value, "owner": None if cube_owner is None else names[cube_owner]},
        "crawford": state.crawford,
        "board_side": names[side],
        "board": board_json(state.position_for(side), names, side),
        "position_id": game.position_id,
        "match_id": game.match_id,
        "action_number": game.action_count,
        "legal_plays": _legal_plays(awaiting["awaiting"], state),
        "winner": None if game.winner_id is None else game.winner.get_username(),
        "result": _result(game, state),
        "result_text": game.result,
        "game_number": state.game_number,
        "rated": game.rated,
        "deadline": None if game.deadline is None else game.deadline.isoformat(),
        "time_control": game.time_control().to_dict(),
        "clock": clock_json(game, timezone.now()),
        "moves": _moves(records),
        "mat_url": reverse("api-1:game_mat", args=[game.pk]),
    }

