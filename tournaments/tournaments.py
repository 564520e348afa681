"""Tournament services: every change to a tournament happens here, under its row lock.

Results come in through ``on_match_finished`` (a receiver of backgammon's match_finished, inside
the transaction that ends the game): the tournament row is locked first, so two results ending a
round at the same moment take turns and the next round is created once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.membership import is_member
from backgammon.engine import VARIANTS
from backgammon.engine.clock import TimeControl
from backgammon.live_topics import TOURNAMENTS, publish_changed, tournament_topic
from backgammon.models import Game
from backgammon.services import MATCH_VARIANTS, Refusal, Rejected, game_adjudicate, game_create
from gamesite.text import text_refusal
from tournaments.ratings import rating_of

from .brackets import (
    Result,
    bracket_size,
    rank_round_robin,
    round_robin_rounds,
    seeding_order,
    shared_places,
)
from .models import Entry, Tournament, TournamentMatch
from .models.vacation_caps import MAX_VACATION_CAP_DAYS
from .no_show import schedule_no_show_check

__all__ = [
    "TournamentConflict",
    "TournamentRejected",
    "close_signups",
    "on_match_finished",
    "standings",
    "tournament_adjudicate",
    "tournament_cancel",
    "tournament_create",
    "tournament_join",
    "tournament_leave",
]

MAX_SIZE = 128
Format = Tournament.Format


class TournamentRejected(Rejected):
    """A tournament request refused; nothing changed."""


class TournamentConflict(TournamentRejected):
    """Refused because of the tournament's state (full, started, already in): the API's 409."""


def tournament_create(
    *,
    staff: Any,
    name: str,
    variant: str,
    format: str,
    size: int,
    time_limit: timedelta,
    match_length: int | None = None,
    rated: bool = True,
    area: str = Tournament.Area.STANDARD,
    signup_closes_at: Any = None,
    members_only: bool = False,
    vacation_days_cap: int | None = None,
    time_control: TimeControl | None = None,
) -> Tournament:
    if not getattr(staff, "is_staff", False):
        raise TournamentRejected("Only staff can create tournaments", Refusal.NOT_PLAYER)
    name = name.strip()
    if not name or len(name) > 100:
        raise TournamentRejected("Give the tournament a name of 1 to 100 characters")
    if refusal := text_refusal(name, "tournament's name"):
        raise TournamentRejected(refusal)
    variant = variant.strip().upper()
    if variant not in VARIANTS or VARIANTS[variant].money:
        raise TournamentRejected(f"There is no tournament variant {variant!r}")
    if variant in MATCH_VARIANTS:
        length = match_length or VARIANTS[variant].match_length
    elif match_length in (None, 0, 1):
        length = 0
    else:
        raise TournamentRejected(f"{VARIANTS[variant].name} is a single game: its match length is 1")
    if format not in Format.values:
        raise TournamentRejected(f"Choose a format: {', '.join(Format.values)}")
    if not 2 <= size <= MAX_SIZE:
        raise TournamentRejected(f"A tournament has 2 to {MAX_SIZE} players, not {size}")
    if area not in Tournament.Area.values:
        raise TournamentRejected("Choose the area: standard or casual")
    if time_limit <= timedelta(0):
        raise TournamentRejected("The time limit per move must be positive")
    live = time_control is not None and time_control.is_live
    if live:
        assert time_control is not None
        time_limit = timedelta(seconds=time_control.delay_s + time_control.reserve_s)
    if vacation_days_cap is not None and not 0 <= vacation_days_cap <= MAX_VACATION_CAP_DAYS:
        raise TournamentRejected(
            f"The vacation cap is 0 to {MAX_VACATION_CAP_DAYS} days, or none to allow them all"
        )
    created = Tournament.objects.create(
        name=name, area=area, variant=variant, match_length=length, format=format, size=size,
        time_limit=time_limit, rated=rated, signup_closes_at=signup_closes_at,
        members_only=members_only, vacation_days_cap=vacation_days_cap,
        live_delay_s=time_control.delay_s if live and time_control else None,
        live_reserve_s=time_control.reserve_s if live and time_control else None,
    )
    publish_changed(TOURNAMENTS)
    return created


def changed(tournament: Tournament, *, listed: bool = False) -> None:
    """Its open pages ask again once this commits (and the Tournament area's, when ``listed``:
    its status, entrants or winner, shown there too, changed)."""
    publish_changed(tournament_topic(tournament.pk), *([TOURNAMENTS] if listed else []))


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentRejected("There is no such tournament", Refusal.NOT_FOUND) from None


def tournament_join(*, tournament_id: int, player: Any) -> Tournament:
    """Sign up; the tournament starts at once when this entry fills it."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.SIGNUP:
            raise TournamentConflict("This tournament is no longer taking sign-ups")
        if tournament.entries.filter(player=player).exists():
            raise TournamentConflict("You are already signed up for this tournament")
        if tournament.entries.count() >= tournament.size:
            raise TournamentConflict("This tournament is full")
        if tournament.members_only and not is_member(player):
            raise TournamentConflict("This tournament is for members only")
        other_area = Entry.objects.filter(
            player=player,
            tournament__variant=tournament.variant,
            tournament__status__in=[Tournament.Status.SIGNUP, Tournament.Status.RUNNING],
        ).exclude(tournament__area=tournament.area)
        if other_area.exists():
            raise TournamentConflict(
                f"You are already in a {tournament.get_variant_display()} tournament of the other "
                "area: a player plays in only one of the two areas at a time"
            )
        Entry.objects.create(tournament=tournament, player=player)
        changed(tournament, listed=True)
        if tournament.entries.count() == tournament.size:
            _start(tournament)
        return tournament


