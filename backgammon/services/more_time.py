"""Moving a running deadline: more time given by the opponent, or a vacation booked or cancelled.

Both change ``game.deadline`` under the game's row lock and schedule the deadline task for the new
moment after commit; the task scheduled for the old moment finds the deadline not yet passed and
does nothing (game_enforce_deadline re-checks it).
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from backgammon.models import Game, TimeGift
from backgammon.signals import game_changed

from .clocks import game_pauses, game_vacation_allowed, moved_deadline, paused_for
from .games import _locked_game, _schedule
from .refusals import ActionRejected, Refusal

__all__ = [
    "GIFT_DAYS",
    "GIFT_MAX_PER_MOVE",
    "TimeCapReached",
    "game_give_time",
    "games_reclock_for_vacation",
]

GIFT_DAYS = (1, 3, 7)
"""The amounts of more time a player may give, in days."""

GIFT_MAX_PER_MOVE = timedelta(days=max(GIFT_DAYS))
"""All the more time one move may be given, however many gifts it comes in: without a cap, six
gifts at once moved a deadline by 42 days (issue 29), holding the opponent's game hostage."""


class TimeCapReached(ActionRejected):
    """The move has been given all the more time it may have: well formed, but the clock cannot
    take more (the API's 409)."""


def game_give_time(*, game_id: int, giver: Any, extra: timedelta) -> Game:
    """Give the opponent, who must act now, ``extra`` more time on this move."""
    if extra not in {timedelta(days=days) for days in GIFT_DAYS}:
        raise ActionRejected("More time is given as 1, 3 or 7 days")
    with transaction.atomic():
        game = _locked_game(game_id)
        side = game.side_of(giver)
        if side is None:
            raise ActionRejected("You are not playing in this game", Refusal.NOT_PLAYER)
        if game.status != Game.Status.ACTIVE:
            raise ActionRejected("This game is over: there is no clock to give time on")
        receiver = game.player(side.other)
        if game.actor_id != receiver.pk:
            raise ActionRejected(
                "You can give more time only while your opponent is to act", Refusal.NOT_YOUR_TURN
            )
        if game.is_live:
            raise ActionRejected("A live game's match clock gives each player one reserve: no more time can be given")
        if game.deadline is None:
            raise ActionRejected(f"{receiver.get_username()} is not on the clock in this game")
        now = timezone.now()
        if game.deadline <= now:
            raise ActionRejected(f"{receiver.get_username()}'s time has already run out")
        already = _given_on_this_move(game)
        if already + extra > GIFT_MAX_PER_MOVE:
            raise TimeCapReached(_cap_words(receiver.get_username(), already))
        paused = paused_for(game, receiver.pk, now)
        game.deadline = moved_deadline(game.deadline, now, before=paused, after=paused, extra=extra)
        game.time_gift_count += 1
        game.save(update_fields=["deadline", "time_gift_count", "updated_at"])
        TimeGift.objects.create(
            game=game, giver=giver, receiver=receiver, extra=extra, after_action=game.action_count,
            created_at=now,
        )
        _after_commit(game)
    return game


def _given_on_this_move(game: Game) -> timedelta:
    """The more time already given on the move now awaited (the game's row is locked)."""
    gifts = TimeGift.objects.filter(game=game, after_action=game.action_count)
    return sum(gifts.values_list("extra", flat=True), timedelta())


def _days(amount: timedelta) -> str:
    return f"{amount.days} day{'s' if amount.days != 1 else ''}"


def _cap_words(receiver: str, already: timedelta) -> str:
    cap = _days(GIFT_MAX_PER_MOVE)
    if already >= GIFT_MAX_PER_MOVE:
        return f"{receiver} has already been given {cap} more on this move, the most one move can have"
    return (f"One move can be given at most {cap} more; {receiver} has already been given "
            f"{_days(already)} on this one, so you can give {_days(GIFT_MAX_PER_MOVE - already)} more at most")


def _after_commit(game: Game) -> None:
    transaction.on_commit(partial(_schedule, game.pk, game.action_count, game.deadline))
    transaction.on_commit(
        partial(
            game_changed.send, sender=Game, game_id=game.pk, action_number=game.action_count,
            actor_id=game.actor_id, player_ids=(game.black_id, game.white_id), turn_passed=False,
        )
    )


def games_reclock_for_vacation(*, user_id: int, before: list[Any], after: list[Any], **_: Any) -> None:
    """Move the deadlines of the player's running moves when their vacations change.

    Connected to accounts.vacations.vacations_changed, so it runs in the booking's transaction.
    """
    now = timezone.now()
    waiting = Game.objects.filter(
        status=Game.Status.ACTIVE, actor_id=user_id, deadline__gt=now,
        live_reserve_s__isnull=True,  # a live match is played now: vacations do not stop its clock
    ).order_by("pk").values_list("pk", flat=True)
    for game_id in list(waiting):
        game = _locked_game(game_id)
        if game.actor_id != user_id or game.deadline is None or game.status != Game.Status.ACTIVE:
            continue  # it moved on before we took the lock
        if not game_vacation_allowed(game):
            continue  # this game's clocks run through vacations
        game.deadline = moved_deadline(
            game.deadline, now, before=game_pauses(game, before), after=game_pauses(game, after)
        )
        game.save(update_fields=["deadline", "updated_at"])
        _after_commit(game)
