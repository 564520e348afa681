"""Challenges: one player invites another to a game with chosen rules; accepting starts the game."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.relations import either_ignores
from backgammon.engine import MAX_MATCH_LENGTH, VARIANTS
from backgammon.engine.clock import TimeControl
from backgammon.models import TIME_LIMITS, Challenge, Game
from backgammon.signals import challenge_created
from gamesite.text import text_refusal

from .game_limit import game_limit_check, is_computer_opponent, lock_players
from .games import game_start
from .refusals import ChallengeRejected, Refusal

__all__ = [
    "CHALLENGE_MESSAGE_MAX",
    "DEFAULT_MATCH_LENGTHS",
    "MATCH_VARIANTS",
    "MAX_AUTOMATIC_DOUBLES",
    "MAX_STAKE",
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "challenge_expire",
    "challenge_start_game",
    "challenge_terms",
    "challenge_withdraw",
    "game_create",
    "live_fields",
]

CHALLENGE_MESSAGE_MAX = 500
# Matches to any length are offered for the variants played with the cube, as on ItsYourTurn;
# the others are single games.
DEFAULT_MATCH_LENGTHS = {code: v.match_length for code, v in VARIANTS.items() if v.is_match}
MATCH_VARIANTS = frozenset(DEFAULT_MATCH_LENGTHS)
NOT_CHALLENGEABLE = "That player cannot receive your challenges."
"""The same words whichever side ignores the other (as for messages), so nobody learns that
they are ignored."""
MAX_AUTOMATIC_DOUBLES = 3
MAX_STAKE = 1000
_TIME_LIMIT_VALUES = frozenset(value for value, _ in TIME_LIMITS)
# A live challenge is for a player who is here now: unanswered this long, it lapses.
LIVE_CHALLENGE_EXPIRY = timedelta(minutes=2)
LIVE_CHALLENGE_EXPIRED = "This live challenge has expired: it was not answered within 2 minutes"


def live_fields(control: TimeControl | None) -> dict[str, Any]:
    """The columns of a challenge or game for ``control`` (None or correspondence: not live).

    A live game's ``time_limit`` (a column every list reads) holds its delay plus reserve.
    """
    if control is None or not control.is_live:
        return {"live_delay_s": None, "live_reserve_s": None}
    return {
        "live_delay_s": control.delay_s,
        "live_reserve_s": control.reserve_s,
        "time_limit": timedelta(seconds=control.delay_s + control.reserve_s),
    }


def _match_length(variant: str, match_length: int | None) -> int:
    if variant not in MATCH_VARIANTS:
        if match_length:
            name = VARIANTS[variant].name
            raise ChallengeRejected(f"{name} is a single game: it has no match length")
        return 0
    if match_length is None:
        return DEFAULT_MATCH_LENGTHS[variant]
    if not 1 <= match_length <= MAX_MATCH_LENGTH:
        raise ChallengeRejected(f"A match is played to 1 to {MAX_MATCH_LENGTH} points, not {match_length}")
    return match_length


def _money_options(
    variant: str, *, jacoby: bool, beavers: bool, automatic_doubles: int, stake: int | None
) -> dict[str, Any]:
    if not VARIANTS[variant].money:
        if jacoby or beavers or automatic_doubles or stake:
            raise ChallengeRejected(
                "The Jacoby rule, beavers, automatic doubles and stakes belong to the money game (MP)"
            )
        return {"jacoby": False, "beavers": False, "automatic_doubles": 0, "stake": 0}
    if not 0 <= automatic_doubles <= MAX_AUTOMATIC_DOUBLES:
        raise ChallengeRejected(f"Automatic doubles can be limited to 0 to {MAX_AUTOMATIC_DOUBLES}")
    stake = 1 if stake is None else stake
    if not 1 <= stake <= MAX_STAKE:
        raise ChallengeRejected(f"The stake is 1 to {MAX_STAKE} points per point")
    return {"jacoby": jacoby, "beavers": beavers, "automatic_doubles": automatic_doubles, "stake": stake}


def challenge_terms(
    *,
    variant: str,
    match_length: int | None,
    time_limit: timedelta,
    message: str,
    jacoby: bool,
    beavers: bool,
    automatic_doubles: int,
    stake: int | None,
    time_control: TimeControl | None = None,
) -> dict[str, Any]:
    """A challenge's rules checked and normalised (the fields of ``Challenge``), or a refusal:
    the named challenge and the waiting room's open one share them.

    ``time_control`` (checked by the engine when it was built) takes the place of ``time_limit``:
    a live one makes a live game, a correspondence one names the limit per move."""
    variant = variant.strip().upper()
    if variant not in VARIANTS:
        raise ChallengeRejected(f"There is no variant {variant[:20]!r}; choose one of {', '.join(VARIANTS)}")
    length = _match_length(variant, match_length)
    if time_control is not None and not time_control.is_live:
        time_limit = timedelta(seconds=time_control.per_move_s)
    if time_limit not in _TIME_LIMIT_VALUES and not (time_control and time_control.is_live):
        raise ChallengeRejected("Choose a time limit per move from the list")
    message = message.strip()
    if len(message) > CHALLENGE_MESSAGE_MAX:
        raise ChallengeRejected(f"A message can be at most {CHALLENGE_MESSAGE_MAX} characters")
    refusal = text_refusal(message, "message")
    if refusal:
        raise ChallengeRejected(refusal)
    money = _money_options(
        variant, jacoby=jacoby, beavers=beavers, automatic_doubles=automatic_doubles, stake=stake
    )
    return {
        "variant": variant, "match_length": length, "time_limit": time_limit, "message": message, **money,
        **live_fields(time_control),
    }


def _opponent(challenger: Any, username: str) -> Any:
    username = username.strip()
    if not username:
        raise ChallengeRejected("Name the player you want to challenge")
    user_model = get_user_model()
    try:
        opponent = user_model._default_manager.get(username__iexact=username)
    except user_model.DoesNotExist:
        raise ChallengeRejected(f"There is no player called {username!r}") from None
    if opponent.pk == challenger.pk:
        raise ChallengeRejected("You cannot challenge yourself")
    if not opponent.is_active:
        raise ChallengeRejected(f"The player {opponent.get_username()} no longer plays here")
    return opponent


def challenge_create(
    *,
    challenger: Any,
    opponent: str,
    variant: str,
    match_length: int | None = None,
    time_limit: timedelta,
    rated: bool = True,
    message: str = "",
    jacoby: bool = False,
    beavers: bool = False,
    automatic_doubles: int = 0,
    stake: int | None = None,
    counts_toward_limit: bool = True,
    time_control: TimeControl | None = None,
    rematch_of: Game | None = None,
) -> Challenge:
    """Invite the player named ``opponent`` (a username, any case) to a game with these rules.

    ``match_length`` None means the variant's default (5, or 9 for B9); single-game variants take
    none. ``stake`` None means 1 for the money game. ``counts_toward_limit`` False (a ladder's
    challenge) keeps the game out of the non-members' game limit; so does a computer opponent.
    A live ``time_control`` makes a live challenge, which lapses unanswered after 2 minutes.
    """
    terms = challenge_terms(
        variant=variant, match_length=match_length, time_limit=time_limit, message=message,
        jacoby=jacoby, beavers=beavers, automatic_doubles=automatic_doubles, stake=stake,
        time_control=time_control,
    )
    other = _opponent(challenger, opponent)
    # A challenge carries a message to the inbox, so the ignore list refuses it like a message;
    # a ladder's challenge (not counted) is the ladder's duty and is not refused for it, but
    # its message stays on this side of the wall (else withdrawing and challenging again
    # would put one in the ignorer's inbox at will).
    if either_ignores(challenger, other):
        if counts_toward_limit:
            raise ChallengeRejected(NOT_CHALLENGEABLE)
        terms["message"] = ""
    counted = counts_toward_limit and not is_computer_opponent(other)
    variant = terms["variant"]
    try:
        # The database's unique constraint (one pending challenge per pair and variant) decides,
        # so two requests at the same moment cannot both pass a check made before the insert.
        with transaction.atomic():
            if counted:
                lock_players(challenger)
                game_limit_check(challenger)
            challenge = Challenge.objects.create(
                challenger=challenger,
                challenged=other,
                rated=rated,
                counts_toward_limit=counted,
                rematch_of=rematch_of,
                **terms,
            )
    except IntegrityError:
        raise ChallengeRejected(
            f"You already have a {VARIANTS[variant].name} challenge waiting for {other.get_username()}."
        ) from None
    if challenge.is_live:
        transaction.on_commit(partial(_schedule_expiry, challenge.pk, challenge.created_at + LIVE_CHALLENGE_EXPIRY))
    transaction.on_commit(
        partial(
            challenge_created.send,
            sender=Challenge,
            challenge_id=challenge.pk,
            challenged_id=other.pk,
            challenger_id=challenger.pk,
        )
    )
    return challenge


def live_challenge_just_accepted(user: Any) -> int | None:
    """The game of ``user``'s live challenge accepted in the last 2 minutes (its lapse), while it is
    being played: the challenger's open status and home pages go there at the news of it, as the
    Waiting Room takes a live offer's player to the game when their offer is joined."""
    return (Challenge.objects.filter(
        challenger=user, status=Challenge.Status.ACCEPTED, live_reserve_s__isnull=False,
        responded_at__gt=timezone.now() - LIVE_CHALLENGE_EXPIRY, game__status=Game.Status.ACTIVE,
    ).order_by("-responded_at").values_list("game_id", flat=True).first())


