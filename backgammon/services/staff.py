"""Staff decisions outside the rules: abort a game, or adjudicate it to a player, with a reason."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from backgammon.models import Game, StaffAction
from backgammon.signals import match_finished

from .games import _locked_game
from .refusals import ActionRejected

__all__ = ["REASON_MAX", "game_abort", "game_adjudicate", "game_forfeit"]

REASON_MAX = 500


def _checked(game_id: int, staff: Any, reason: str) -> tuple[Game, str]:
    if not getattr(staff, "is_staff", False):
        raise ActionRejected("Only staff can abort or adjudicate a game")
    reason = reason.strip()
    if not reason:
        raise ActionRejected("Give a reason: it is kept with the game")
    if len(reason) > REASON_MAX:
        raise ActionRejected(f"A reason can be at most {REASON_MAX} characters")
    game = _locked_game(game_id)
    if game.status != Game.Status.ACTIVE:
        raise ActionRejected(f"This game is already {game.status}")
    return game, reason


def _close(game: Game, status: str, result: str, *, how: str) -> None:
    game.status = status
    game.actor = None
    game.deadline = None
    game.result = result[:200]
    clock = game.match_clock()
    if clock is not None:
        # A live game's clock stops with the staff's decision, the running reserve charged to now.
        game.clock = clock.handed_to(None, timezone.now()).to_dict()
    game.save(update_fields=["status", "actor", "deadline", "result", "winner", "clock", "updated_at"])
    match_finished.send(sender=Game, game=game, how=how)


def game_abort(*, game_id: int, staff: Any, reason: str) -> Game:
    """End an active game with no winner; the reason is logged as a StaffAction."""
    with transaction.atomic():
        game, reason = _checked(game_id, staff, reason)
        StaffAction.objects.create(game=game, staff=staff, kind=StaffAction.Kind.ABORT, reason=reason)
        _close(game, Game.Status.ABORTED, f"Aborted by staff: {reason}", how="aborted")
        return game


def game_adjudicate(*, game_id: int, staff: Any, winner: Any, reason: str) -> Game:
    """End an active game with ``winner`` (one of its players) as the winner, logged with the reason."""
    with transaction.atomic():
        game, reason = _checked(game_id, staff, reason)
        if game.side_of(winner) is None:
            raise ActionRejected(f"The player {winner} does not play in game #{game.pk}")
        StaffAction.objects.create(
            game=game, staff=staff, kind=StaffAction.Kind.ADJUDICATE, winner=winner, reason=reason
        )
        game.winner = winner
        _close(
            game,
            Game.Status.FINISHED,
            f"Adjudicated to {winner.get_username()} by staff: {reason}",
            how="adjudicated",
        )
        return game


def game_forfeit(*, game_id: int, loser: Any, reason: str) -> Game | None:
    """End an active game with ``loser``'s opponent as the winner, by the site's own rule (a
    live tournament's no-show); None when the game is no longer active (nothing changed)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.ACTIVE:
            return None
        side = game.side_of(loser)
        if side is None:
            raise ActionRejected(f"The player {loser} does not play in game #{game.pk}")
        game.winner = game.player(side.other)
        _close(game, Game.Status.FINISHED, f"{game.winner.get_username()} won: {reason}", how="forfeited")
        return game
