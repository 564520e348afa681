"""Auto-match: a player says what they will play and how many games at most; the site pairs
compatible requests, closest ratings first, and starts the games.

Two requests are compatible when they share a variant and a time limit and their rated wishes
meet (rated + either = rated, unrated + either = unrated, either + either = rated; money play is
never rated). A pair plays the first shared variant in the site's order and the longest shared
time limit (the gentler clock). Never paired: two players who ignore each other, a non-member at
the game limit, or two players whose requests already started a game together.

A request is for correspondence (time limits per move) or live (issue 31: live presets, each
scaled to the match paired, exact live clocks, or any live clock), never both, and a live request
pairs only with another live one. A live game starts at once and both players must be there for
it, so live requests pair only players who are here now (``accounts.presence.here_for_live``: seen
in the last two minutes, as an open page keeps its player) and who are not playing a live match already; a live pair plays the gentlest clock both accept (the largest reserve), and
two "any live clock" requests play Rapid. Making or changing a live request marks its player here
(an API client has no page to be seen on).

``auto_match_pair`` runs after a request is made or changed, and from every worker tick (so a
pairing skipped while another was running is made a few seconds later). It locks the open
requests it pairs (``select_for_update(skip_locked=True)``), so two runs at once share no request
and no request is paired twice; running it again when nothing changed starts nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Count, Max, Prefetch, Q, QuerySet, When
from django.utils import timezone

from accounts.models import Profile
from accounts.presence import here_for_live_since, mark_here_for_live
from accounts.relations import ignore_walls
from backgammon.engine import VARIANTS
from backgammon.engine.clock import LIVE_PRESETS, TimeControl
from backgammon.models import TIME_LIMITS, AutoMatchRequest, Game
from gamesite.plain_sql import columns, placeholders, table

from .challenges import DEFAULT_MATCH_LENGTHS, game_create
from .game_limit import lock_players, players_at_limit
from .ratings_source import ratings_in
from .refusals import ChallengeRejected, Refusal

__all__ = [
    "MAX_AUTO_MATCH_GAMES",
    "AutoMatchPlaced",
    "AutoMatchWaiting",
    "auto_match_cancel",
    "auto_match_of",
    "auto_match_pair",
    "auto_match_place",
    "auto_match_set",
    "auto_match_waiting",
    "live_match_in_play",
]

logger = logging.getLogger(__name__)

MAX_AUTO_MATCH_GAMES = 10
_TIME_LIMIT_SECONDS = [int(value.total_seconds()) for value, _ in TIME_LIMITS]
MAX_LIVE_CLOCKS = 10
ANY_LIVE_PAIR = "rapid"
"""The preset two requests for "any live clock" play."""
Rated = AutoMatchRequest.Rated


def _open_then_latest(user: Any) -> QuerySet[AutoMatchRequest]:
    """The player's requests, the open one first, then the latest."""
    open_first = Case(When(status=AutoMatchRequest.Status.OPEN, then=0), default=1)
    return AutoMatchRequest.objects.filter(player=user).order_by(open_first, "-created_at", "-pk")


def auto_match_of(user: Any) -> AutoMatchRequest | None:
    """The player's open request, else their latest one (to show the games it started), its games
    and their players read with it (in one query: players come back to this page after each live
    match, and three, one each for the games, Black and White, cost two round trips more)."""
    games = Prefetch("games", queryset=Game.objects.select_related("black", "white"))
    return _open_then_latest(user).prefetch_related(games).first()


@dataclass(frozen=True)
class AutoMatchWaiting:
    """The request ``auto_match_of`` shows, as the poll of a page waiting on it needs it."""

    is_live: bool
    is_open: bool
    started: int
    newest_game_id: int | None


def auto_match_waiting(user: Any) -> AutoMatchWaiting | None:
    """What a waiting live request's page asks every few seconds: whether the request is live and
    still open, how many games it started and the newest, in one query."""
    found = (_open_then_latest(user).annotate(started=Count("games"), newest=Max("games"))
             .only("live_any", "live_presets", "live_clocks", "status").first())
    if found is None:
        return None
    return AutoMatchWaiting(is_live=found.is_live, is_open=found.status == AutoMatchRequest.Status.OPEN,
                            started=found.started, newest_game_id=found.newest)


