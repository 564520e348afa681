"""People in the JSON API: public profiles, search, who is here, the buddy and ignore lists.

The same questions and list changes as the pages (accounts.people, accounts.relations).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest
from django_countries import countries
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError

from accounts.membership import is_member
from accounts.models import Relation
from accounts.people import (
    is_online,
    player_by_username,
    player_facts,
    players_here,
    players_matching,
)
from accounts.relations import RelationRefused, relation_remove, relation_set
from api import schemas
from api.ratings import player_ratings

__all__ = ["router"]

router = Router(tags=["players"])

_ERRORS = schemas.ERRORS
PAGE_SIZE = 50


class VariantRecord(Schema):
    variant: str
    won: int
    lost: int


class LadderPlace(Schema):
    ladder_id: int
    ladder: str
    rank: int


class PlayerProfile(schemas.Player):
    country: str = Field(description="ISO 3166 code, empty when not given.")
    country_name: str
    time_zone: str = Field(description="IANA name, empty when not given.")
    bio: str
    member: bool
    member_since: datetime
    last_seen: datetime | None
    online: bool = Field(description="Seen within the presence window ('Who is here?').")
    avatar_url: str | None = Field(description="Null when the player has the default avatar.")
    won: int
    lost: int
    record: list[VariantRecord]
    active_games: int = Field(description="Games in progress, counting a private game only for its players.")
    current_game_ids: list[int] = Field(description="The most recently played active games.")
    ladder_places: list[LadderPlace]


class PlayerBrief(Schema):
    username: str
    country: str
    last_seen: datetime | None
    online: bool


class PlayerPage(Schema):
    count: int
    page: int
    pages: int
    players: list[PlayerBrief]


class SearchFilter(Schema):
    q: str = Field("", max_length=20, description="Part of the userid, any case.")
    country: str = Field("", max_length=2, description="ISO 3166 code.")
    page: int = Field(1, ge=1, le=100_000)


class HerePlayer(Schema):
    username: str
    buddy: bool
    playing: int = Field(description="Active games.")
    their_turn: int = Field(description="Active games waiting for this player.")


class HereList(Schema):
    players: list[HerePlayer]


class ListedPlayer(Schema):
    username: str
    online: bool
    since: datetime = Field(description="When they went on the list.")


class ListedPlayers(Schema):
    players: list[ListedPlayer]


class Done(Schema):
    detail: str


def _brief(user: Any) -> dict[str, Any]:
    profile = user.profile
    return {
        "username": user.get_username(),
        "country": profile.country.code or "",
        "last_seen": profile.last_seen,
        "online": is_online(profile),
    }


@router.get("/players", response={200: PlayerPage, **_ERRORS})
def players(request: HttpRequest, filters: Query[SearchFilter]) -> Any:
    """Search user profiles by part of the userid and/or country, by userid, 50 a page."""
    country = filters.country.upper()
    if country and country not in countries:
        raise HttpError(422, f"{filters.country!r} is not an ISO 3166 country code.")
    found = players_matching(query=filters.q.strip(), country=country, viewer=request.auth)
    page = Paginator(found, PAGE_SIZE).get_page(filters.page)
    return {
        "count": page.paginator.count,
        "page": page.number,
        "pages": page.paginator.num_pages,
        "players": [_brief(user) for user in page.object_list],
    }


# Before /players/{username}: "here" is a reserved userid (accounts.forms.RESERVED_USERIDS).
@router.get("/players/here", response={200: HereList, **_ERRORS})
def here(request: HttpRequest) -> Any:
    """Players seen in the last minutes, your buddies first."""
    rows = players_here(request.auth)
    return {
        "players": [
            {"username": row.profile.user.get_username(), "buddy": row.is_buddy,
             "playing": row.playing, "their_turn": row.to_act}
            for row in rows
        ]
    }


@router.get("/players/{username}", response={200: PlayerProfile, **_ERRORS})
def player(request: HttpRequest, username: str) -> Any:
    """A player's public profile and ratings."""
    found = player_by_username(username)
    if found is None:
        raise HttpError(404, f"There is no player called {username!r}.")
    profile = found.profile
    facts = player_facts(found, request.auth)
    return {
        "username": found.get_username(),
        "ratings": player_ratings(found, viewer=request.auth),
        "country": profile.country.code or "",
        "country_name": profile.country.name or "",
        "time_zone": profile.time_zone,
        "bio": profile.bio,
        "member": is_member(found),
        "member_since": found.date_joined,
        "last_seen": profile.last_seen,
        "online": is_online(profile),
        "avatar_url": request.build_absolute_uri(profile.avatar.url) if profile.avatar else None,
        "won": facts.won,
        "lost": facts.lost,
        "record": facts.record,
        "active_games": facts.active_count,
        "current_game_ids": [game.pk for game in facts.current_games],
        "ladder_places": [
            {"ladder_id": rung.ladder_id, "ladder": rung.ladder.name, "rank": rung.rank}
            for rung in facts.ladder_rungs
        ],
    }


