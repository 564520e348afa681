"""More time through the API: POST /api/v1/games/{id}/time {"days": 1 | 3 | 7} answers the GAME.

Refusals follow the API's conventions (api.errors): an outsider or the player to act 403, a bad
number of days 422, and a game that is over (or whose clock cannot take more time, as when the
move has had all the more time one move may be given) 409, since the request is well formed but
the game's state no longer allows it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema
from ninja.errors import HttpError

from api import schemas
from api.game_json import game_json
from backgammon.models import Game
from backgammon.services import ActionRejected, Refusal
from backgammon.services.more_time import TimeCapReached, game_give_time

__all__ = ["router"]

router = Router(tags=["time"])

_ERRORS = schemas.ERRORS


class MoreTimeIn(Schema):
    # Bounded here so a wild number is refused before it reaches timedelta (which overflows).
    days: int = Field(ge=1, le=7, description="1, 3 or 7")


@router.post("/games/{game_id}/time", response={200: schemas.GameOut, **_ERRORS})
def give_time(request: HttpRequest, game_id: int, body: MoreTimeIn) -> Any:
    """Give the opponent, who must act now, 1, 3 or 7 more days on this move: at most 7 days in
    all on one move (409 beyond)."""
    user = request.auth
    try:
        game_give_time(game_id=game_id, giver=user, extra=timedelta(days=body.days))
    except ActionRejected as refusal:
        if isinstance(refusal, TimeCapReached) or (
            refusal.kind is Refusal.ILLEGAL and _clock_stopped(game_id)
        ):
            raise HttpError(409, refusal.message) from None
        raise
    game = Game.objects.select_related("black", "white", "winner").get(pk=game_id)
    return game_json(game, viewer=user)


def _clock_stopped(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id).exclude(status=Game.Status.ACTIVE, deadline__isnull=False).exists()
