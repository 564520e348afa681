"""Read-only questions the lobby asks: which games wait for me, which for my opponents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from backgammon.models import Challenge, Game
from gamesite.kept import kept

__all__ = [
    "StatusLists", "forget_awaiting_counts", "games_awaiting", "games_awaiting_count", "next_game_for", "status_lists",
]

RECENT_FINISHED = 10


def games_awaiting(user: Any) -> QuerySet[Game]:
    """Active games where ``user`` must act, the oldest deadline first."""
    return Game.objects.filter(actor=user, status=Game.Status.ACTIVE).order_by("deadline", "pk")


def awaiting_count_key(user_id: Any) -> str:
    return f"backgammon:awaiting:{user_id}"


def games_awaiting_count(user: Any) -> int:
    """The PLAY menu's count, which every page and every pushed status update asks for: kept
    (gamesite.kept), forgotten for both players whenever a game row is saved."""
    return kept(awaiting_count_key(user.pk), lambda: _count_awaiting(user.pk), 600)


def _count_awaiting(user_id: Any) -> int:
    # games_awaiting(user).count(), asked for both players after nearly every move: in plain SQL,
    # as building the ORM's query cost several times the count itself (profiled under load).
    quote = connection.ops.quote_name
    sql = (f"SELECT COUNT(*) FROM {quote(Game._meta.db_table)} "
           f"WHERE {quote('actor_id')} = %s AND {quote('status')} = %s")
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, Game.Status.ACTIVE.value])
        return int(cursor.fetchone()[0])


def forget_awaiting_counts(game: Game) -> list[str]:
    return [awaiting_count_key(player_id) for player_id in (game.black_id, game.white_id) if player_id]


def next_game_for(user: Any) -> Game | None:
    return games_awaiting(user).first()


@dataclass(frozen=True)
class StatusLists:
    my_turn: list[Game]
    their_turn: list[Game]
    finished: list[Game]
    incoming: list[Challenge]
    outgoing: list[Challenge]


def status_lists(user: Any) -> StatusLists:
    """Everything the Game status page shows, in its order."""
    mine = Q(black=user) | Q(white=user)
    players = ("black", "white", "actor", "winner")
    # The active games in one query, split here: each such query (four players joined) took
    # about 2 ms, most of it building the SQL, on the page players open most.
    active = list(Game.objects.filter(mine, status=Game.Status.ACTIVE).select_related(*players)
                  .order_by("deadline", "pk"))
    return StatusLists(
        my_turn=[game for game in active if game.actor_id == user.pk],
        their_turn=[game for game in active if game.actor_id != user.pk],
        finished=list(
            Game.objects.filter(mine)
            .exclude(status=Game.Status.ACTIVE)
            .select_related(*players)
            .order_by("-updated_at")[:RECENT_FINISHED]
        ),
        incoming=list(
            Challenge.objects.filter(challenged=user, status=Challenge.Status.PENDING)
            .select_related("challenger")
            .order_by("created_at")
        ),
        outgoing=list(
            # Open challenges (no opponent yet) are listed in the waiting room.
            Challenge.objects.filter(challenger=user, status=Challenge.Status.PENDING, challenged__isnull=False)
            .select_related("challenged")
            .order_by("created_at")
        ),
    )