def _listed(request: HttpRequest, kind: str, username: str | None = None) -> list[dict[str, Any]]:
    relations = Relation.objects.filter(owner=request.auth, kind=kind)
    if username is not None:
        relations = relations.filter(other__username__iexact=username)
    return [
        {"username": relation.other.get_username(), "online": is_online(relation.other.profile),
         "since": relation.created_at}
        for relation in relations.select_related("other__profile").order_by("other__username")
    ]


def _one_listed(request: HttpRequest, kind: str, username: str) -> dict[str, Any]:
    found = _listed(request, kind, username)
    if not found:
        raise HttpError(404, f"{username!r} is not on that list.")
    return found[0]


def _set(request: HttpRequest, kind: str, username: str) -> dict[str, Any]:
    try:
        relation_set(owner=request.auth, username=username, kind=kind)
    except RelationRefused as refusal:
        raise HttpError(422, str(refusal)) from None
    return _one_listed(request, kind, username)


def _remove(request: HttpRequest, kind: str, username: str) -> dict[str, Any]:
    try:
        relation_remove(owner=request.auth, username=username, kind=kind)
    except RelationRefused as refusal:
        raise HttpError(422, str(refusal)) from None
    return {"detail": f"{username} is not on that list now."}


for _kind, _path in ((Relation.Kind.BUDDY, "/buddies"), (Relation.Kind.IGNORE, "/ignored")):
    # The two lists answer the same calls; each closure binds its own kind.
    def _make(kind: str, path: str) -> None:
        name = "buddy list" if kind == Relation.Kind.BUDDY else "ignore list"

        @router.get(path, response={200: ListedPlayers, **_ERRORS}, operation_id=f"{kind}_list",
                    summary=f"Your {name}")
        def listed(request: HttpRequest) -> Any:
            return {"players": _listed(request, kind)}

        @router.get(f"{path}/{{username}}", response={200: ListedPlayer, **_ERRORS},
                    operation_id=f"{kind}_get", summary=f"One player on your {name} (404 when not on it)")
        def one(request: HttpRequest, username: str) -> Any:
            return _one_listed(request, kind, username)

        @router.put(f"{path}/{{username}}", response={200: ListedPlayer, **_ERRORS},
                    operation_id=f"{kind}_put", summary=f"Put a player on your {name} (moving them off the other list)")
        def put(request: HttpRequest, username: str) -> Any:
            return _set(request, kind, username)

        @router.delete(f"{path}/{{username}}", response={200: Done, **_ERRORS},
                       operation_id=f"{kind}_delete", summary=f"Take a player off your {name} (not being on it is no error)")
        def delete(request: HttpRequest, username: str) -> Any:
            return _remove(request, kind, username)

    _make(_kind, _path)
