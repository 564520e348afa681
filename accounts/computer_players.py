"""Who is a computer player, for every page that names players (``player_link``, the presence
words of profiles, Who is here and the search).

accounts sits below the bots app, so the bots app registers where the answer comes from
(``register_computer_players``). Names are checked as well as ids: the game region names its
players by userid alone.

The answer is kept in this process: it is asked once per player named (a list of fifty games
names fifty players), the few bots are made by a data migration and change almost never, and a
query per name, or a cache trip per name where the cache is the database, is what the pages
must not pay. A bot added or removed here is seen at once (``forget_computer_players``, on the
Bot model's signals); on other app servers within ``KEEP_SECONDS``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "KEEP_SECONDS",
    "ComputerPlayers",
    "computer_players",
    "forget_computer_players",
    "is_computer_player",
    "register_computer_players",
]

KEEP_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class ComputerPlayers:
    ids: frozenset[int]
    names: frozenset[str]  # userids in lower case (userids are unique whatever their case)
    userids: tuple[str, ...]  # as written, in order

    @classmethod
    def of(cls, rows: Iterable[tuple[int, str]]) -> ComputerPlayers:
        pairs = list(rows)
        return cls(
            frozenset(pk for pk, _ in pairs),
            frozenset(name.lower() for _, name in pairs),
            tuple(sorted(name for _, name in pairs)),
        )


NOBODY = ComputerPlayers(frozenset(), frozenset(), ())

_sources: list[Callable[[], ComputerPlayers]] = []
_lock = threading.Lock()
_kept: tuple[float, ComputerPlayers] | None = None
_generation = 0  # counts the forgets, so an answer read before one is not kept after it


def register_computer_players(source: Callable[[], ComputerPlayers]) -> None:
    """``source()`` returns every computer player (it may query the database)."""
    if source not in _sources:
        _sources.append(source)
    forget_computer_players()


def forget_computer_players(*_: Any, **__: Any) -> None:
    """Ask the sources again next time (a signal receiver too, hence the arguments)."""
    global _kept, _generation
    with _lock:
        _kept = None
        _generation += 1


def computer_players() -> ComputerPlayers:
    global _kept
    now = time.monotonic()
    kept = _kept
    if kept is not None and kept[0] > now:
        return kept[1]
    generation = _generation
    found = NOBODY
    for source in _sources:
        more = source()
        found = ComputerPlayers(found.ids | more.ids, found.names | more.names,
                                tuple(sorted({*found.userids, *more.userids})))
    with _lock:
        if generation == _generation:
            _kept = (now + KEEP_SECONDS, found)
    return found


def is_computer_player(player: Any) -> bool:
    """Whether ``player`` (a user, or a userid as text) is a computer player."""
    if player is None or player == "":
        return False
    known = computer_players()
    if not known.ids:
        return False
    pk = getattr(player, "pk", None)
    if pk is not None:
        return pk in known.ids
    name = player.get_username() if hasattr(player, "get_username") else str(player)
    return name.lower() in known.names