def _checked_live(live_presets: list[str], live_clocks: list[TimeControl], live_any: bool) -> dict[str, Any]:
    unknown = sorted(set(live_presets) - set(LIVE_PRESETS))
    if unknown:
        raise ChallengeRejected(f"There is no live preset {unknown[0][:20]!r}; choose from {', '.join(LIVE_PRESETS)}")
    if len(live_clocks) > MAX_LIVE_CLOCKS:
        raise ChallengeRejected(f"Name {MAX_LIVE_CLOCKS} live clocks at most")
    if any(not control.is_live for control in live_clocks):
        raise ChallengeRejected("A live clock has a delay and a reserve")
    exact = sorted({(control.delay_s, control.reserve_s) for control in live_clocks})
    return {
        "live_presets": [] if live_any else [key for key in LIVE_PRESETS if key in live_presets],
        "live_clocks": [] if live_any else [{"delay_s": delay, "reserve_s": reserve} for delay, reserve in exact],
        "live_any": live_any,
    }


def _checked(
    variants: list[str], time_limits: list[timedelta], rated: str, max_games: int,
    live_presets: list[str], live_clocks: list[TimeControl], live_any: bool,
) -> dict[str, Any]:
    asked = {code.strip().upper() for code in variants}
    unknown = sorted(asked - set(VARIANTS))
    if unknown:
        raise ChallengeRejected(f"There is no variant {unknown[0][:20]!r}; choose from {', '.join(VARIANTS)}")
    codes = [code for code in VARIANTS if code in asked]
    if not codes:
        raise ChallengeRejected("Choose at least one variant you will play")
    seconds = sorted({int(limit.total_seconds()) for limit in time_limits})
    live = _checked_live(live_presets, live_clocks, live_any)
    is_live = bool(live["live_any"] or live["live_presets"] or live["live_clocks"])
    if seconds and is_live:
        raise ChallengeRejected(
            "A request is for correspondence or for live play, not both: choose time limits per move or live clocks"
        )
    if not seconds and not is_live:
        raise ChallengeRejected("Choose at least one time limit per move, or a live clock")
    if any(value not in _TIME_LIMIT_SECONDS for value in seconds):
        raise ChallengeRejected("Choose time limits per move from the list")
    if rated not in Rated.values:
        raise ChallengeRejected("Choose rated, unrated, or either")
    if rated == Rated.RATED and all(VARIANTS[code].money for code in codes):
        raise ChallengeRejected("Money play is never rated: choose unrated or either")
    if not 1 <= max_games <= MAX_AUTO_MATCH_GAMES:
        raise ChallengeRejected(f"Ask for 1 to {MAX_AUTO_MATCH_GAMES} games")
    return {"variants": codes, "time_limits": seconds, "rated": rated, "max_games": max_games, **live}


@dataclass(frozen=True)
class AutoMatchPlaced:
    """A request as made or changed, and the games its pairing started for its player at once."""

    request: AutoMatchRequest
    started: list[Game]


def auto_match_place(
    *, player: Any, variants: list[str], time_limits: list[timedelta], rated: str, max_games: int,
    live_presets: list[str] | None = None, live_clocks: list[TimeControl] | None = None, live_any: bool = False,
) -> AutoMatchPlaced:
    """Make or change the player's request, then try to pair it. A change keeps the games the
    request started; asking for no more games than it started fills it. A live request (presets,
    exact clocks or any live clock, and no time limits) marks its player here. The request is
    as it was saved: a pairing that filled it is in ``started``, not in its status."""
    wish = _checked(variants, time_limits, rated, max_games, live_presets or [], live_clocks or [], live_any)
    for _attempt in range(2):  # a racing twin may insert the open request between our read and write
        try:
            with transaction.atomic():
                request = (
                    AutoMatchRequest.objects.select_for_update()
                    .filter(player=player, status=AutoMatchRequest.Status.OPEN)
                    .first()
                )
                is_new = request is None
                if request is None:
                    request = AutoMatchRequest(player=player)
                for field, value in wish.items():
                    setattr(request, field, value)
                request.save()
                if not is_new and request.games.count() >= request.max_games:
                    request.status = AutoMatchRequest.Status.FILLED
                    request.save(update_fields=["status", "updated_at"])
            break
        except IntegrityError:
            continue
    else:
        raise ChallengeRejected("Your request changed at the same moment: please try again")
    if request.is_live:
        mark_here_for_live(player.pk)
    started = [game for game in auto_match_pair() if player.pk in (game.black_id, game.white_id)]
    return AutoMatchPlaced(request, started)


