"""A rematch: a player of a finished live match challenges the opponent again, on the same terms
(variant, length, money-play rules, rated or not, the same clock), through ``challenge_create``
so every rule of a challenge holds (the ignore wall, the game limit, a live challenge's 2 minutes)."""

from __future__ import annotations

from typing import Any

from backgammon.models import Challenge, Game

from .challenges import challenge_create
from .refusals import ChallengeRejected, Refusal

__all__ = ["rematch_offer"]


def rematch_offer(*, game_id: int, user: Any) -> Challenge:
    """Challenge the opponent of ``user`` in finished live game ``game_id`` to the same match again."""
    game = Game.objects.select_related("black", "white").filter(pk=game_id).first()
    if game is None:
        raise ChallengeRejected("There is no such game.", Refusal.NOT_FOUND)
    side = game.side_of(user)
    if side is None:
        raise ChallengeRejected("Only the game's two players can ask for a rematch.", Refusal.NOT_PLAYER)
    if game.status != Game.Status.FINISHED or not game.is_live:
        raise ChallengeRejected("A rematch is offered once a live match is over.")
    opponent = game.player(side.other)
    return challenge_create(
        challenger=user, opponent=opponent.get_username(), variant=game.variant,
        match_length=game.match_length or None, time_limit=game.time_limit, rated=game.rated,
        message=f"A rematch of game #{game.pk}?", jacoby=game.jacoby, beavers=game.beavers,
        automatic_doubles=game.automatic_doubles, stake=game.stake or None,
        time_control=game.time_control(),
    )
