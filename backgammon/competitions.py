"""Which ladder or tournament a game belongs to: the game page and Game status's lists say so,
with a link.

backgammon never imports the competition apps: they register a source
(``register_competition_source``) that, given game ids, returns the competitions of those that
belong to one, in one query. A game's competition never changes once the game exists (its
ladder challenge or tournament match names it in the transaction that creates it), so each
answer is kept (gamesite.kept) and a page asks for all its games' answers in one trip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import astuple, dataclass

from backgammon.models import Game
from gamesite.kept import keep_many, kept_of_these

__all__ = [
    "Competition",
    "competition_keys",
    "competition_of",
    "competitions_of",
    "register_competition_source",
]

KEEP_SECONDS = 24 * 3600


@dataclass(frozen=True, slots=True)
class Competition:
    kind: str  # "ladder" or "tournament"
    name: str
    url: str

    @property
    def label(self) -> str:
        return f"{self.kind.capitalize()} game"


CompetitionSource = Callable[[list[int]], dict[int, Competition]]
_sources: list[CompetitionSource] = []


def register_competition_source(source: CompetitionSource) -> None:
    """``source(game_ids)`` returns {game id: Competition} for those of the games in one."""
    if source not in _sources:
        _sources.append(source)


def _key(game_id: int) -> str:
    return f"competition:{game_id}"


def _may_belong(game: Game) -> bool:
    # Ladder and tournament games never count toward the game limit: the games that count (most
    # of them) need no look-up at all.
    return not game.counts_toward_limit


def competition_keys(games: Iterable[Game]) -> list[str]:
    """The kept answers ``competitions_of(games)`` reads: for a page's one trip to the cache."""
    return [_key(game.pk) for game in games if _may_belong(game)]


def competitions_of(games: Iterable[Game]) -> dict[int, Competition]:
    """{game id: its ladder or tournament} for those of ``games`` in one: the kept answers in one
    trip, the others in one query per source."""
    candidates = [game.pk for game in games if _may_belong(game)]
    if not candidates:
        return {}
    known = kept_of_these(_key(pk) for pk in candidates)
    found: dict[int, Competition] = {}
    missing: list[int] = []
    for pk in candidates:
        answer = known.get(_key(pk))
        if answer is None:
            missing.append(pk)
        elif answer:
            found[pk] = Competition(*answer)
    if missing:
        computed: dict[int, Competition] = {}
        for source in _sources:
            computed.update(source(missing))
        # A game in none is kept too (as an empty answer), so it is not looked up again.
        keep_many({_key(pk): astuple(computed[pk]) if pk in computed else () for pk in missing}, KEEP_SECONDS)
        found.update(computed)
    return found


def competition_of(game: Game) -> Competition | None:
    """The ladder or tournament ``game`` belongs to, if any."""
    return competitions_of([game]).get(game.pk)
