"""The waiting room and auto-match in the JSON API: the same services as the PLAY pages.

GET/POST /waiting-room, POST /waiting-room/{id}/join, DELETE /waiting-room/{id};
GET/PUT/DELETE /auto-match.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status
from ninja.errors import HttpError

from api import schemas
from api.challenge_json import challenge_time_control, challenge_time_limit
from backgammon.engine import find_variant
from backgammon.lobby_limits import LOBBY_TOO_FAST, lobby_write_refused
from backgammon.models import AutoMatchRequest, Challenge
from backgammon.services import (
    MATCH_VARIANTS,
    ChallengeRejected,
    OpenChallengeFilters,
    Refusal,
    auto_match_cancel,
    auto_match_of,
    auto_match_set,
    open_challenge_create,
    open_challenge_join,
    open_challenge_withdraw,
    open_challenges_for,
)

__all__ = ["router"]

router = Router(tags=["waiting room and auto-match"])

_ERRORS = schemas.ERRORS


class OpenChallengeIn(Schema):
    variant: str = Field(description="BX BP BA BN BR BS BO B9 or MP.")
    match_length: int | None = Field(None, description="BP BS BO B9 only (default 5, 9 for B9).")
    time_limit_hours: float | None = Field(None, description="Per move; the site's list, default 72.")
    time_control: schemas.TimeControl | None = Field(None, description="In place of time_limit_hours.")
    rated: bool = True
    message: str = ""
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    stake: int | None = None
    min_rating: int | None = Field(None, description="Only players rated at least this may join.")
    max_rating: int | None = Field(None, description="Only players rated at most this may join.")


class OpenChallengeOut(Schema):
    id: int
    challenger: str
    variant: str
    match_length: int = Field(description="1 for a single game, 0 for money play.")
    time_limit_hours: float = Field(description="Per move; a live offer's delay plus reserve.")
    time_control: schemas.TimeControl
    rated: bool
    message: str
    min_rating: int | None
    max_rating: int | None
    may_join: bool = Field(description="False for your own, or outside its rating range.")


class OpenChallengeList(Schema):
    challenges: list[OpenChallengeOut]


class RoomFilters(Schema):
    variant: str | None = None
    match_length: int | None = Field(None, ge=0, le=99)
    time_limit_hours: float | None = Field(None, gt=0, lt=24 * 365)
    rated: bool | None = None
    may_join: bool = Field(False, description="Only those I may join.")
    live: bool | None = Field(
        None, description="true: live offers only (listed only while their player is here); false: correspondence only.")


class GameStarted(Schema):
    game_id: int


class Done(Schema):
    detail: str


LivePresetKey = Literal["blitz", "rapid", "standard"]


class AutoMatchIn(Schema):
    """A request is for correspondence (``time_limits_hours`` and/or correspondence
    ``time_controls``) or live (live ``time_controls``, ``live_presets`` or ``live_any``), not
    both: a live request pairs only with live requests of players who are here now, at once."""

    variants: list[str] = Field(description="Variant codes you will play.", max_length=20)
    time_limits_hours: list[float] = Field(
        default_factory=list, description="Per-move limits from the site's list.", max_length=30)
    time_controls: list[schemas.TimeControl] = Field(
        default_factory=list, max_length=30,
        description="Acceptable clocks as time_control objects: correspondence ones are per-move limits "
        "from the site's list; live ones are exact clocks, whatever the match's length.")
    live_presets: list[LivePresetKey] = Field(
        default_factory=list, max_length=3,
        description="Live presets, each scaled to the match paired: Blitz 8 s + 30 s a point, Rapid 12 s + "
        "60 s a point, Standard 12 s + 120 s a point.")
    live_any: bool = Field(False, description="Any live clock (two such requests play Rapid).")
    rated: str = Field("either", description="rated, unrated or either.")
    max_games: int = Field(1, description="How many games at most (1 to 10).")


class AutoMatchOut(Schema):
    id: int
    status: str = Field(description="open, filled or cancelled.")
    variants: list[str]
    time_limits_hours: list[float]
    time_controls: list[schemas.TimeControl] = Field(
        description="The exact clocks it accepts: one per per-move limit, and its exact live clocks.")
    live_presets: list[LivePresetKey]
    live_any: bool
    live: bool = Field(description="A live request (it pairs only players who are here).")
    rated: str
    max_games: int
    game_ids: list[int]


def _written_length(challenge: Challenge) -> int:
    # As in GAME: 1 for a single game, 0 for money play.
    return challenge.match_length or (0 if find_variant(challenge.variant).money else 1)


def _refuse_if_too_fast(request: HttpRequest) -> None:
    if lobby_write_refused(request, request.auth):
        raise HttpError(429, LOBBY_TOO_FAST)


@router.get("/waiting-room", response={200: OpenChallengeList, **_ERRORS})
def waiting_room(request: HttpRequest, filters: Query[RoomFilters]) -> Any:
    """The open challenges I may see (oldest first), filtered. A live offer is listed only while
    its player is here (seen in the last minutes, as "Who is here?" counts)."""
    found = OpenChallengeFilters(
        variant=filters.variant.strip().upper() if filters.variant else None,
        match_length=None if filters.match_length is None else (
            filters.match_length if filters.match_length > 1 else 0),
        time_limit=None if filters.time_limit_hours is None else timedelta(
            seconds=round(filters.time_limit_hours * 3600)),
        rated=filters.rated,
        joinable_only=filters.may_join,
        live=filters.live,
    )
    rows = open_challenges_for(request.auth, found)
    return {"challenges": [
        {
            "id": row.challenge.pk,
            "challenger": row.challenge.challenger.get_username(),
            "variant": row.challenge.variant,
            "match_length": _written_length(row.challenge),
            "time_limit_hours": row.challenge.time_limit.total_seconds() / 3600,
            "time_control": row.challenge.time_control().to_dict(),
            "rated": row.challenge.rated,
            "message": row.challenge.message,
            "min_rating": row.challenge.min_rating,
            "max_rating": row.challenge.max_rating,
            "may_join": row.joinable,
        }
        for row in rows
    ]}


@router.post("/waiting-room", response={201: OpenChallengeOut, **_ERRORS})
def waiting_room_add(request: HttpRequest, body: OpenChallengeIn) -> Any:
    """Put an open challenge in the waiting room."""
    _refuse_if_too_fast(request)
    length = body.match_length
    if body.variant.strip().upper() not in MATCH_VARIANTS and length in (0, 1):
        length = None
    control = challenge_time_control(body.time_limit_hours, body.time_control)
    made = open_challenge_create(
        challenger=request.auth,
        variant=body.variant,
        match_length=length,
        time_limit=challenge_time_limit(body.time_limit_hours),
        rated=body.rated,
        message=body.message,
        jacoby=body.jacoby,
        beavers=body.beavers,
        automatic_doubles=body.automatic_doubles,
        stake=body.stake,
        min_rating=body.min_rating,
        max_rating=body.max_rating,
        time_control=control,
    )
    return Status(201, {
        "id": made.pk,
        "challenger": request.auth.get_username(),
        "variant": made.variant,
        "match_length": _written_length(made),
        "time_limit_hours": made.time_limit.total_seconds() / 3600,
        "time_control": made.time_control().to_dict(),
        "rated": made.rated,
        "message": made.message,
        "min_rating": made.min_rating,
        "max_rating": made.max_rating,
        "may_join": False,
    })


@router.post("/waiting-room/{challenge_id}/join", response={201: GameStarted, **_ERRORS})
def waiting_room_join(request: HttpRequest, challenge_id: int) -> Any:
    """Join an open challenge: the game starts (its creator plays Black)."""
    game = open_challenge_join(challenge_id=challenge_id, actor=request.auth)
    return Status(201, {"game_id": game.pk})


@router.delete("/waiting-room/{challenge_id}", response={200: Done, **_ERRORS})
def waiting_room_withdraw(request: HttpRequest, challenge_id: int) -> Any:
    """Withdraw my open challenge."""
    open_challenge_withdraw(challenge_id=challenge_id, actor=request.auth)
    return {"detail": "You withdrew your open challenge."}


def _auto_match_json(found: AutoMatchRequest) -> dict[str, Any]:
    return {
        "id": found.pk,
        "status": found.status,
        "variants": found.variants,
        "time_limits_hours": [seconds / 3600 for seconds in found.time_limits],
        "time_controls": [
            *({"kind": "correspondence", "per_move_s": seconds} for seconds in found.time_limits),
            *({"kind": "live", **clock} for clock in found.live_clocks),
        ],
        "live_presets": found.live_presets,
        "live_any": found.live_any,
        "live": found.is_live,
        "rated": found.rated,
        "max_games": found.max_games,
        "game_ids": sorted(game.pk for game in found.games.all()),
    }


@router.get("/auto-match", response={200: AutoMatchOut, **_ERRORS})
def auto_match(request: HttpRequest) -> Any:
    """My open auto-match request, else my latest one, with the games it started."""
    found = auto_match_of(request.auth)
    if found is None:
        raise ChallengeRejected("You have made no auto-match request", Refusal.NOT_FOUND)
    return _auto_match_json(found)


@router.put("/auto-match", response={200: AutoMatchOut, **_ERRORS})
def auto_match_put(request: HttpRequest, body: AutoMatchIn) -> Any:
    """Make or change my request; pairing runs at once (and again every few seconds)."""
    _refuse_if_too_fast(request)
    limits = [challenge_time_limit(hours) for hours in body.time_limits_hours]
    live_clocks = []
    for control in body.time_controls:
        checked = challenge_time_control(None, control)
        if checked is None:  # not reached: a given control is checked, never None
            continue
        if checked.is_live:
            live_clocks.append(checked)
        else:
            limits.append(timedelta(seconds=checked.per_move_s))
    made = auto_match_set(
        player=request.auth, variants=body.variants, time_limits=limits, rated=body.rated,
        max_games=body.max_games, live_presets=list(body.live_presets), live_clocks=live_clocks,
        live_any=body.live_any,
    )
    return _auto_match_json(made)


@router.delete("/auto-match", response={200: AutoMatchOut, **_ERRORS})
def auto_match_delete(request: HttpRequest) -> Any:
    """Cancel my open request (the games it started go on)."""
    return _auto_match_json(auto_match_cancel(player=request.auth))
