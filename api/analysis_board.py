"""The analysis board through the API: ``GET /api/v1/analysis/position?xgid=...&dice=63`` (or
``position_id`` and ``match_id``; ``plies`` 0, the default, or 2) answers gnubg's ranked plays
for the roll and its cube decision, as the board's page shows them.

The answer comes from the worker (web processes never load gnubg) and is kept: the same position
asked again answers at once, for anyone. A new one waits up to POSITION_ANALYSIS_WAIT_SECONDS for
the worker; past that the call answers 202 with ``status`` "queued" or "running" and Retry-After,
and the same call later gives the answer. 422 for IDs that name no position in play, 429 past the
player's POSITION_ANALYSES_PER_MINUTE new positions, 503 when gnubg failed on it (asking again
queues it afresh).
"""

from __future__ import annotations

from typing import Any, Literal

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from ninja import Field, Query, Router, Schema, Status
from ninja.errors import HttpError

from analysis.models import PositionAnalysis
from analysis.position_input import BOARD_PLIES, board_state
from analysis.position_services import (
    PositionLimitReached,
    position_analysis_ask,
    position_analysis_wait,
)
from api import schemas
from backgammon.engine import EngineError, encode_xgid, state_for_analysis

__all__ = ["router"]

router = Router(tags=["analysis"])
RETRY_SECONDS = 1


class PositionQuery(Schema):
    xgid: str = Field("", description="An XGID (with or without 'XGID='), as eXtreme Gammon and gnubg write it.")
    position_id: str = Field("", description="A GNU Backgammon Position ID, with match_id in place of xgid.")
    match_id: str = Field("", description="The GNU Backgammon Match ID that goes with position_id.")
    dice: str = Field("", description="The roll to play, two digits (63); in place of the dice of the IDs.")
    plies: int = Field(0, description="gnubg's look-ahead: 0 (its net alone, at once) or 2.")
    beavers: bool = Field(False, description="With position_id: beavers are allowed (a Match ID does not say).")


class BoardPlay(Schema):
    move: str = Field(description="The play in the site's notation (24/18 13/10).")
    equity: float = Field(description="gnubg's cubeful equity after it, for the player on roll (EMG in a match).")
    plies: int = Field(description="The look-ahead this play was judged at (at 2-ply gnubg's 0-ply filter "
                                   "drops the weakest plays, which keep their 0-ply figures).")
    chances: dict[str, float] = Field(description="win, win_gammon, win_backgammon, lose, lose_gammon, lose_backgammon.")


class BoardCube(Schema):
    action: str = Field(description="gnubg's proper cube action: No double, take; Double, take; "
                                    "Double, pass; Too good to double, pass; Redouble... ; ..., beaver.")
    no_double: float
    double_take: float
    double_pass: float


class PositionOut(Schema):
    status: Literal["done", "queued", "running"]
    xgid: str = Field(description="The position as the site writes it (the key its answer is kept under).")
    plies: int
    plays: list[BoardPlay] = Field(description="Every legal play with the dice, best first; [] without dice.")
    cube: BoardCube | None = Field(description="The cube decision of the player on roll before the roll (or "
                                               "of the pending double); null where they cannot double.")


@router.get("/analysis/position", response={200: PositionOut, 202: PositionOut, **schemas.ERRORS})
def analysis_position(request: HttpRequest, response: HttpResponse, query: Query[PositionQuery]) -> Any:
    """gnubg's plays and cube decision for a position, at 0-ply or 2-ply."""
    if query.plies not in BOARD_PLIES:
        raise HttpError(422, "plies must be 0 or 2.")
    try:
        state = board_state(xgid=query.xgid, position_id=query.position_id, match_id=query.match_id,
                            dice=query.dice, beavers=query.beavers)
    except EngineError as error:
        raise HttpError(422, str(error)) from None
    try:
        analysis = position_analysis_ask(state, query.plies, user=request.auth)
    except PositionLimitReached as refusal:
        response["Retry-After"] = "60"
        return Status(429, {"detail": refusal.message})
    analysis = position_analysis_wait(analysis, settings.POSITION_ANALYSIS_WAIT_SECONDS)
    if analysis.status == PositionAnalysis.Status.FAILED:
        response["Retry-After"] = str(RETRY_SECONDS)
        return Status(503, {"detail": "GNU Backgammon could not analyse this position just now: ask again."})
    answer = {"status": analysis.status, "xgid": encode_xgid(state_for_analysis(state)), "plies": query.plies,
              "plays": [], "cube": None}
    if analysis.status != PositionAnalysis.Status.DONE:
        response["Retry-After"] = str(RETRY_SECONDS)
        return Status(202, answer)
    return {**answer, "plays": analysis.result["plays"], "cube": analysis.result["cube"]}
