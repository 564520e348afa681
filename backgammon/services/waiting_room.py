"""The waiting room: open challenges that anyone may join (ItsYourTurn's "Waiting Room").

An open challenge is a ``Challenge`` with no ``challenged`` player yet and, if its creator wants,
a rating range for whoever joins. Joining starts the game exactly as accepting a named challenge
does (``challenge_start_game`` under the challenge's row lock), so two players joining at once
start one game and the second is told the challenge is gone. Players on either side's ignore list
never see each other's open challenges and cannot join them.

A live open challenge (issue 31) starts a live match at once, so it is listed, and may be joined,
only while its creator is here (``accounts.presence.here_for_live``: seen in the last two minutes,
as an open page of the site keeps its player): an offer of a player who left drops out of the
room and comes back with them. Joining re-checks it under the challenge's lock. Putting a live
offer in marks its creator here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet

from accounts.presence import here_for_live, mark_here_for_live
from accounts.relations import either_ignores, ignore_wall_ids
from backgammon.engine import VARIANTS
from backgammon.engine.clock import TimeControl
from backgammon.models import Challenge, Game

from .challenges import challenge_start_game, challenge_terms
from .game_limit import game_limit_check, lock_players
from .ratings_source import ratings_in
from .refusals import ChallengeRejected, Refusal

__all__ = [
    "MAX_OPEN_CHALLENGES",
    "RATING_BOUNDS",
    "OpenChallengeFilters",
    "open_challenge_create",
    "open_challenge_join",
    "open_challenge_withdraw",
    "open_challenges_for",
    "rating_allows",
]

MAX_OPEN_CHALLENGES = 20
"""Open challenges one player may have waiting at once (keeps the room readable)."""
RATING_BOUNDS = (1, 5000)
_GONE = "This open challenge is no longer in the waiting room: someone joined it or it was withdrawn."
_LEFT = "This live challenge's player has left the waiting room: it comes back when they do."


def _rating_range(variant: str, min_rating: int | None, max_rating: int | None) -> None:
    if min_rating is None and max_rating is None:
        return
    if VARIANTS[variant].money:
        raise ChallengeRejected("Money play is not rated: leave the rating range empty")
    low, high = RATING_BOUNDS
    for bound in (min_rating, max_rating):
        if bound is not None and not low <= bound <= high:
            raise ChallengeRejected(f"A rating range is given in ratings from {low} to {high}")
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise ChallengeRejected("The lowest rating must not be above the highest")


def open_challenge_create(
    *,
    challenger: Any,
    variant: str,
    match_length: int | None = None,
    time_limit: timedelta,
    rated: bool = True,
    message: str = "",
    jacoby: bool = False,
    beavers: bool = False,
    automatic_doubles: int = 0,
    stake: int | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    time_control: TimeControl | None = None,
) -> Challenge:
    """Put an open challenge in the waiting room; same rules and refusals as a named challenge."""
    terms = challenge_terms(
        variant=variant, match_length=match_length, time_limit=time_limit, message=message,
        jacoby=jacoby, beavers=beavers, automatic_doubles=automatic_doubles, stake=stake,
        time_control=time_control,
    )
    _rating_range(terms["variant"], min_rating, max_rating)
    rated = rated and not VARIANTS[terms["variant"]].money
    with transaction.atomic():
        # The player's row lock counts their open challenges and games one request at a time.
        lock_players(challenger)
        game_limit_check(challenger)
        waiting = Challenge.objects.filter(
            challenger=challenger, challenged__isnull=True, status=Challenge.Status.PENDING
        ).count()
        if waiting >= MAX_OPEN_CHALLENGES:
            raise ChallengeRejected(
                f"You already have {MAX_OPEN_CHALLENGES} open challenges waiting: withdraw one first"
            )
        made = Challenge.objects.create(
            challenger=challenger,
            challenged=None,
            rated=rated,
            min_rating=min_rating,
            max_rating=max_rating,
            **terms,
        )
    if made.is_live:
        mark_here_for_live(challenger.pk)
    return made


def rating_allows(challenge: Challenge, rating: float | None) -> bool:
    """Whether a player with ``rating`` (None: unknown) is within the challenge's range."""
    if challenge.min_rating is None and challenge.max_rating is None:
        return True
    if rating is None:
        return False
    if challenge.min_rating is not None and rating < challenge.min_rating:
        return False
    return challenge.max_rating is None or rating <= challenge.max_rating


def _locked_open_challenge(challenge_id: int) -> Challenge:
    try:
        return Challenge.objects.select_for_update(of=("self",)).select_related("challenger").get(
            pk=challenge_id, challenged__isnull=True
        )
    except Challenge.DoesNotExist:
        raise ChallengeRejected("There is no such open challenge", Refusal.NOT_FOUND) from None


