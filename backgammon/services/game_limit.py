"""The non-members' limit of simultaneous games (settings.NON_MEMBER_GAME_LIMIT; members have none).

Checked only when a game starts: a membership that ends never stops the games already running,
it only refuses new ones while the player is at the limit.

Only games a player started or accepted count (challenges, the waiting room, auto-match:
``Game.counts_toward_limit``); games against computer opponents, ladder and tournament games are
neither counted nor refused. The check runs inside the service's transaction, after its row lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from accounts.membership import is_member, members_now
from backgammon.models import Game
from backgammon.signals import untimed_player_ids
from gamesite.plain_sql import columns, placeholders, table

from .refusals import ChallengeRejected

__all__ = [
    "counted_games",
    "game_limit",
    "game_limit_check",
    "is_computer_opponent",
    "lock_players",
    "players_at_limit",
]


def game_limit() -> int:
    return settings.NON_MEMBER_GAME_LIMIT


def counted_games(user: Any) -> int:
    """How many of ``user``'s active games count toward the limit."""
    return len(_counted_games([user.pk]))


def _counted_games(ids: list[int]) -> list[tuple[int, int]]:
    """(Black, White) of each active game that counts toward the limit and has one of ``ids`` in it.
    Plain SQL: an Auto-Match pairing asks this twice while its player waits, and building the
    ORM's query cost more than its round trip."""
    with connection.cursor() as cursor:
        cursor.execute(_counted_games_sql(len(ids)), [Game.Status.ACTIVE.value, True, *ids, *ids])
        return cursor.fetchall()


def is_computer_opponent(user: Any) -> bool:
    # The computer opponents are the players that are never put on the clock (bots app).
    return bool(untimed_player_ids([user.pk]))


def _limit_sentence(limit: int) -> str:
    return f"Players who are not members may have {limit} games at a time; members have no limit."


def game_limit_check(user: Any, *, other: Any = None) -> None:
    """Refuse (ChallengeRejected) a new game for ``user`` if they are a non-member at the limit;
    ``other`` (the opponent) is named in the refusal when it is them."""
    if is_member(user):
        return
    limit = game_limit()
    if counted_games(user) < limit:
        return
    if other is None:
        raise ChallengeRejected(f"You already play {limit} games. {_limit_sentence(limit)}")
    raise ChallengeRejected(
        f"{user.get_username()} already plays {limit} games and cannot start another now. "
        f"{_limit_sentence(limit)}"
    )


def lock_players(*users: Any) -> None:
    """Lock the players' user rows (in id order, so two services never wait on each other in a
    circle): one player's games started at the same moment are counted one after the other."""
    ids = sorted({user.pk for user in users})
    list(get_user_model()._default_manager.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))


@lru_cache(maxsize=16)  # one database per process: built once for each number of players
def _counted_games_sql(count: int) -> str:
    """The players of the active games that count toward the limit, among ``count`` players."""
    column = columns(Game, "status", "counts_toward_limit", "black", "white")
    ids = placeholders(count)
    return (f"SELECT {column['black']}, {column['white']} FROM {table(Game)} "
            f"WHERE {column['status']} = %s AND {column['counts_toward_limit']} = %s "
            f"AND ({column['black']} IN ({ids}) OR {column['white']} IN ({ids}))")


def players_at_limit(user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` who may not start another counted game now: one query, and a second
    (who of them is a member, whom the limit spares) only when someone has reached the limit."""
    ids = list(user_ids)
    if not ids:
        return set()
    counts: dict[int, int] = dict.fromkeys(ids, 0)
    for black_id, white_id in _counted_games(ids):
        for player in (black_id, white_id):
            if player in counts:
                counts[player] += 1
    limit = game_limit()
    reached = {user_id for user_id, count in counts.items() if count >= limit}
    if not reached:
        return set()
    members = set(
        get_user_model()._default_manager.filter(members_now(), pk__in=reached).values_list("pk", flat=True)
    )
    return reached - members
