"""What a service raises when it refuses: a message for the player, and nothing changed.

Each refusal also says what kind of refusal it is, so that the pages and the JSON API pick their
status codes from the same facts rather than from the wording of the message.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ActionRejected", "ChallengeRejected", "Refusal", "Rejected"]


class Refusal(StrEnum):
    """Why a request was refused."""

    NOT_FOUND = "not_found"
    """No such game or challenge."""
    NOT_PLAYER = "not_player"
    """The user has no part in this game or challenge (or not the part needed)."""
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"
    """The request was built on an action number the game has moved past."""
    ILLEGAL = "illegal"
    """Anything else the rules or the site's limits do not allow."""


class Rejected(Exception):
    """A refused request; ``message`` is shown to the player as it is."""

    def __init__(self, message: str, kind: Refusal = Refusal.ILLEGAL) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


class ActionRejected(Rejected):
    """A game action that may not happen now (not your turn, stale page, illegal play...)."""


class ChallengeRejected(Rejected):
    """A challenge that cannot be made, accepted, declined or withdrawn."""