def auto_match_set(
    *, player: Any, variants: list[str], time_limits: list[timedelta], rated: str, max_games: int,
    live_presets: list[str] | None = None, live_clocks: list[TimeControl] | None = None, live_any: bool = False,
) -> AutoMatchRequest:
    """``auto_match_place``'s request, read again after its pairing (its status, its games)."""
    placed = auto_match_place(player=player, variants=variants, time_limits=time_limits, rated=rated,
                              max_games=max_games, live_presets=live_presets, live_clocks=live_clocks,
                              live_any=live_any)
    placed.request.refresh_from_db()
    return placed.request


def auto_match_cancel(*, player: Any) -> AutoMatchRequest:
    """Take the player's open request back (the games it started go on)."""
    with transaction.atomic():
        request = (
            AutoMatchRequest.objects.select_for_update()
            .filter(player=player, status=AutoMatchRequest.Status.OPEN)
            .first()
        )
        if request is None:
            raise ChallengeRejected("You have no auto-match request waiting", Refusal.NOT_FOUND)
        request.status = AutoMatchRequest.Status.CANCELLED
        request.save(update_fields=["status", "updated_at"])
        return request


@dataclass(frozen=True)
class _Terms:
    variant: str
    time_limit: timedelta
    rated: bool
    time_control: TimeControl | None = None


def _rated_meets(a: str, b: str, money: bool) -> bool | None:
    """The pair's rated flag, or None if their wishes do not meet."""
    if money:  # never rated: only for two players who do not insist on rated
        return None if Rated.RATED in (a, b) else False
    wishes = {a, b} - {Rated.EITHER}
    if len(wishes) > 1:
        return None
    return wishes.pop() == Rated.RATED if wishes else True


def _live_controls(request: AutoMatchRequest, match_length: int) -> set[TimeControl] | None:
    """The live clocks a request accepts for a match of ``match_length`` (None: any)."""
    if request.live_any:
        return None
    controls = {LIVE_PRESETS[key].control(match_length) for key in request.live_presets if key in LIVE_PRESETS}
    return controls | {TimeControl.live(c["delay_s"], c["reserve_s"]) for c in request.live_clocks}


def shared_live_clock(a: AutoMatchRequest, b: AutoMatchRequest, match_length: int) -> TimeControl | None:
    """The gentlest live clock (largest reserve, then delay) both requests accept, or None."""
    mine, theirs = _live_controls(a, match_length), _live_controls(b, match_length)
    if mine is None and theirs is None:
        return LIVE_PRESETS[ANY_LIVE_PAIR].control(match_length)
    if mine is None:
        shared = theirs or set()
    elif theirs is None:
        shared = mine
    else:
        shared = mine & theirs
    return max(shared, key=lambda control: (control.reserve_s, control.delay_s), default=None)


def pair_terms(a: AutoMatchRequest, b: AutoMatchRequest) -> _Terms | None:
    """What two requests would play together, or None if nothing. A live request never pairs
    with a correspondence one (who is here is the caller's check)."""
    if a.is_live != b.is_live:
        return None
    limits = set(a.time_limits) & set(b.time_limits)
    if not a.is_live and not limits:
        return None
    for code in VARIANTS:
        if code in a.variants and code in b.variants:
            rated = _rated_meets(a.rated, b.rated, VARIANTS[code].money)
            if rated is None:
                continue
            if not a.is_live:
                return _Terms(code, timedelta(seconds=max(limits)), rated)
            control = shared_live_clock(a, b, DEFAULT_MATCH_LENGTHS.get(code, 0))
            if control is not None:
                return _Terms(code, timedelta(seconds=control.delay_s + control.reserve_s), rated, control)
    return None


