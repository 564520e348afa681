"""What a service raises when it refuses: a message for the player, and nothing changed."""

from __future__ import annotations

__all__ = ["ActionRejected", "ChallengeRejected", "Rejected"]


class Rejected(Exception):
    """A refused request; ``message`` is shown to the player as it is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ActionRejected(Rejected):
    """A game action that may not happen now (not your turn, stale page, illegal play...)."""


class ChallengeRejected(Rejected):
    """A challenge that cannot be made, accepted, declined or withdrawn."""
