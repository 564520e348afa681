"""What someone brings to the analysis board (an XGID, or a Position ID and a Match ID, and the
dice) read to the engine's state, with one clear refusal for anything else: the page and the API
read their input here."""

from __future__ import annotations

from dataclasses import replace

from backgammon.engine import (
    InvalidIdError,
    MatchState,
    Phase,
    parse_dice,
    state_from_ids,
    state_from_xgid,
)

__all__ = ["BOARD_PLIES", "MAX_INPUT", "board_state"]

BOARD_PLIES = (0, 2)
"""0-ply (gnubg's net alone, at once) and 2-ply (two rolls of look-ahead, when asked)."""

MAX_INPUT = 100
"""The longest ID text read (an XGID has about 50 characters)."""


def board_state(*, xgid: str = "", position_id: str = "", match_id: str = "", dice: str = "",
                beavers: bool = False) -> MatchState:
    """The state named by ``xgid`` or by ``position_id`` with ``match_id``; ``dice`` (two digits,
    ``63``) sets the roll, in place of any in the IDs. InvalidIdError, saying what is wrong."""
    if any(len(text) > MAX_INPUT for text in (xgid, position_id, match_id, dice)):
        raise InvalidIdError(f"An ID has at most {MAX_INPUT} characters")
    if xgid.strip():
        if position_id.strip() or match_id.strip():
            raise InvalidIdError("Give an XGID, or a Position ID and a Match ID, not both")
        state = state_from_xgid(xgid)
    elif position_id.strip() and match_id.strip():
        state = state_from_ids(position_id, match_id, beavers=beavers)
    else:
        raise InvalidIdError("Give an XGID, or a Position ID and a Match ID")
    if not dice.strip():
        return state
    if state.phase is Phase.TAKE_OR_DROP:
        raise InvalidIdError("A double is waiting for an answer in this position: it has no dice to play")
    rolled = parse_dice(dice)
    return replace(state, phase=Phase.MOVE, dice=(max(rolled), min(rolled)))
