"""Ladder services: create, join, leave, challenge, the results of ladder games and the drop of
inactive players.

Every change takes the ladder's row lock first, so two results, a join and a leave on one ladder
take turns and the ranks stay 1, 2, 3... without gaps or repeats.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.membership import is_member
from backgammon.engine import MAX_MATCH_LENGTH, VARIANTS
from backgammon.live_topics import LADDERS, publish_changed
from backgammon.models import TIME_LIMITS, Challenge, Game
from backgammon.services import MATCH_VARIANTS, Refusal, Rejected, challenge_create
from gamesite.text import text_refusal
from tournaments.models import Ladder, LadderMatch, LadderRung
from tournaments.models.vacation_caps import MAX_VACATION_CAP_DAYS

__all__ = [
    "CHALLENGE_REACH",
    "MAX_OPEN_CHALLENGES",
    "LadderConflict",
    "LadderRejected",
    "challengeable_player_ids",
    "challengeable_ranks",
    "ladder_challenge",
    "ladder_create",
    "ladder_drop_inactive",
    "ladder_join",
    "ladder_leave",
    "ladder_record_result",
    "ladder_terms",
    "open_ladder_matches",
]

CHALLENGE_REACH = 20
"""A player may challenge anyone at most this many places above."""
MAX_OPEN_CHALLENGES = 2
"""Open ladder challenges (pending, or a game in progress) a player may have made per ladder."""
_TIME_LIMIT_VALUES = frozenset(value for value, _ in TIME_LIMITS)


class LadderRejected(Rejected):
    """A ladder request that is not allowed; nothing was changed."""


class LadderConflict(LadderRejected):
    """Joining a ladder one is on, or leaving one is not on (the API answers 409)."""


def _locked_ladder(ladder_id: int) -> Ladder:
    try:
        return Ladder.objects.select_for_update().get(pk=ladder_id)
    except Ladder.DoesNotExist:
        raise LadderRejected("There is no such ladder.", Refusal.NOT_FOUND) from None


def _ladder_match_length(variant: str, match_length: int | None) -> int:
    if variant not in MATCH_VARIANTS:
        if match_length not in (None, 0, 1):
            raise LadderRejected(f"{VARIANTS[variant].name} is a single game: its match length is 1.")
        return 0
    if match_length is None or not 1 <= match_length <= MAX_MATCH_LENGTH:
        raise LadderRejected(f"A ladder's matches are played to 1 to {MAX_MATCH_LENGTH} points.")
    return match_length


def ladder_terms(*, variant: str, match_length: int | None, time_limit: timedelta) -> tuple[str, int]:
    """The variant code and stored match length (0 for a single game) of acceptable ladder
    terms; LadderRejected says what is wrong otherwise (the admin's form asks here too)."""
    variant = variant.strip().upper()
    if variant not in VARIANTS or VARIANTS[variant].money:
        rated = ", ".join(code for code, v in VARIANTS.items() if not v.money)
        raise LadderRejected(f"A ladder is played in a rated variant: one of {rated}.")
    length = _ladder_match_length(variant, match_length)
    if time_limit not in _TIME_LIMIT_VALUES:
        raise LadderRejected("Choose a time limit per move from the site's list, e.g. 24 or 48 hours.")
    return variant, length


def ladder_create(
    *,
    staff: Any,
    name: str,
    variant: str,
    match_length: int | None,
    time_limit: timedelta,
    members_only: bool = False,
    inactivity_days: int | None = None,
    vacation_days_cap: int | None = None,
) -> Ladder:
    """A new, empty ladder (staff only)."""
    if not getattr(staff, "is_staff", False):
        raise LadderRejected("Only staff can create ladders.", Refusal.NOT_PLAYER)
    name = name.strip()
    if not name or len(name) > 100:
        raise LadderRejected("Give the ladder a name of 1 to 100 characters.")
    if refusal := text_refusal(name, "ladder's name"):
        raise LadderRejected(refusal)
    variant, length = ladder_terms(variant=variant, match_length=match_length, time_limit=time_limit)
    if inactivity_days is not None and not 1 <= inactivity_days <= 365:
        raise LadderRejected("A ladder drops inactive players after 1 to 365 days.")
    if vacation_days_cap is not None and not 0 <= vacation_days_cap <= MAX_VACATION_CAP_DAYS:
        raise LadderRejected(
            f"The vacation cap is 0 to {MAX_VACATION_CAP_DAYS} days, or none to allow them all."
        )
    if Ladder.objects.filter(name__iexact=name).exists():
        raise LadderRejected(f"There is already a ladder called {name!r}.")
    extra = {} if inactivity_days is None else {"inactivity_days": inactivity_days}
    publish_changed(LADDERS)
    return Ladder.objects.create(
        name=name, variant=variant, match_length=length, time_limit=time_limit,
        members_only=members_only, vacation_days_cap=vacation_days_cap, created_by=staff, **extra,
    )


def ladder_join(*, ladder_id: int, player: Any) -> LadderRung:
    """Put ``player`` at the bottom of the ladder."""
    with transaction.atomic():
        ladder = _locked_ladder(ladder_id)
        if ladder.rungs.filter(player=player).exists():
            raise LadderConflict(f"You are already on the ladder {ladder.name}.")
        if ladder.members_only and not is_member(player):
            raise LadderConflict(f"The ladder {ladder.name} is for members only.")
        bottom = ladder.rungs.count()
        publish_changed(LADDERS)
        return LadderRung.objects.create(ladder=ladder, player=player, rank=bottom + 1)


def _remove(rung: LadderRung) -> None:
    # Everyone below moves up one place.
    publish_changed(LADDERS)
    rung.delete()
    LadderRung.objects.filter(ladder_id=rung.ladder_id, rank__gt=rung.rank).update(rank=F("rank") - 1)


def ladder_leave(*, ladder_id: int, player: Any) -> None:
    """Take ``player`` off the ladder; everyone below moves up."""
    with transaction.atomic():
        ladder = _locked_ladder(ladder_id)
        rung = ladder.rungs.filter(player=player).first()
        if rung is None:
            raise LadderConflict(f"You are not on the ladder {ladder.name}.")
        _remove(rung)


def open_ladder_matches(ladder: Ladder) -> QuerySet[LadderMatch]:
    """The ladder's challenges still waiting for an answer or being played."""
    return ladder.matches.filter(
        Q(challenge__status=Challenge.Status.PENDING)
        | Q(challenge__status=Challenge.Status.ACCEPTED, challenge__game__status=Game.Status.ACTIVE)
    )


def challengeable_ranks(rank: int) -> range:
    """The ranks a player at ``rank`` may challenge: up to CHALLENGE_REACH places above."""
    return range(max(1, rank - CHALLENGE_REACH), rank)


def challengeable_player_ids(ladder: Ladder, player: Any) -> set[int]:
    """Whom ``player`` may challenge on ``ladder`` now (none when off it or at the open limit)."""
    mine = ladder.rungs.filter(player=player).first() if player.is_authenticated else None
    if mine is None or _open_count(ladder, player) >= MAX_OPEN_CHALLENGES:
        return set()
    reach = challengeable_ranks(mine.rank)
    return set(ladder.rungs.filter(rank__gte=reach.start, rank__lt=reach.stop)
               .values_list("player_id", flat=True))


def _open_count(ladder: Ladder, player: Any) -> int:
    return open_ladder_matches(ladder).filter(challenger=player).count()


def _opponent_rung(ladder: Ladder, challenger: Any, opponent: str) -> tuple[LadderRung, LadderRung]:
    mine = ladder.rungs.filter(player=challenger).first()
    if mine is None:
        raise LadderRejected(f"Join the ladder {ladder.name} before you challenge anyone on it.")
    opponent = opponent.strip()
    if opponent.lower() == challenger.get_username().lower():
        raise LadderRejected("You cannot challenge yourself.")
    theirs = ladder.rungs.select_related("player").filter(player__username__iexact=opponent).first()
    if theirs is None:
        raise LadderRejected(f"{opponent or 'Nobody'} is not on the ladder {ladder.name}.")
    name = theirs.player.get_username()
    if theirs.rank > mine.rank:
        raise LadderRejected(f"{name} is below you (rank {theirs.rank}, you are {mine.rank}): "
                             "challenge players above you.")
    if theirs.rank not in challengeable_ranks(mine.rank):
        raise LadderRejected(f"{name} is {mine.rank - theirs.rank} places above you: you may "
                             f"challenge players at most {CHALLENGE_REACH} places above.")
    return mine, theirs


def ladder_challenge(*, ladder_id: int, challenger: Any, opponent: str) -> Challenge:
    """A rated challenge, on the ladder's terms, to a player at most 20 places above."""
    with transaction.atomic():
        ladder = _locked_ladder(ladder_id)
        _, theirs = _opponent_rung(ladder, challenger, opponent)
        if _open_count(ladder, challenger) >= MAX_OPEN_CHALLENGES:
            raise LadderRejected(f"You already have {MAX_OPEN_CHALLENGES} open challenges on the "
                                 f"ladder {ladder.name}: finish one first.")
        challenge = challenge_create(
            challenger=challenger,
            opponent=theirs.player.get_username(),
            variant=ladder.variant,
            match_length=ladder.match_length or None,
            time_limit=ladder.time_limit,
            rated=True,
            message=f"A challenge on the ladder {ladder.name}.",
            # Ladder games are never refused for, nor counted in, a non-member's game limit.
            counts_toward_limit=False,
        )
        LadderMatch.objects.create(
            ladder=ladder, challenge=challenge, challenger=challenger, defender=theirs.player
        )
        return challenge


def ladder_record_result(*, game: Game) -> None:
    """Record a finished ladder game (called inside the transaction that ends it).

    The challenger who beats a higher player takes the loser's place, and everyone from there
    down to the challenger's old place moves down one; any other result changes no places.
    """
    match = LadderMatch.objects.filter(challenge__game=game, finished_at__isnull=True).first()
    if match is None:
        return
    ladder = _locked_ladder(match.ladder_id)
    now = timezone.now()
    match.winner_id = game.winner_id
    match.finished_at = now
    match.save(update_fields=["winner", "finished_at"])
    if game.winner_id is None:
        return  # aborted by staff: no result to record
    publish_changed(LADDERS)  # records and perhaps places: the Ladder area's pages ask again
    rungs = {r.player_id: r for r in ladder.rungs.filter(player__in=[match.challenger_id, match.defender_id])}
    for player_id, rung in rungs.items():
        won = player_id == game.winner_id
        LadderRung.objects.filter(pk=rung.pk).update(
            wins=F("wins") + int(won), losses=F("losses") + int(not won), last_game_at=now
        )
    challenger, defender = rungs.get(match.challenger_id), rungs.get(match.defender_id)
    if challenger is None or defender is None:
        return  # one of them has left the ladder: no places to exchange
    if game.winner_id == match.challenger_id and defender.rank < challenger.rank:
        ladder.rungs.filter(rank__gte=defender.rank, rank__lt=challenger.rank).update(rank=F("rank") + 1)
        LadderRung.objects.filter(pk=challenger.pk).update(rank=defender.rank)


def _inactive(ladder: Ladder, now: datetime) -> QuerySet[LadderRung]:
    playing = open_ladder_matches(ladder).filter(challenge__status=Challenge.Status.ACCEPTED)
    busy = [*playing.values_list("challenger_id", flat=True), *playing.values_list("defender_id", flat=True)]
    return (
        ladder.rungs.annotate(since=Coalesce("last_game_at", "joined_at"))
        .filter(since__lt=now - ladder.inactivity_limit)
        .exclude(player__in=busy)
    )


def ladder_drop_inactive(*, now: datetime | None = None) -> int:
    """Drop every player with no ladder game for the ladder's inactivity days (a game in progress
    counts as activity); returns how many were dropped."""
    now = now or timezone.now()
    dropped = 0
    for ladder_id in _ladders_with_inactive(now):
        with transaction.atomic():
            ladder = _locked_ladder(ladder_id)
            for rung in _inactive(ladder, now).order_by("-rank"):
                _remove(rung)
                dropped += 1
    return dropped


def _ladders_with_inactive(now: datetime) -> list[int]:
    # A cheap look without locks first: the worker asks every few seconds, and most of the time
    # nobody is due.
    return [ladder.pk for ladder in Ladder.objects.all() if _inactive(ladder, now).exists()]
