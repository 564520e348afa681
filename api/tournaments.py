"""Tournaments in the JSON API: staff create them, players list, join and leave, anyone reads
the bracket or table. Tournament games are ordinary games (GET /games, POST /games/{id}/actions)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status
from ninja.errors import HttpError

from api import schemas
from backgammon.engine.clock import InvalidTimeControlError, TimeControl
from tournaments.models import Tournament, TournamentMatch
from tournaments.tournaments import (
    TournamentConflict,
    standings,
    tournament_create,
    tournament_join,
    tournament_leave,
)

__all__ = ["router", "tournament_json"]

router = Router(tags=["tournaments"])
_ERRORS = schemas.ERRORS
_LISTED = ("signup", "running", "finished")


class TournamentIn(Schema):
    name: str
    variant: str
    match_length: int | None = Field(None, description="1 or left out for the single-game variants")
    format: Literal["single_elimination", "double_elimination", "round_robin"]
    size: int
    time_limit_hours: float = 72
    rated: bool = True
    vacation_days_cap: int | None = Field(
        None, description="at most this many days of each vacation pause its games; 0: none"
    )
    time_control: schemas.TimeControl | None = Field(
        None, description="A live tournament's match clock ({\"kind\": \"live\", \"delay_s\", \"reserve_s\"}): "
        "each round's matches start together, and a player not there loses after the delay plus two "
        "minutes. Left out (or correspondence): time_limit_hours a move.")


class Created(Schema):
    id: int


class TournamentSummary(Schema):
    id: int
    name: str
    variant: str
    format: str
    size: int
    status: str
    time_control: schemas.LiveTime | None = Field(
        None, description="A live tournament's match clock; null for a correspondence tournament.")


class TournamentList(Schema):
    tournaments: list[TournamentSummary]


class MatchOut(Schema):
    round: int
    players: list[str | None]
    game_id: int | None
    winner: str | None


class Standing(Schema):
    place: int = Field(description="1 for the best; players out in the same knock-out round share a place.")
    username: str
    wins: int
    losses: int


class TournamentOut(TournamentSummary):
    players: list[str]
    matches: list[MatchOut]
    winner: str | None
    standings: list[Standing]


class StatusFilter(Schema):
    status: Literal["signup", "running", "finished"] | None = None


@contextmanager
def _conflicts_as_409() -> Iterator[None]:
    try:
        yield
    except TournamentConflict as refusal:
        raise HttpError(409, f"{refusal.message}.") from None


def _name(user: Any) -> str | None:
    return None if user is None else user.get_username()


def _summary(tournament: Tournament) -> dict[str, Any]:
    control = tournament.time_control()
    return {"id": tournament.pk, "name": tournament.name, "variant": tournament.variant,
            "format": tournament.format, "size": tournament.size, "status": tournament.status,
            "time_control": None if control is None else control.to_dict()}


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    matches = TournamentMatch.objects.filter(tournament=tournament).select_related(
        "player_a", "player_b", "winner"
    ).filter(player_a__isnull=False)
    return {
        **_summary(tournament),
        "players": [entry.player.get_username() for entry in tournament.entries.select_related("player")],
        "matches": [
            {"round": m.round, "players": [_name(m.player_a), _name(m.player_b)],
             "game_id": m.game_id, "winner": _name(m.winner)}
            for m in matches
        ],
        "winner": _name(tournament.winner),
        "standings": standings(tournament),
    }


def _found(tournament_id: int) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).select_related("winner").first()
    if found is None:
        raise HttpError(404, "There is no such tournament.")
    return found


@router.post("/tournaments", response={201: Created, **_ERRORS})
def create(request: HttpRequest, body: TournamentIn) -> Any:
    """Staff only: a new tournament open for sign-up."""
    if not getattr(request.auth, "is_staff", False):
        raise HttpError(403, "Only staff can create tournaments.")
    if not 0 < body.time_limit_hours < 24 * 365:
        raise HttpError(422, "The time limit per move is a number of hours, e.g. 24 or 72.")
    try:
        control = None if body.time_control is None else TimeControl.from_dict(body.time_control.dict())
    except InvalidTimeControlError as refusal:
        raise HttpError(422, str(refusal)) from None
    made = tournament_create(
        staff=request.auth, name=body.name, variant=body.variant, format=body.format,
        size=body.size, time_limit=timedelta(hours=body.time_limit_hours),
        match_length=body.match_length, rated=body.rated,
        vacation_days_cap=body.vacation_days_cap, time_control=control,
    )
    return Status(201, {"id": made.pk})


@router.get("/tournaments", response={200: TournamentList, **_ERRORS})
def tournaments(request: HttpRequest, filters: Query[StatusFilter]) -> Any:
    """Tournaments, the newest first; ``status`` is signup, running or finished (all when left out)."""
    query = Tournament.objects.all()
    if filters.status is not None:
        if filters.status not in _LISTED:
            raise HttpError(422, f"Ask for status 'signup', 'running' or 'finished', not {filters.status!r}.")
        query = query.filter(status=filters.status)
    return {"tournaments": [_summary(t) for t in query]}


@router.get("/tournaments/{tournament_id}", response={200: TournamentOut, **_ERRORS})
def tournament(request: HttpRequest, tournament_id: int) -> Any:
    return tournament_json(_found(tournament_id))


@router.post("/tournaments/{tournament_id}/join", response={200: TournamentOut, **_ERRORS})
def join(request: HttpRequest, tournament_id: int) -> Any:
    """Sign up; the tournament starts when this fills it."""
    with _conflicts_as_409():
        tournament_join(tournament_id=tournament_id, player=request.auth)
    return tournament_json(_found(tournament_id))


@router.post("/tournaments/{tournament_id}/leave", response={200: TournamentOut, **_ERRORS})
def leave(request: HttpRequest, tournament_id: int) -> Any:
    """Withdraw before the tournament starts."""
    with _conflicts_as_409():
        tournament_leave(tournament_id=tournament_id, player=request.auth)
    return tournament_json(_found(tournament_id))
