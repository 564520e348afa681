"""Ladders in the JSON API: list, read, create (staff), join, leave and challenge.

A ladder challenge is an ordinary challenge once made: it is accepted through
``POST /api/v1/challenges/{id}/accept`` and played with the game actions.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from api import schemas
from api.challenge_json import challenge_time_limit
from tournaments.ladders import (
    LadderConflict,
    ladder_challenge,
    ladder_create,
    ladder_join,
    ladder_leave,
)
from tournaments.models import Ladder

__all__ = ["router"]

router = Router(tags=["ladders"])

_ERRORS = schemas.ERRORS


class LadderIn(Schema):
    name: str
    variant: str
    match_length: int | None = None
    time_limit_hours: float
    members_only: bool = False
    vacation_days_cap: int | None = None


class LadderOut(Schema):
    id: int
    name: str
    variant: str
    match_length: int
    time_limit_hours: float
    members_only: bool


class LadderList(Schema):
    ladders: list[LadderOut]


class RankOut(Schema):
    rank: int
    username: str
    wins: int
    losses: int


class LadderDetail(LadderOut):
    ranks: list[RankOut]


class Created(Schema):
    id: int


class LadderChallengeIn(Schema):
    """A ladder challenge names only the opponent (the ladder sets the rest); not the
    ChallengeIn of POST /challenges: ninja files schemas by class name alone."""

    opponent: str


class ChallengeMade(Schema):
    challenge_id: int


class Done(Schema):
    detail: str


def _ladder_json(ladder: Ladder) -> dict[str, Any]:
    return {
        "id": ladder.pk,
        "name": ladder.name,
        "variant": ladder.variant,
        # As in GAME: a single game is written as a 1-point match.
        "match_length": ladder.match_length or 1,
        "time_limit_hours": ladder.time_limit.total_seconds() / 3600,
        "members_only": ladder.members_only,
    }


def _ladder(ladder_id: int) -> Ladder:
    try:
        return Ladder.objects.get(pk=ladder_id)
    except Ladder.DoesNotExist:
        raise HttpError(404, "There is no such ladder.") from None


@router.get("", response={200: LadderList, **_ERRORS})
def ladders(request: HttpRequest) -> Any:
    return {"ladders": [_ladder_json(ladder) for ladder in Ladder.objects.all()]}


@router.post("", response={201: Created, **_ERRORS})
def ladder_new(request: HttpRequest, body: LadderIn) -> Any:
    """A new ladder (staff only)."""
    ladder = ladder_create(
        staff=request.auth,
        name=body.name,
        variant=body.variant,
        match_length=body.match_length,
        time_limit=challenge_time_limit(body.time_limit_hours),
        members_only=body.members_only,
        vacation_days_cap=body.vacation_days_cap,
    )
    return Status(201, {"id": ladder.pk})


@router.get("/{ladder_id}", response={200: LadderDetail, **_ERRORS})
def ladder(request: HttpRequest, ladder_id: int) -> Any:
    """The ladder with its players, best first."""
    found = _ladder(ladder_id)
    ranks = [
        {"rank": rung.rank, "username": rung.player.get_username(), "wins": rung.wins, "losses": rung.losses}
        for rung in found.rungs.select_related("player").order_by("rank")
    ]
    return {**_ladder_json(found), "ranks": ranks}


@router.post("/{ladder_id}/join", response={200: Done, **_ERRORS})
def join(request: HttpRequest, ladder_id: int) -> Any:
    try:
        rung = ladder_join(ladder_id=ladder_id, player=request.auth)
    except LadderConflict as refusal:
        raise HttpError(409, refusal.message) from None
    return {"detail": f"You joined the ladder {rung.ladder.name} at rank {rung.rank}."}


@router.post("/{ladder_id}/leave", response={200: Done, **_ERRORS})
def leave(request: HttpRequest, ladder_id: int) -> Any:
    try:
        ladder_leave(ladder_id=ladder_id, player=request.auth)
    except LadderConflict as refusal:
        raise HttpError(409, refusal.message) from None
    return {"detail": "You left the ladder."}


@router.post("/{ladder_id}/challenge", response={201: ChallengeMade, **_ERRORS})
def challenge(request: HttpRequest, ladder_id: int, body: LadderChallengeIn) -> Any:
    """Challenge a player at most 20 places above you (accept with POST /challenges/{id}/accept)."""
    made = ladder_challenge(ladder_id=ladder_id, challenger=request.auth, opponent=body.opponent)
    return Status(201, {"challenge_id": made.pk})
