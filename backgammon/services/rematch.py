"""A rematch: a player of a finished live match challenges the opponent again, on the same terms
(variant, length, money-play rules, rated or not, the same clock), through ``challenge_create``
so every rule of a challenge holds (the ignore wall, the game limit, a live challenge's 2 minutes).

Both players may press Rematch at nearly the same moment: the second press, under both players'
locks, finds the first one's offer and accepts it, so they get one new match rather than two
crossed challenges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from backgammon.models import Challenge, Game

from .challenges import LIVE_CHALLENGE_EXPIRY, challenge_accept, challenge_create
from .game_limit import lock_players
from .refusals import ChallengeRejected, Refusal

__all__ = ["RematchState", "rematch_offer", "rematch_state"]


@dataclass(frozen=True)
class RematchState:
    """Where a finished live match's rematch stands for one of its players."""

    mine: Challenge | None  # their own offer, waiting for the opponent's answer
    theirs: Challenge | None  # the opponent's offer, waiting for theirs
    started: Game | None  # the rematch being played, once one was accepted


def _finished_live_game(game_id: int, user: Any) -> Game:
    game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        raise ChallengeRejected("There is no such game.", Refusal.NOT_FOUND)
    if game.side_of(user) is None:
        raise ChallengeRejected("Only the game's two players can ask for a rematch.", Refusal.NOT_PLAYER)
    if game.status != Game.Status.FINISHED or not game.is_live:
        raise ChallengeRejected("A rematch is offered once a live match is over.")
    return game


def _open_since() -> Any:
    """Offers made since then are still open (a live challenge's 2 minutes)."""
    return timezone.now() - LIVE_CHALLENGE_EXPIRY


def _pending(offers: Any) -> Any:
    """The offers still open: pending and within a live challenge's 2 minutes."""
    return offers.filter(status=Challenge.Status.PENDING, created_at__gt=_open_since())


def rematch_offer(*, game_id: int, user: Any) -> Challenge | Game:
    """Challenge the opponent of ``user`` in finished live game ``game_id`` to the same match
    again: the challenge made, or, when the opponent has offered that rematch already, the game
    started by accepting their offer."""
    game = _finished_live_game(game_id, user)
    opponent = game.opponent_of(user)
    with transaction.atomic():
        lock_players(user, opponent)  # a press of each at once: one offers, the other accepts
        theirs = _pending(Challenge.objects.filter(rematch_of=game, challenger=opponent, challenged=user)).first()
        if theirs is not None:
            return challenge_accept(challenge_id=theirs.pk, actor=user)
        return challenge_create(
            challenger=user, opponent=opponent.get_username(), variant=game.variant,
            match_length=game.match_length or None, time_limit=game.time_limit, rated=game.rated,
            message=f"A rematch of game #{game.pk}?", jacoby=game.jacoby, beavers=game.beavers,
            automatic_doubles=game.automatic_doubles, stake=game.stake or None,
            time_control=game.time_control(), rematch_of=game,
        )


def rematch_state(game: Game, user: Any) -> RematchState | None:
    """The rematch of a finished live match as ``user``, one of its players, sees it; None for
    any other game or viewer. One query: the match's rematch offers, newest first."""
    if game.status != Game.Status.FINISHED or not game.is_live or game.side_of(user) is None:
        return None
    offers = list(Challenge.objects.filter(rematch_of=game).select_related("game").order_by("-created_at", "-pk")[:10])
    open_since = _open_since()
    waiting = [offer for offer in offers if offer.status == Challenge.Status.PENDING and offer.created_at > open_since]
    started = next((offer.game for offer in offers if offer.status == Challenge.Status.ACCEPTED
                    and offer.game is not None and offer.game.status == Game.Status.ACTIVE), None)
    return RematchState(
        mine=next((offer for offer in waiting if offer.challenger_id == user.pk), None),
        theirs=next((offer for offer in waiting if offer.challenged_id == user.pk), None),
        started=started,
    )
