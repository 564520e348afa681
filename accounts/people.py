"""Reading about players: the public profile's facts, the profile search and who is here.

Every function here makes a fixed number of queries whatever the player's history, so the
pages built on them stay fast (the tests count them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from accounts.models import Profile
from accounts.presence import here_now
from accounts.relations import buddy_ids, ignore_wall_ids

__all__ = [
    "CURRENT_GAMES_SHOWN",
    "HereRow",
    "PlayerFacts",
    "active_game_counts",
    "games_seen_by",
    "is_online",
    "local_time",
    "player_by_username",
    "player_facts",
    "players_here",
    "players_matching",
]

CURRENT_GAMES_SHOWN = 50
"""Active games listed on a profile (the count above the list is the full number)."""


def player_by_username(username: str) -> Any:
    """The active player of that userid in any case, with their profile; None when there is none."""
    User = get_user_model()
    return (
        User._default_manager.filter(username__iexact=username, is_active=True)
        .select_related("profile")
        .first()
    )


def is_online(profile: Profile, now: datetime | None = None) -> bool:
    """Seen within the presence window (the same one as "Who is here?")."""
    if profile.last_seen is None:
        return False
    now = now or timezone.now()
    return now - profile.last_seen <= timedelta(minutes=settings.PRESENCE_MINUTES)


def local_time(profile: Profile, now: datetime | None = None) -> datetime | None:
    """The player's wall-clock time now, or None without a (valid) time zone."""
    if not profile.time_zone:
        return None
    try:
        zone = ZoneInfo(profile.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return (now or timezone.now()).astimezone(zone)


@dataclass
class PlayerFacts:
    """What a profile page shows beyond the profile row itself."""

    record: list[dict[str, Any]] = field(default_factory=list)  # per variant: won, lost
    won: int = 0
    lost: int = 0
    active_count: int = 0
    current_games: list[Any] = field(default_factory=list)
    ladder_rungs: list[Any] = field(default_factory=list)


def games_seen_by(viewer: Any) -> Q:
    """The games ``viewer`` may know of: those nobody made private, and their own (a private game
    is its players' alone: to anyone else, visitors included, it does not exist, not even in a
    count)."""
    public = Q(private_black=False, private_white=False)
    if viewer is None or not viewer.is_authenticated:
        return public
    return public | Q(black_id=viewer.pk) | Q(white_id=viewer.pk)


def player_facts(player: Any, viewer: Any = None) -> PlayerFacts:
    """Win/loss record by variant, current games and ladder places: four queries in all.

    A private game (backgammon.services.watching) is listed only to its own players: to anyone
    else, visitors included, it does not exist."""
    # Imported here: accounts sits below backgammon and tournaments, which import it.
    from backgammon.models import Game
    from tournaments.models import LadderRung

    theirs = Game.objects.filter(Q(black=player) | Q(white=player))
    finished = theirs.filter(status=Game.Status.FINISHED, winner__isnull=False)
    record = list(
        finished.values("variant")
        .annotate(won=Count("pk", filter=Q(winner=player)), lost=Count("pk", filter=~Q(winner=player)))
        .order_by("variant")
    )
    active = theirs.filter(status=Game.Status.ACTIVE).filter(games_seen_by(viewer))
    facts = PlayerFacts(
        record=record,
        won=sum(row["won"] for row in record),
        lost=sum(row["lost"] for row in record),
        active_count=active.count(),
        current_games=list(
            active.select_related("black", "white", "actor").order_by("-updated_at", "-pk")[:CURRENT_GAMES_SHOWN]
        ),
        ladder_rungs=list(
            LadderRung.objects.filter(player=player).select_related("ladder").order_by("ladder__name")
        ),
    )
    return facts


def players_matching(*, query: str = "", country: str = "", viewer: Any = None) -> QuerySet[Any]:
    """Active players whose userid contains ``query`` (any case) and, if given, of ``country``,
    by userid; players on either side of the viewer's ignore wall are left out."""
    User = get_user_model()
    players = User._default_manager.filter(is_active=True).select_related("profile")
    if query:
        players = players.filter(username__icontains=query)
    if country:
        players = players.filter(profile__country=country)
    if viewer is not None and viewer.is_authenticated:
        players = players.exclude(pk__in=ignore_wall_ids(viewer))
    return players.order_by("username")


def active_game_counts(user_ids: list[int], viewer: Any = None) -> dict[int, tuple[int, int]]:
    """{user id: (active games, games where it is their turn)} for those players, of the games
    ``viewer`` may know of (games_seen_by), two queries."""
    from backgammon.models import Game

    counts: dict[int, list[int]] = {pk: [0, 0] for pk in user_ids}
    active = Game.objects.filter(status=Game.Status.ACTIVE).filter(games_seen_by(viewer))
    for side in ("black", "white"):
        rows = (
            active.filter(**{f"{side}__in": user_ids})
            .values(side)
            .annotate(playing=Count("pk"), to_act=Count("pk", filter=Q(actor_id=F(side))))
        )
        for row in rows:
            counts[row[side]][0] += row["playing"]
            counts[row[side]][1] += row["to_act"]
    return {pk: (playing, to_act) for pk, (playing, to_act) in counts.items()}


@dataclass(frozen=True)
class HereRow:
    profile: Profile
    is_buddy: bool
    playing: int
    to_act: int


def players_here(viewer: Any) -> list[HereRow]:
    """Players seen in the presence window, the viewer's buddies first, each with how many games
    they play and in how many it is their turn; players behind the ignore wall are left out."""
    profiles = here_now().select_related("user")
    buddies: set[int] = set()
    if viewer is not None and viewer.is_authenticated:
        profiles = profiles.exclude(user_id__in=ignore_wall_ids(viewer))
        buddies = buddy_ids(viewer)
    found = list(profiles[: settings.WHO_IS_HERE_MAX])
    counts = active_game_counts([profile.user_id for profile in found], viewer)
    rows = [
        HereRow(profile, profile.user_id in buddies, *counts.get(profile.user_id, (0, 0)))
        for profile in found
    ]
    # Stable: within each group the latest seen stay first.
    rows.sort(key=lambda row: not row.is_buddy)
    return rows
