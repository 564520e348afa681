"""A finished game's analysis through the API, read from the same stored result as the replay page.

``POST /api/v1/games/{id}/analysis`` queues it (202 ``{"status": "queued"}``) through the page's
service (analysis.services); ``GET`` answers ANALYSIS (analysis.report). Refusals follow the
API's conventions (api.errors): 404 no such game, 403 a private game of others, 409 what the
game's state does not allow now (the analysis is already queued, running or done; the game is
not over yet), 422 a game gnubg cannot analyse (Anti-Backgammon, the race variants BR and BS, a
game aborted by the staff), and 429 past the player's share of analyses waiting or running at
once (ANALYSES_PER_PLAYER), as a message past the sending limit is.
"""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status
from ninja.errors import HttpError

from analysis.models import GameAnalysis
from analysis.report import analysis_report
from analysis.services import (
    AnalysisAlreadyAsked,
    AnalysisLimitReached,
    AnalysisNotYet,
    analysis_ask,
)
from api import schemas
from backgammon.models import Game

__all__ = ["router"]

router = Router(tags=["analysis"])

_ERRORS = schemas.ERRORS
PRIVATE = "This game is private: only its two players may see its analysis."


class AnalysisQueued(Schema):
    status: Literal["queued"]


class AnalysisPlayer(Schema):
    error_rate: float | None = Field(description="Equity lost per unforced checker play, in mEMG (gnubg's error rate).")
    pr: float | None = Field(description="Performance rating: 500 x equity lost per unforced play (XG's scale).")
    luck: float | None = Field(description="Equity the player's rolls gained over average rolls (EMG).")
    errors: int | None = Field(description="Checker plays gnubg marks bad (more than 0.06 lost).")
    blunders: int | None = Field(description="Checker plays gnubg marks very bad (more than 0.12 lost).")


class AnalysisAction(Schema):
    number: int = Field(description="The action's number in the game's log (1 is the first).")
    kind: str = Field(description="roll, play, double, take, drop, beaver, resign, accept_resign, ...")
    error: float | None = Field(description="Equity lost against gnubg's best choice (EMG); null where nothing is rated.")
    mark: Literal["doubtful", "bad", "very bad"] | None = Field(
        description="gnubg's mark: more than 0.03, 0.06 or 0.12 lost (its default thresholds).")
    best: str | None = Field(
        description="gnubg's best play in the site's notation (13/9 13/10), or its cube action: "
        "double or roll for a double (or a roll where one was possible), take, drop or beaver for an answer.")
    luck: float | None = Field(description="For a roll, what it gained over an average roll (EMG), as gnubg "
                               "rates it; null for a roll that a resignation or a timeout cut short.")
    position_id: str
    match_id: str
    xgid: str


class AnalysisOut(Schema):
    status: Literal["none", "queued", "running", "done", "failed"]
    progress: float = Field(ge=0.0, le=1.0, description="The share of the actions analysed.")
    players: dict[str, AnalysisPlayer] = Field(description="By username, when done.")
    actions: list[AnalysisAction] = Field(description="One per logged action, in order, when done.")


def _visible_game(game_id: int, user: Any) -> Game:
    game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        raise HttpError(404, "There is no such game.")
    if not game.visible_to(user):
        raise HttpError(403, PRIVATE)
    return game


@router.post("/games/{game_id}/analysis", response={202: AnalysisQueued, **_ERRORS})
def analysis_queue(request: HttpRequest, game_id: int) -> Any:
    """Queue GNU Backgammon's analysis of a finished game or match (anyone who may see it)."""
    game = _visible_game(game_id, request.auth)
    try:
        analysis_ask(game_id=game.pk, user=request.auth)
    except (AnalysisAlreadyAsked, AnalysisNotYet) as refusal:
        raise HttpError(409, refusal.message) from None
    except AnalysisLimitReached as refusal:
        raise HttpError(429, refusal.message) from None
    return Status(202, {"status": "queued"})


@router.get("/games/{game_id}/analysis", response={200: AnalysisOut, **_ERRORS})
def analysis_read(request: HttpRequest, game_id: int) -> Any:
    """The analysis: its status and progress, and when done the players' figures and gnubg's
    verdict on every action (the replay page shows the same)."""
    game = _visible_game(game_id, request.auth)
    return analysis_report(game, GameAnalysis.objects.filter(game=game).first())
