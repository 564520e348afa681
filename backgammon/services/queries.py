"""Read-only questions the lobby asks: which games wait for me, which for my opponents."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from accounts.backends import kept_users
from accounts.vacations import vacations_end_key
from backgammon.competitions import competition_keys, competitions_of
from backgammon.models import Challenge, Game
from gamesite.kept import keep_many, kept, kept_of_these
from gamesite.plain_sql import columns, placeholders, table

__all__ = [
    "StatusLists", "forget_awaiting_counts", "games_awaiting", "games_awaiting_count", "games_awaiting_counts_kept",
    "next_game_for", "status_lists",
]

RECENT_FINISHED = 10
AWAITING_COUNT_SECONDS = 600


def games_awaiting(user: Any) -> QuerySet[Game]:
    """Active games where ``user`` must act, the oldest deadline first."""
    return Game.objects.filter(actor=user, status=Game.Status.ACTIVE).order_by("deadline", "pk")


def awaiting_count_key(user_id: Any) -> str:
    return f"backgammon:awaiting:{user_id}"


def games_awaiting_count(user: Any) -> int:
    """The PLAY menu's count, which every page and every pushed status update asks for: kept
    (gamesite.kept), forgotten for both players whenever a game's player to act or status may
    have changed (forget_awaiting_counts)."""
    return kept(awaiting_count_key(user.pk), lambda: _count_awaiting_of([user.pk]).get(user.pk, 0),
                AWAITING_COUNT_SECONDS)


def games_awaiting_counts_kept(user_ids: Iterable[Any]) -> None:
    """Keep the PLAY counts of these players that are not kept, counted in one query and kept in
    one trip: a move's news shows both players theirs, just forgotten by the move itself."""
    keys = {user_id: awaiting_count_key(user_id) for user_id in dict.fromkeys(user_ids) if user_id is not None}
    found = kept_of_these(keys.values())
    missing = [user_id for user_id, key in keys.items() if key not in found]
    if len(missing) < 2:
        return  # one alone is counted when asked for, as before
    counts = dict.fromkeys(missing, 0) | _count_awaiting_of(missing)
    keep_many({keys[user_id]: count for user_id, count in counts.items()}, AWAITING_COUNT_SECONDS)


def _count_awaiting_of(user_ids: list[Any]) -> dict[Any, int]:
    # games_awaiting(user).count() for each player with a game to act in, asked for after nearly
    # every move: in plain SQL, as building the ORM's query cost several times the count itself
    # (profiled under load).
    with connection.cursor() as cursor:
        cursor.execute(_count_awaiting_sql(len(user_ids)), [*user_ids, Game.Status.ACTIVE.value])
        return {actor_id: int(count) for actor_id, count in cursor.fetchall()}


@lru_cache(maxsize=8)  # one database per process; nearly always two players
def _count_awaiting_sql(count: int) -> str:
    column = columns(Game, "actor", "status")
    return (f"SELECT {column['actor']}, COUNT(*) FROM {table(Game)} "
            f"WHERE {column['actor']} IN ({placeholders(count)}) AND {column['status']} = %s "
            f"GROUP BY {column['actor']}")


def forget_awaiting_counts(game: Game) -> list[str]:
    """The PLAY counts a save or a deletion of ``game`` may change: both players', unless the
    action just saved left whose turn it is and the game's status as they were (a roll: the
    service says so, for that one save)."""
    if game.__dict__.pop("_play_counts_unchanged", False):
        return []
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


def status_lists(user: Any, also_kept: Iterable[str] = ()) -> StatusLists:
    """Everything the Game status page shows, in its order.

    Three queries without joins (active games, recently finished games, pending challenges) and
    the players they name as accounts.backends.kept_users reads them: building the SQL that joined
    four players to each game cost more than the rows took to read, on the page players open most
    after the game page. The clocks of the games to play (the actors' vacations) and ``also_kept``
    (what else the page shows) are asked of the cache in the same trip as the players."""
    mine = Q(black=user) | Q(white=user)
    active = list(Game.objects.filter(mine, status=Game.Status.ACTIVE).order_by("deadline", "pk"))
    finished = list(Game.objects.filter(mine).exclude(status=Game.Status.ACTIVE)
                    .order_by("-updated_at")[:RECENT_FINISHED])
    challenges = list(
        # Open challenges (no opponent yet) are listed in the waiting room.
        Challenge.objects.filter(Q(challenged=user) | Q(challenger=user, challenged__isnull=False),
                                 status=Challenge.Status.PENDING)
        .order_by("created_at", "pk")
    )
    clocks = [vacations_end_key(actor_id) for actor_id in {game.actor_id for game in active} if actor_id]
    players = kept_users([user.pk, *_players_of(active + finished), *_players_of_challenges(challenges)],
                         also_kept=[*clocks, *competition_keys(active + finished), *also_kept])
    competitions = competitions_of(active + finished)
    for game in active + finished:
        _attach_players(game, players)
        game.competition = competitions.get(game.pk)  # type: ignore[attr-defined]
    for challenge in challenges:
        challenge.challenger = players[challenge.challenger_id]
        challenge.challenged = players[challenge.challenged_id]
    return StatusLists(
        my_turn=[game for game in active if game.actor_id == user.pk],
        their_turn=[game for game in active if game.actor_id != user.pk],
        finished=finished,
        incoming=[challenge for challenge in challenges if challenge.challenged_id == user.pk],
        outgoing=[challenge for challenge in challenges if challenge.challenger_id == user.pk],
    )


def _players_of(games: list[Game]) -> list[Any]:
    return [player_id for game in games for player_id in (game.black_id, game.white_id, game.actor_id, game.winner_id)]


def _players_of_challenges(challenges: list[Challenge]) -> list[Any]:
    return [player_id for challenge in challenges for player_id in (challenge.challenger_id, challenge.challenged_id)]


def _attach_players(game: Game, players: dict[Any, Any]) -> None:
    """The game's players as read together, so its rows ask for none of them again (a game's
    players cannot be deleted: PROTECT)."""
    game.black, game.white = players[game.black_id], players[game.white_id]
    if game.actor_id is not None:
        game.actor = players[game.actor_id]
    if game.winner_id is not None:
        game.winner = players[game.winner_id]