NO_SUCH_CHALLENGE = "There is no such challenge"
OPEN_CHALLENGE_ELSEWHERE = (
    "There is no such challenge to a named player: an open challenge is withdrawn from the waiting room"
)


def _locked_challenge(challenge_id: int, actor: Any, *, role: str) -> Challenge:
    # The row lock makes an accept and a withdraw of one challenge (or two accepts) take turns:
    # the second sees the first one's status and is refused, so a challenge starts one game at most.
    try:
        challenge = Challenge.objects.select_for_update(of=("self",)).select_related(
            "challenger", "challenged"
        ).get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise ChallengeRejected(NO_SUCH_CHALLENGE, Refusal.NOT_FOUND) from None
    if challenge.challenged_id is None:
        # An open (waiting-room) challenge has its own calls (waiting_room.py), which the pages
        # and the API answer with its own fields; here it would be half handled.
        words = OPEN_CHALLENGE_ELSEWHERE if challenge.challenger_id == actor.pk else NO_SUCH_CHALLENGE
        raise ChallengeRejected(words, Refusal.NOT_FOUND)
    if getattr(challenge, f"{role}_id") != actor.pk:
        if role == "challenged":
            raise ChallengeRejected(
                "Only the challenged player can answer this challenge", Refusal.NOT_PLAYER
            )
        raise ChallengeRejected(
            "Only the challenger can withdraw this challenge", Refusal.NOT_PLAYER
        )
    if challenge.status != Challenge.Status.PENDING:
        raise ChallengeRejected(f"This challenge was already {challenge.status}")
    return challenge