def _open_requests() -> QuerySet[AutoMatchRequest]:
    return AutoMatchRequest.objects.filter(
        status=AutoMatchRequest.Status.OPEN, player__is_active=True
    ).order_by("created_at", "pk")


def auto_match_pair() -> list[Game]:
    """Pair what can be paired now; the games started (none when nothing is compatible)."""
    with transaction.atomic():
        requests = list(_open_requests().select_for_update(skip_locked=True, of=("self",)).select_related("player"))
        requests = _without_absent_live(requests)
        if len(requests) < 2:
            return []
        games_started, played = _games_so_far(requests)
        candidates = _candidates(requests, played)
        started: list[Game] = []
        remaining = {r.pk: r.max_games - games_started.get(r.pk, 0) for r in requests}
        full = players_at_limit(r.player_id for r in requests)
        recount: set[int] = set()  # players who started a game since ``full`` counted them
        filled: list[int] = []
        for _distance, _age, a, b, terms in candidates:
            if remaining[a.pk] <= 0 or remaining[b.pk] <= 0:
                continue
            stale = recount & {a.player_id, b.player_id}
            if stale:
                full |= players_at_limit(stale)
                recount -= stale
            if a.player_id in full or b.player_id in full:
                continue
            game = _start(a, b, terms)
            if game is None:
                full |= players_at_limit([a.player_id, b.player_id])
                continue
            started.append(game)
            for request in (a, b):
                remaining[request.pk] -= 1
                if remaining[request.pk] <= 0:
                    request.status = AutoMatchRequest.Status.FILLED
                    filled.append(request.pk)
            recount |= {a.player_id, b.player_id}
        if filled:  # one UPDATE for all (both requests of a pair, mostly) rather than one each
            AutoMatchRequest.objects.filter(pk__in=filled).update(
                status=AutoMatchRequest.Status.FILLED, updated_at=timezone.now())
        return started


def _live_games_in_play() -> QuerySet[Game]:
    return Game.objects.filter(status=Game.Status.ACTIVE, live_reserve_s__isnull=False)


def live_match_in_play(user: Any) -> Game | None:
    """The live match ``user`` is playing now, if any: their live request waits, open, until it
    has ended (``_without_absent_live``), and their Auto-Match page says so."""
    return _live_games_in_play().filter(Q(black=user) | Q(white=user)).select_related("black", "white").order_by("-pk").first()


def _without_absent_live(requests: list[AutoMatchRequest]) -> list[AutoMatchRequest]:
    """The requests that may pair now: every correspondence one, and the live ones of players
    who are here and not playing a live match already (a live request for several games plays
    them one after another; it waits, open, for its player to come back or be free)."""
    live_players = sorted({r.player_id for r in requests if r.is_live})
    if not live_players:
        return requests
    free = _free_for_live(live_players)
    return [r for r in requests if not r.is_live or r.player_id in free]


def _free_for_live(user_ids: list[int]) -> set[int]:
    """Those of ``user_ids`` who are here (``accounts.presence.here_for_live``) and not playing a
    live match (``_live_games_in_play``), in one query. Plain SQL: the player waiting on a live
    pairing waits on this, and building the ORM's query (a join and a NOT EXISTS) cost about
    twice its round trip; tests/site/test_live_lobby.py holds it to the two definitions."""
    with connection.cursor() as cursor:
        cursor.execute(_free_for_live_sql(len(user_ids)), [
            *user_ids, connection.ops.adapt_datetimefield_value(here_for_live_since()), True,
            Game.Status.ACTIVE.value,
        ])
        return {user_id for (user_id,) in cursor.fetchall()}