def tournament_leave(*, tournament_id: int, player: Any) -> Tournament:
    """Withdraw before the tournament starts."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.SIGNUP:
            raise TournamentConflict("This tournament has started: you can no longer withdraw")
        deleted, _ = tournament.entries.filter(player=player).delete()
        if not deleted:
            raise TournamentConflict("You are not signed up for this tournament")
        changed(tournament, listed=True)
        return tournament


def close_signups(now: Any = None) -> int:
    """Start every tournament whose sign-up window has closed with at least 2 players (cancel
    those with fewer). Returns how many started."""
    now = now or timezone.now()
    started = 0
    due = Tournament.objects.filter(status=Tournament.Status.SIGNUP, signup_closes_at__lte=now)
    for tournament_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            tournament = _locked(tournament_id)
            if tournament.status != Tournament.Status.SIGNUP:
                continue
            changed(tournament, listed=True)
            if tournament.entries.count() >= 2:
                _start(tournament)
                started += 1
            else:
                tournament.status = Tournament.Status.CANCELLED
                tournament.save(update_fields=["status"])
    return started


def _start(tournament: Tournament) -> None:
    entries = list(tournament.entries.select_related("player").order_by("joined_at", "pk"))
    # Seeds by rating, the earlier entry first among equals (sorted is stable).
    entries.sort(key=lambda entry: -rating_of(entry.player, tournament.variant))
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
        entry.save(update_fields=["seed"])
    players = [entry.player for entry in entries]
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    if tournament.format == Format.SINGLE_ELIMINATION:
        _start_single_elimination(tournament, players)
    elif tournament.format == Format.ROUND_ROBIN:
        for number, pairs in enumerate(round_robin_rounds(len(players)), start=1):
            for slot, (a, b) in enumerate(pairs):
                # Live, a round's matches start together when the one before it is over.
                _open_match(tournament, number, slot, players[a], players[b],
                            start=number == 1 or not tournament.is_live)
    else:
        _next_double_elimination_round(tournament)


def _open_match(
    tournament: Tournament, number: int, slot: int, a: Any, b: Any, bracket: str = "", *, start: bool = True
) -> TournamentMatch:
    """A match with both players known starts its game at once (unless ``start`` is False: a
    live round robin's later rounds); with ``b`` None it is a bye."""
    match = TournamentMatch(
        tournament=tournament, round=number, slot=slot, bracket=bracket, player_a=a, player_b=b
    )
    if b is None:
        match.bye, match.winner = True, a
    elif start:
        match.game = _game_for(tournament, a, b)
    match.save()
    return match


def _game_for(tournament: Tournament, a: Any, b: Any) -> Game:
    control = tournament.time_control()
    game = game_create(
        black=a, white=b, variant=tournament.variant, match_length=tournament.match_length,
        time_limit=tournament.time_limit, rated=tournament.rated, time_control=control,
    )
    if control is not None:
        schedule_no_show_check(game, control)
    return game


def _start_waiting_round(tournament: Tournament, number: int) -> None:
    """A live tournament's round ``number``: its matches whose players are known start together."""
    for match in tournament.matches.filter(round=number, game__isnull=True, bye=False, winner__isnull=True,
                                           player_a__isnull=False, player_b__isnull=False):
        match.game = _game_for(tournament, match.player_a, match.player_b)
        match.save(update_fields=["game"])


def _start_single_elimination(tournament: Tournament, players: list[Any]) -> None:
    size = bracket_size(len(players))
    order = seeding_order(size)
    seeded = {seed: player for seed, player in enumerate(players, start=1)}
    # Every round's places exist from the start; later rounds fill as winners come in.
    for slot in range(size // 2):
        a, b = seeded[order[2 * slot]], seeded.get(order[2 * slot + 1])
        _open_match(tournament, 1, slot, a, b)
    number, count = 2, size // 4
    while count >= 1:
        for slot in range(count):
            TournamentMatch.objects.create(tournament=tournament, round=number, slot=slot)
        number, count = number + 1, count // 2
    for bye in tournament.matches.filter(round=1, bye=True):
        _advance_single_elimination(tournament, bye)


def _advance_single_elimination(tournament: Tournament, match: TournamentMatch) -> None:
    following = tournament.matches.filter(round=match.round + 1, slot=match.slot // 2).first()
    if following is None:
        _finish(tournament, match.winner)
        return
    if match.slot % 2 == 0:
        following.player_a = match.winner
    else:
        following.player_b = match.winner
    if following.player_a_id and following.player_b_id and not tournament.is_live:
        following.game = _game_for(tournament, following.player_a, following.player_b)
    following.save()
    if tournament.is_live and not tournament.matches.filter(round=match.round, winner__isnull=True).exists():
        _start_waiting_round(tournament, match.round + 1)


def _losses(tournament: Tournament) -> dict[int, int]:
    entries = tournament.entries.values_list("player_id", flat=True)
    losses = {player_id: 0 for player_id in entries}
    for match in tournament.matches.filter(winner__isnull=False, bye=False):
        loser = match.player_b_id if match.winner_id == match.player_a_id else match.player_a_id
        losses[loser] += 1
    return losses


def _next_double_elimination_round(tournament: Tournament) -> None:
    """Players with no loss meet each other (the winners' bracket), players with one loss meet
    each other (the losers' bracket); two losses and you are out. When one unbeaten and one
    once-beaten player are left they meet in the final; if the unbeaten one loses it, both have
    one loss and meet again. An odd player out in a bracket has a bye."""
    losses = _losses(tournament)
    seeds = dict(tournament.entries.values_list("player_id", "seed"))
    alive = [player for player, lost in losses.items() if lost < 2]
    users = get_user_model()._default_manager.in_bulk(alive)
    if len(alive) == 1:
        _finish(tournament, users[alive[0]])
        return
    number = (tournament.matches.order_by("-round").values_list("round", flat=True).first() or 0) + 1
    unbeaten = sorted((p for p in alive if losses[p] == 0), key=seeds.__getitem__)
    beaten = sorted((p for p in alive if losses[p] == 1), key=seeds.__getitem__)
    if len(unbeaten) == 1 and len(beaten) == 1:
        _open_match(tournament, number, 0, users[unbeaten[0]], users[beaten[0]], "final")
        return
    had_bye = set(tournament.matches.filter(bye=True).values_list("player_a_id", flat=True))
    slot = 0
    for bracket, group in (("winners", unbeaten), ("losers", beaten)):
        group = list(group)
        if len(group) % 2:
            # The best seed without a bye yet sits out (or the best seed, if all had one).
            resting = next((p for p in group if p not in had_bye), group[0])
            group.remove(resting)
            _open_match(tournament, number, slot, users[resting], None, bracket)
            slot += 1
        for index in range(len(group) // 2):
            a, b = group[index], group[-1 - index]
            _open_match(tournament, number, slot, users[a], users[b], bracket)
            slot += 1


def _finish(tournament: Tournament, winner: Any) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.winner = winner
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "winner", "finished_at"])
    changed(tournament, listed=True)


def _record(tournament: Tournament, match: TournamentMatch, winner_id: int) -> None:
    """A match has its winner: the tournament moves on (under the tournament's lock)."""
    changed(tournament)
    match.winner_id = winner_id
    match.save(update_fields=["winner", "adjudication"])
    if tournament.format == Format.SINGLE_ELIMINATION:
        match.refresh_from_db()
        _advance_single_elimination(tournament, match)
        return
    open_in_round = tournament.matches.filter(round=match.round, winner__isnull=True)
    if tournament.format == Format.DOUBLE_ELIMINATION:
        if not open_in_round.exists():
            _next_double_elimination_round(tournament)
        return
    if tournament.is_live and not open_in_round.exists():
        _start_waiting_round(tournament, match.round + 1)
    if not tournament.matches.filter(winner__isnull=True).exists():
        table = standings(tournament)
        _finish(tournament, get_user_model()._default_manager.get(username=table[0]["username"]))


def on_match_finished(sender: Any, game: Game, how: str, **kwargs: Any) -> None:
    """A game ended: if it is a tournament's, its winner moves on; a drawn game (Anti-Backgammon)
    is played again; an aborted one waits for staff to adjudicate the match."""
    tournament_id = (
        TournamentMatch.objects.filter(game=game).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    match = TournamentMatch.objects.select_related("player_a", "player_b").get(game=game)
    if tournament.status != Tournament.Status.RUNNING or match.winner_id is not None:
        return
    if game.winner_id is not None:
        _record(tournament, match, game.winner_id)
    elif how == "played":
        match.game = _game_for(tournament, match.player_a, match.player_b)
        match.save(update_fields=["game"])
        changed(tournament)


def tournament_adjudicate(*, match_id: int, staff: Any, winner: Any, reason: str) -> TournamentMatch:
    """Staff decide a match, the reason logged: through the game while it is being played (the
    game's own log keeps the reason), else on the match itself."""
    if not getattr(staff, "is_staff", False):
        raise TournamentRejected("Only staff can adjudicate a match", Refusal.NOT_PLAYER)
    match = TournamentMatch.objects.filter(pk=match_id).select_related("game").first()
    if match is None:
        raise TournamentRejected("There is no such match", Refusal.NOT_FOUND)
    if winner.pk not in (match.player_a_id, match.player_b_id) or match.bye:
        raise TournamentRejected(f"The player {winner.get_username()} does not play in this match")
    if match.game is not None and match.game.status == Game.Status.ACTIVE:
        game_adjudicate(game_id=match.game.pk, staff=staff, winner=winner, reason=reason)
        return TournamentMatch.objects.get(pk=match_id)
    reason = reason.strip()
    if not reason:
        raise TournamentRejected("Give a reason: it is kept with the match")
    with transaction.atomic():
        tournament = _locked(match.tournament_id)
        match = TournamentMatch.objects.get(pk=match_id)
        if tournament.status != Tournament.Status.RUNNING or match.winner_id is not None:
            raise TournamentConflict("This match is already decided")
        match.adjudication = f"{reason[:450]} ({staff.get_username()})"
        _record(tournament, match, winner.pk)
        return match


def tournament_cancel(*, tournament_id: int, staff: Any, reason: str) -> Tournament:
    """Staff call a tournament off; its games in progress are aborted with the reason."""
    if not getattr(staff, "is_staff", False):
        raise TournamentRejected("Only staff can cancel a tournament", Refusal.NOT_PLAYER)
    if not reason.strip():
        raise TournamentRejected("Give a reason for cancelling")
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentConflict(f"This tournament is already {tournament.status}")
        tournament.status = Tournament.Status.CANCELLED
        tournament.save(update_fields=["status"])
        changed(tournament, listed=True)
    from backgammon.services import game_abort

    games = Game.objects.filter(tournament_match__tournament=tournament, status=Game.Status.ACTIVE)
    for game_id in games.values_list("pk", flat=True):
        game_abort(game_id=game_id, staff=staff, reason=f"Tournament cancelled: {reason.strip()}")
    return tournament


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Every player with their place, wins and losses (a bye is no win), best first: round robin
    by its tie-breaks, a place each; the eliminations by the furthest round reached, where the
    players out in the same round with as many losses share a place (a knock-out's two beaten
    semi-finalists are both 3rd, and the next is 5th)."""
    entries = list(tournament.entries.select_related("player").order_by("seed", "joined_at", "pk"))
    names = {entry.player_id: entry.player.get_username() for entry in entries}
    played = list(tournament.matches.filter(winner__isnull=False, bye=False))
    results = []
    for match in played:
        loser = match.player_b_id if match.winner_id == match.player_a_id else match.player_a_id
        results.append(Result(match.winner_id, loser))
    wins = {player: sum(1 for r in results if r.winner == player) for player in names}
    losses = {player: sum(1 for r in results if r.loser == player) for player in names}
    if tournament.format == Format.ROUND_ROBIN:
        rating = {player: rating_of(entry.player, tournament.variant)
                  for player, entry in zip(names, entries, strict=True)}
        order = rank_round_robin(list(names), results, rating)
        places = {player: place for place, player in enumerate(order, start=1)}
    else:
        reached = {player: 0 for player in names}
        for match in tournament.matches.filter(Q(player_a__isnull=False) | Q(player_b__isnull=False)):
            for player in (match.player_a_id, match.player_b_id):
                if player in reached:
                    reached[player] = max(reached[player], match.round)
        def out_in(p: int) -> tuple[bool, int, int]:
            return p != tournament.winner_id, losses[p], -reached[p]

        order = sorted(names, key=lambda p: (*out_in(p), -wins[p]))
        places = shared_places(order, out_in)
    return [{"place": places[p], "username": names[p], "wins": wins[p], "losses": losses[p]} for p in order]
