"""The pure arithmetic of brackets and tables: seeding order, round robin rounds, standings.

Nothing here touches the database, so each rule is tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Result", "bracket_size", "rank_round_robin", "round_robin_rounds", "seeding_order", "shared_places"]

P = TypeVar("P", bound=Hashable)


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (the rest of the places are byes)."""
    size = 1
    while size < players:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """Seeds 1..size in bracket order, so seed 1 meets seed ``size`` first and the two best seeds
    can only meet in the final: 8 gives [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def round_robin_rounds(count: int) -> list[list[tuple[int, int]]]:
    """The circle method: each of ``count`` players (0-based) meets every other once; an odd
    count sits one out each round."""
    places: list[int | None] = list(range(count))
    if count % 2:
        places.append(None)
    rounds = []
    for _ in range(len(places) - 1):
        half = len(places) // 2
        pairs = [(places[i], places[-1 - i]) for i in range(half)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        places = [places[0], places[-1], *places[1:-1]]
    return rounds


@dataclass(frozen=True)
class Result:
    winner: Hashable
    loser: Hashable


def rank_round_robin(
    players: Sequence[Hashable], results: Sequence[Result], rating: dict[Hashable, float]
) -> list[Hashable]:
    """Best first: by wins, then the wins of the opponents beaten, then wins in the games among
    the tied players, then rating (then the order given, the seeding, for a full tie)."""
    wins = {player: 0 for player in players}
    for result in results:
        wins[result.winner] += 1
    beaten_wins = {player: 0 for player in players}
    for result in results:
        beaten_wins[result.winner] += wins[result.loser]

    def head_to_head(player: Hashable) -> int:
        tied = {p for p in players if (wins[p], beaten_wins[p]) == (wins[player], beaten_wins[player])}
        return sum(1 for r in results if r.winner == player and r.loser in tied)

    place = {player: index for index, player in enumerate(players)}
    return sorted(
        players,
        key=lambda p: (-wins[p], -beaten_wins[p], -head_to_head(p), -rating[p], place[p]),
    )


def shared_places(order: Sequence[P], standing: Callable[[P], Any]) -> dict[P, int]:
    """Each player's place in ``order`` (best first), shared by players of equal ``standing``,
    the next place after them skipped as in sport: two beaten semi-finalists are both 3rd.

    >>> shared_places(["ann", "bob", "cy", "dee", "eve"], {"ann": 1, "bob": 2, "cy": 3, "dee": 3, "eve": 4}.get)
    {'ann': 1, 'bob': 2, 'cy': 3, 'dee': 3, 'eve': 5}
    """
    places: dict[P, int] = {}
    for index, player in enumerate(order):
        previous = order[index - 1] if index else None
        shares = previous is not None and standing(previous) == standing(player)
        places[player] = places[previous] if shares and previous is not None else index + 1
    return places
