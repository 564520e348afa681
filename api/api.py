"""The JSON API, /api/v1/: thin endpoints that parse, call backgammon's services and answer GAME.

The OpenAPI document is at /api/v1/openapi.json and Swagger UI at /api/v1/docs (served from
django-ninja's static files, so it needs nothing the Content-Security-Policy forbids).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from django.conf import settings
from django.contrib.auth import authenticate, user_logged_in
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import NinjaAPI, Query, Schema, Status
from ninja.errors import HttpError
from ninja.openapi.docs import Swagger

from accounts.membership import member_until
from api import schemas
from api.analysis import router as analysis_router
from api.analysis_board import router as analysis_board_router
from api.auth import BearerToken, throttles
from api.bodies import NoNulJsonParser
from api.challenge_json import challenge_json, challenge_time_control, challenge_time_limit
from api.errors import install_error_handlers
from api.game_json import game_json
from api.ladders import router as ladders_router
from api.lobby import router as lobby_router
from api.messages import router as messages_router
from api.notes_and_watching import WatchList, watch_games
from api.notes_and_watching import router as notes_and_watching_router
from api.players import router as players_router
from api.push import router as push_router
from api.time import router as time_router
from api.tokens import TokenRejected, token_create
from api.tournaments import router as tournaments_router
from backgammon.action_input import SIMPLE_ACTIONS, resign_action, typed_play
from backgammon.engine.actions import Action
from backgammon.models import Challenge, Game
from backgammon.move_records import mat_text
from backgammon.services import (
    MATCH_VARIANTS,
    ActionRejected,
    Refusal,
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenge_withdraw,
    game_apply_action,
)
from backgammon.services.games import STALE_PAGE

__all__ = ["api"]

api = NinjaAPI(
    title="Gammon Turn API",
    version="1",
    description="Play backgammon from programs: read games, act, challenge. "
    "Authenticate with 'Authorization: Bearer TOKEN' (POST /api/v1/token). "
    'Every error is JSON {"detail": "..."}.',
    urls_namespace="api-1",
    auth=BearerToken(),
    throttle=throttles(),
    parser=NoNulJsonParser(),
    docs=Swagger(),
    docs_url="/docs",
    openapi_url="/openapi.json",
)
install_error_handlers(api)
api.add_router("/ladders", ladders_router)
api.add_router("", tournaments_router)
api.add_router("", time_router)
api.add_router("", lobby_router)
api.add_router("", messages_router)
api.add_router("", notes_and_watching_router)
api.add_router("", players_router)
api.add_router("", push_router)
api.add_router("", analysis_router)
api.add_router("", analysis_board_router)

_ERRORS = schemas.ERRORS
_ACTION_NAMES = {"accept": "accept_resign", "reject": "reject_resign"}
_GAME_STATUS = {"active": Q(status=Game.Status.ACTIVE), "finished": ~Q(status=Game.Status.ACTIVE)}


@api.post("/token", auth=None, response={200: schemas.TokenOut, **{
    code: schemas.Error for code in (400, 401, 422, 429, 503)}})
def token(request: HttpRequest, credentials: schemas.TokenIn) -> Any:
    """A new token for a userid and password, which expires after API_PASSWORD_TOKEN_DAYS (30
    by default; ``expires_at`` says when). Wrong passwords count towards the same lock-out as
    the log-in page (429 with Retry-After once locked out)."""
    user = authenticate(request, username=credentials.username, password=credentials.password)
    if user is None:
        # A locked-out attempt is answered by the lock-out handler (accounts.login_guard): 429.
        raise HttpError(401, "The userid or password is wrong.")
    try:
        made, secret = token_create(user=user, name=credentials.name or "API",
                                    lifetime=timedelta(days=settings.API_PASSWORD_TOKEN_DAYS))
    except TokenRejected as refusal:
        raise HttpError(422, refusal.message) from None
    # Getting a token is a log-in: it clears the lock-out's failure count and records it.
    user_logged_in.send(sender=user.__class__, request=request, user=user)
    return {"token": secret, "expires_at": made.expires_at}


@api.get("/me", response={200: schemas.Me, **_ERRORS})
def me(request: HttpRequest) -> Any:
    user = request.auth
    until = member_until(user)
    return {
        "username": user.get_username(),  # type: ignore[attr-defined]
        "membership": {"member": until is not None,
                       "until": None if until is None else timezone.localdate(until)},
    }


def _my_game(game_id: int, user: Any) -> Game:
    game = Game.objects.select_related("black", "white", "winner").filter(pk=game_id).first()
    # A private game (services.watching) is its players' alone: to anyone else it does not exist.
    if game is None or not game.visible_to(user):
        raise HttpError(404, "There is no such game.")
    return game


class GameFilter(Schema):
    status: Literal["active", "finished"] | None = None


@api.get("/games", response={200: schemas.GameList, **_ERRORS})
def games(request: HttpRequest, filters: Query[GameFilter]) -> Any:
    """My games, the newest first; ``status`` is ``active`` or ``finished`` (all when left out)."""
    user = request.auth
    query = Game.objects.filter(Q(black=user) | Q(white=user)).select_related("black", "white", "winner")
    if filters.status is not None:
        if filters.status not in _GAME_STATUS:
            raise HttpError(422, f"Ask for status 'active' or 'finished', not {filters.status!r}.")
        query = query.filter(_GAME_STATUS[filters.status])
    return {"games": [game_json(game, viewer=user) for game in query.order_by("-updated_at", "-pk")]}


# Registered before /games/{game_id}, which would otherwise take "watch" for a (bad) game id.
api.get("/games/watch", response={200: WatchList, **_ERRORS}, tags=["notes and watching"])(watch_games)


@api.get("/games/{game_id}", response={200: schemas.GameOut, **_ERRORS})
def game(request: HttpRequest, game_id: int) -> Any:
    """A game as the contract's GAME. Anyone may watch; the players' messages are theirs alone."""
    return game_json(_my_game(game_id, request.auth), viewer=request.auth)


# The file is plain text, not JSON: the document says so itself (ninja would call a str JSON).
_MAT_FILE = {"responses": {200: {
    "description": "The .mat file", "content": {"text/plain": {"schema": {"type": "string"}}}}}}


@api.get("/games/{game_id}/mat", response=_ERRORS, url_name="game_mat", openapi_extra=_MAT_FILE)
def game_mat(request: HttpRequest, game_id: int) -> HttpResponse:
    """The match so far as a .mat file (Jellyfish / GNU Backgammon), players named by userid."""
    the_game = _my_game(game_id, request.auth)
    response = HttpResponse(mat_text(the_game, site=request.get_host()), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{the_game.pk}.mat"'
    return response


def _action(body: schemas.ActionIn) -> Action:
    name = _ACTION_NAMES.get(body.action, body.action)
    if name in SIMPLE_ACTIONS:
        return SIMPLE_ACTIONS[name]()
    if name == "resign":
        return resign_action(body.level)
    if body.move is None:
        raise ActionRejected('A play needs its "move", e.g. "13/9 13/10" ("" when you cannot move).')
    return typed_play(body.move)


@api.post("/games/{game_id}/actions", response={200: schemas.GameOut, **_ERRORS})
def act(request: HttpRequest, game_id: int, body: schemas.ActionIn) -> Any:
    """Roll, double, take, drop, beaver, play, resign, or accept or reject a resignation."""
    user = request.auth
    # As on the game page: who and when are judged before what, so an outsider's or a stale
    # request gets its 403 or 409 whatever it carries (the service checks both again, locked).
    the_game = _my_game(game_id, request.auth)
    if the_game.side_of(user) is None:
        raise ActionRejected("You are not playing in this game", Refusal.NOT_PLAYER)
    if body.expected_action_number != the_game.action_count:
        raise ActionRejected(STALE_PAGE, Refusal.STALE)
    if body.action != "resign" and body.level is not None:
        raise ActionRejected('Only "resign" takes a "level".')
    if body.action != "play" and body.move is not None:
        raise ActionRejected('Only "play" takes a "move".')
    game_apply_action(game_id=game_id, actor=user, action=_action(body),
                      expected_number=body.expected_action_number, message=body.message)
    return game_json(_my_game(game_id, request.auth), viewer=user)


@api.post("/challenges", response={201: schemas.ChallengeOut, **_ERRORS})
def challenge(request: HttpRequest, body: schemas.ChallengeIn) -> Any:
    """Challenge a player; ``time_limit_hours`` and ``rated`` default to the site's (72 h, rated).
    A live ``time_control`` makes a live challenge, which expires unanswered after 2 minutes."""
    control = challenge_time_control(body.time_limit_hours, body.time_control)
    made = challenge_create(
        challenger=request.auth,
        opponent=body.opponent,
        variant=body.variant,
        match_length=_match_length(body.variant, body.match_length),
        time_limit=challenge_time_limit(body.time_limit_hours),
        rated=body.rated,
        message=body.message,
        jacoby=body.jacoby,
        beavers=body.beavers,
        automatic_doubles=body.automatic_doubles,
        stake=body.stake,
        time_control=control,
    )
    return Status(201, challenge_json(made))


def _match_length(variant: str, length: int | None) -> int | None:
    """What the service takes: GAME writes single games as 1 and money play as 0, so those
    values are accepted back and mean 'no match length'."""
    if variant.strip().upper() not in MATCH_VARIANTS and length in (0, 1):
        return None
    return length


@api.get("/challenges", response={200: schemas.ChallengeLists, **_ERRORS})
def challenges(request: HttpRequest) -> Any:
    """My pending challenges: those waiting for my answer and those I sent."""
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING).select_related(
        "challenger", "challenged"
    ).order_by("created_at", "pk")
    return {
        "incoming": [challenge_json(c) for c in pending.filter(challenged=request.auth)],
        # Open challenges (no opponent yet) are read from GET /waiting-room.
        "outgoing": [
            challenge_json(c) for c in pending.filter(challenger=request.auth, challenged__isnull=False)
        ],
    }


@api.post("/challenges/{challenge_id}/accept", response={201: schemas.Accepted, **_ERRORS})
def challenge_accepted(request: HttpRequest, challenge_id: int) -> Any:
    started = challenge_accept(challenge_id=challenge_id, actor=request.auth)
    return Status(201, {"game_id": started.pk})


@api.post("/challenges/{challenge_id}/decline", response={200: schemas.ChallengeOut, **_ERRORS})
def challenge_declined(request: HttpRequest, challenge_id: int) -> Any:
    return challenge_json(challenge_decline(challenge_id=challenge_id, actor=request.auth))


@api.post("/challenges/{challenge_id}/withdraw", response={200: schemas.ChallengeOut, **_ERRORS})
def challenge_withdrawn(request: HttpRequest, challenge_id: int) -> Any:
    return challenge_json(challenge_withdraw(challenge_id=challenge_id, actor=request.auth))