@lru_cache(maxsize=16)  # one database per process: built once for each number of players
def _free_for_live_sql(count: int) -> str:
    user_model = get_user_model()
    profile = columns(Profile, "user", "last_seen")
    user = columns(user_model, "id", "is_active")
    game = columns(Game, "status", "live_reserve_s", "black", "white")
    here = f"p.{profile['user']}"
    return (
        f"SELECT {here} FROM {table(Profile)} p "
        f"JOIN {table(user_model)} u ON u.{user['id']} = {here} "
        f"WHERE {here} IN ({placeholders(count)}) AND p.{profile['last_seen']} >= %s AND u.{user['is_active']} = %s "
        f"AND NOT EXISTS (SELECT 1 FROM {table(Game)} g WHERE g.{game['status']} = %s "
        f"AND g.{game['live_reserve_s']} IS NOT NULL AND (g.{game['black']} = {here} OR g.{game['white']} = {here}))"
    )


def _candidates(
    requests: list[AutoMatchRequest], played: set[frozenset[int]]
) -> list[tuple[float, int, AutoMatchRequest, AutoMatchRequest, _Terms]]:
    """Every compatible pair with its rating distance, closest first (then the oldest requests);
    ``played``: pairs of players these requests already started a game between."""
    walls = ignore_walls(r.player_id for r in requests)
    pairs = []
    for i, a in enumerate(requests):
        for b in requests[i + 1:]:
            if a.player_id == b.player_id or b.player_id in walls[a.player_id]:
                continue
            if frozenset((a.player_id, b.player_id)) in played:
                continue
            terms = pair_terms(a, b)
            if terms is not None:
                pairs.append((a, b, terms))
    ratings: dict[str, dict[int, float]] = {}
    for variant in {terms.variant for _, _, terms in pairs}:
        ids = {r.player_id for r in requests}
        ratings[variant] = ratings_in(variant, ids)
    ranked = []
    for index, (a, b, terms) in enumerate(pairs):
        found = ratings[terms.variant]
        distance = abs(found.get(a.player_id, 0.0) - found.get(b.player_id, 0.0))
        ranked.append((distance, index, a, b, terms))
    ranked.sort(key=lambda row: (row[0], row[1]))
    return ranked


def _games_so_far(requests: list[AutoMatchRequest]) -> tuple[dict[int, int], set[frozenset[int]]]:
    """How many games each request started, and the pairs of players they started them between."""
    through = AutoMatchRequest.games.through
    rows = through.objects.filter(automatchrequest_id__in=[r.pk for r in requests]).values_list(
        "automatchrequest_id", "game__black_id", "game__white_id"
    )
    counts: dict[int, int] = {}
    pairs: set[frozenset[int]] = set()
    for request_id, black_id, white_id in rows:
        counts[request_id] = counts.get(request_id, 0) + 1
        pairs.add(frozenset((black_id, white_id)))
    return counts, pairs


def _start(a: AutoMatchRequest, b: AutoMatchRequest, terms: _Terms) -> Game | None:
    try:
        with transaction.atomic():
            lock_players(a.player, b.player)
            # Counted again under the players' locks: a game either started meanwhile counts.
            if players_at_limit([a.player_id, b.player_id]):
                logger.info("Auto-match: %s and %s not paired: a game limit was reached", a.player, b.player)
                return None
            game = game_create(
                black=a.player,  # the older request's player is Black
                white=b.player,
                variant=terms.variant,
                match_length=DEFAULT_MATCH_LENGTHS.get(terms.variant, 0),
                time_limit=terms.time_limit,
                rated=terms.rated,
                stake=1 if VARIANTS[terms.variant].money else 0,
                counts_toward_limit=True,
                time_control=terms.time_control,
            )
            # One INSERT for both requests' links to their new game: ``games.add`` would look
            # for an existing link first and insert each on its own (4 queries, not 1).
            through = AutoMatchRequest.games.through
            through.objects.bulk_create([through(automatchrequest_id=request.pk, game_id=game.pk) for request in (a, b)])
            return game
    except ChallengeRejected as refusal:
        logger.info("Auto-match: %s and %s not paired: %s", a.player, b.player, refusal.message)
        return None
