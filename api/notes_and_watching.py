"""Private notes and watching through the API.

GET/PUT /api/v1/games/{id}/note: the caller's own note on a game they play (404 for anyone else:
a note's existence is nobody else's business). GET /api/v1/games/watch: games in progress that
nobody made private, latest activity first, a page at a time (api.api registers it, ahead of
/games/{id}).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError

from api import schemas
from backgammon.models import Game
from backgammon.services import Refusal
from backgammon.services.notes import NOTE_MAX_LENGTH, NoteRejected, game_note_save, game_note_text
from backgammon.services.watching import games_to_watch

__all__ = ["WatchList", "router", "watch_games"]

router = Router(tags=["notes and watching"])

# Every call may also meet the API's own 400 (a malformed request or a NUL) and 503 (the
# database away for a moment): the shared list documents them all.
_ERRORS = schemas.ERRORS
WATCH_PAGE_SIZE = 25


class NoteOut(Schema):
    game_id: int
    text: str = Field(description="Your private note on the game; only you ever see it.")


class NoteIn(Schema):
    text: str = Field(description=f"The whole note, at most {NOTE_MAX_LENGTH} characters; \"\" removes it.")


class WatchedGame(Schema):
    id: int
    variant: str
    match_length: int = Field(description="Points to win; 0 for a single game or money play.")
    players: dict[str, str] = Field(description='{"black": username, "white": username}')
    score: dict[str, int] = Field(description='{"black": points, "white": points}')
    last_activity: datetime


class WatchList(Schema):
    games: list[WatchedGame]
    page: int
    pages: int


class WatchFilter(Schema):
    page: int = Field(1, ge=1, le=100_000)


def _players_game(game_id: int, user: Any) -> Game:
    game = Game.objects.filter(pk=game_id).only("pk", "black_id", "white_id").first()
    if game is None or game.side_of(user) is None:
        # The same answer for "no such game" and "not yours": nobody learns who keeps notes where.
        raise HttpError(404, "There is no such game among yours.")
    return game


@router.get("/games/{game_id}/note", response={200: NoteOut, **_ERRORS})
def note(request: HttpRequest, game_id: int) -> Any:
    """Your private note on a game you play ("" if you have none)."""
    game = _players_game(game_id, request.auth)
    return {"game_id": game.pk, "text": game_note_text(game=game, author=request.auth)}


@router.put("/games/{game_id}/note", response={200: NoteOut, **_ERRORS})
def note_put(request: HttpRequest, game_id: int, body: NoteIn) -> Any:
    """Replace your private note on a game you play; too long a note is refused (422), unchanged."""
    game = _players_game(game_id, request.auth)
    try:
        text = game_note_save(game_id=game.pk, author=request.auth, text=body.text)
    except NoteRejected as refusal:
        raise HttpError(404 if refusal.kind in (Refusal.NOT_FOUND, Refusal.NOT_PLAYER) else 422,
                        refusal.message) from None
    return {"game_id": game.pk, "text": text}


def watch_games(request: HttpRequest, filters: Query[WatchFilter]) -> Any:
    """Games in progress anyone may watch (none a player made private), latest activity first."""
    pages = Paginator(games_to_watch(), WATCH_PAGE_SIZE)
    page = pages.get_page(filters.page)
    games = [
        {"id": game.pk, "variant": game.variant, "match_length": game.match_length,
         "players": {"black": game.black.get_username(), "white": game.white.get_username()},
         "score": {"black": game.score_black, "white": game.score_white}, "last_activity": game.updated_at}
        for game in page
    ]
    return {"games": games, "page": page.number, "pages": pages.num_pages}