def open_challenge_join(*, challenge_id: int, actor: Any) -> Game:
    """Join an open challenge: the game starts (its creator Black) with its opening roll."""
    with transaction.atomic():
        challenge = _locked_open_challenge(challenge_id)
        if challenge.challenger_id == actor.pk:
            raise ChallengeRejected("This is your own open challenge: wait for someone to join it")
        # An ignored player is told the same as anyone for whom the challenge is not there.
        if either_ignores(actor, challenge.challenger):
            raise ChallengeRejected("There is no such open challenge", Refusal.NOT_FOUND)
        if challenge.status != Challenge.Status.PENDING:
            raise ChallengeRejected(_GONE)
        if challenge.is_live and not _is_here(challenge.challenger_id):
            raise ChallengeRejected(_LEFT)
        rating = ratings_in(challenge.variant, [actor.pk]).get(actor.pk)
        if not rating_allows(challenge, rating):
            raise ChallengeRejected(
                f"This challenge is for players rated {_range_words(challenge)} in {challenge.variant_name}"
            )
        return challenge_start_game(challenge, actor)


def open_challenge_withdraw(*, challenge_id: int, actor: Any) -> Challenge:
    """The creator takes an open challenge out of the waiting room."""
    with transaction.atomic():
        challenge = _locked_open_challenge(challenge_id)
        if challenge.challenger_id != actor.pk:
            raise ChallengeRejected("Only its creator can withdraw an open challenge", Refusal.NOT_PLAYER)
        if challenge.status != Challenge.Status.PENDING:
            raise ChallengeRejected(_GONE)
        challenge.status = Challenge.Status.WITHDRAWN
        challenge.save(update_fields=["status"])
        return challenge


def _is_here(user_id: int) -> bool:
    return here_for_live().filter(user_id=user_id).exists()


def _range_words(challenge: Challenge) -> str:
    return challenge.rating_range_label


@dataclass(frozen=True)
class OpenChallengeFilters:
    """What the waiting room's visitor asked to see; None means any."""

    variant: str | None = None
    match_length: int | None = None
    time_limit: timedelta | None = None
    rated: bool | None = None
    joinable_only: bool = False
    live: bool | None = None
    """True: live offers only (the Live tab); False: correspondence only; None: both."""


@dataclass(frozen=True)
class OpenChallengeRow:
    challenge: Challenge
    joinable: bool
    why_not: str


ROOM_SIZE = 200
"""At most this many open challenges are listed at once (the oldest first)."""


def _visible(user: Any, live: bool | None) -> QuerySet[Challenge]:
    room = Challenge.objects.filter(challenged__isnull=True, status=Challenge.Status.PENDING)
    room = room.filter(challenger__is_active=True)
    if live is False:  # correspondence only: no one's presence to ask
        room = room.filter(live_reserve_s__isnull=True)
    else:
        # A live offer is there while its player is (one subquery on an indexed column).
        here = here_for_live().values("user_id")
        room = room.filter(Q(live_reserve_s__isnull=True) | Q(challenger_id__in=here))
        if live:
            room = room.filter(live_reserve_s__isnull=False)
    if user is not None and user.is_authenticated:
        room = room.exclude(challenger_id__in=ignore_wall_ids(user))
    return room


def open_challenges_for(user: Any, filters: OpenChallengeFilters | None = None) -> list[OpenChallengeRow]:
    """The open challenges ``user`` may see, filtered, with whether they may join each one
    (their own are listed too, to withdraw). A bounded number of queries whatever the size."""
    filters = filters or OpenChallengeFilters()
    room = _visible(user, filters.live)
    if filters.variant:
        room = room.filter(variant=filters.variant)
    if filters.match_length is not None:
        room = room.filter(match_length=filters.match_length)
    if filters.time_limit is not None:
        room = room.filter(time_limit=filters.time_limit)
    if filters.rated is not None:
        room = room.filter(rated=filters.rated)
    challenges = list(room.select_related("challenger").order_by("created_at", "pk")[:ROOM_SIZE])
    ranged_variants = {c.variant for c in challenges if c.min_rating is not None or c.max_rating is not None}
    my_ratings = {variant: ratings_in(variant, [user.pk]).get(user.pk) for variant in ranged_variants}
    rows = []
    for challenge in challenges:
        why_not = ""
        if challenge.challenger_id == user.pk:
            why_not = "Yours"
        elif not rating_allows(challenge, my_ratings.get(challenge.variant)):
            why_not = f"For ratings {_range_words(challenge)}"
        if filters.joinable_only and why_not:
            continue
        rows.append(OpenChallengeRow(challenge=challenge, joinable=not why_not, why_not=why_not))
    return rows