def _close(challenge: Challenge, status: str) -> None:
    challenge.status = status
    challenge.responded_at = timezone.now()
    challenge.save(update_fields=["status", "responded_at", "game"])


def _schedule_expiry(challenge_id: int, when: Any) -> None:
    from backgammon.tasks import expire_live_challenge

    if expire_live_challenge.get_backend().supports_defer:
        expire_live_challenge.using(run_after=when).enqueue(challenge_id)


def _lapsed(challenge: Challenge) -> bool:
    return challenge.is_live and timezone.now() >= challenge.created_at + LIVE_CHALLENGE_EXPIRY


def challenge_accept(*, challenge_id: int, actor: Any) -> Game:
    """The challenged player accepts: the game starts (challenger Black) with its opening roll.

    A live challenge older than ``LIVE_CHALLENGE_EXPIRY`` is refused, and marked expired then and
    there if the worker's task has not done it yet."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, actor, role="challenged")
        if not _lapsed(challenge):
            return challenge_start_game(challenge, challenge.challenged)
        _close(challenge, Challenge.Status.EXPIRED)
    raise ChallengeRejected(LIVE_CHALLENGE_EXPIRED)


def challenge_expire(*, challenge_id: int) -> bool:
    """Mark a pending live challenge expired once its 2 minutes are over; return whether it was.

    The worker runs it at that moment; it does nothing to a challenge answered or withdrawn
    meanwhile, so it is safe to run any number of times."""
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().filter(
            pk=challenge_id, status=Challenge.Status.PENDING, challenged__isnull=False
        ).first()
        if challenge is None or not _lapsed(challenge):
            return False
        _close(challenge, Challenge.Status.EXPIRED)
        return True


def challenge_start_game(challenge: Challenge, opponent: Any) -> Game:
    """Start the game of a locked pending challenge against ``opponent`` (who accepted or joined
    it) and close the challenge; refused if either player may not start another game."""
    if not challenge.challenger.is_active:
        raise ChallengeRejected(f"The player {challenge.challenger.get_username()} no longer plays here")
    with transaction.atomic():
        if challenge.counts_toward_limit:
            lock_players(opponent, challenge.challenger)
            game_limit_check(opponent)
            game_limit_check(challenge.challenger, other=opponent)
        game = game_create(
            black=challenge.challenger,
            white=opponent,
            variant=challenge.variant,
            match_length=challenge.match_length,
            time_limit=challenge.time_limit,
            rated=challenge.rated,
            jacoby=challenge.jacoby,
            beavers=challenge.beavers,
            automatic_doubles=challenge.automatic_doubles,
            stake=challenge.stake,
            counts_toward_limit=challenge.counts_toward_limit,
            time_control=challenge.time_control() if challenge.is_live else None,
        )
        # An open challenge keeps no opponent (it stays recognisable as one); its game says who joined.
        challenge.game = game
        _close(challenge, Challenge.Status.ACCEPTED)
        return game


def game_create(
    *,
    black: Any,
    white: Any,
    variant: str,
    match_length: int,
    time_limit: timedelta,
    rated: bool,
    jacoby: bool = False,
    beavers: bool = False,
    automatic_doubles: int = 0,
    stake: int = 0,
    counts_toward_limit: bool = False,
    time_control: TimeControl | None = None,
) -> Game:
    """Create a game between two players and roll its opening (inside the caller's transaction):
    an accepted challenge, or a game that starts without one (a tournament's match, auto-match).
    ``counts_toward_limit``: a game the players started or accepted themselves (game_limit).
    A live ``time_control`` starts the match clock with the opening (``time_limit`` is then
    replaced by the delay plus the reserve)."""
    # Atomic on its own, but no savepoint of its own inside a caller's transaction: each caller
    # holds one around it already (its players' locks and limit checks), which a failure here
    # rolls back whole, so a savepoint here would only cost two more round trips to the database
    # while a player waits (an auto-match pairing, a challenge's acceptance).
    with transaction.atomic(savepoint=False):
        game = Game.objects.create(
            variant=variant,
            match_length=match_length,
            jacoby=jacoby,
            beavers=beavers,
            automatic_doubles=automatic_doubles,
            stake=stake,
            rated=rated,
            black=black,
            white=white,
            counts_toward_limit=counts_toward_limit,
            **{"time_limit": time_limit, **live_fields(time_control)},
        )
        game_start(game=game)
        return game


def challenge_decline(*, challenge_id: int, actor: Any) -> Challenge:
    """The challenged player says no."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, actor, role="challenged")
        _close(challenge, Challenge.Status.DECLINED)
        return challenge


def challenge_withdraw(*, challenge_id: int, actor: Any) -> Challenge:
    """The challenger takes a pending challenge back."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, actor, role="challenger")
        _close(challenge, Challenge.Status.WITHDRAWN)
        return challenge
