"""The only code that changes games and challenges: each service locks, checks, changes, then
notifies after commit. Views, the admin, tasks and commands all come through here.

Refusals raise a ``Rejected`` subclass whose ``message`` a player can read; nothing is changed.
"""

from .challenges import (
    CHALLENGE_MESSAGE_MAX,
    DEFAULT_MATCH_LENGTHS,
    MATCH_VARIANTS,
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenge_withdraw,
    game_create,
)
from .games import (
    game_apply_action,
    game_enforce_deadline,
    game_start,
    overdue_games,
    result_text,
    roll_request,
)
from .queries import games_awaiting, games_awaiting_count, next_game_for, status_lists
from .refusals import ActionRejected, ChallengeRejected, Refusal, Rejected
from .staff import game_abort, game_adjudicate

__all__ = [
    "CHALLENGE_MESSAGE_MAX",
    "DEFAULT_MATCH_LENGTHS",
    "MATCH_VARIANTS",
    "ActionRejected",
    "ChallengeRejected",
    "Refusal",
    "Rejected",
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "challenge_withdraw",
    "game_abort",
    "game_adjudicate",
    "game_apply_action",
    "game_create",
    "game_enforce_deadline",
    "game_start",
    "games_awaiting",
    "games_awaiting_count",
    "next_game_for",
    "overdue_games",
    "result_text",
    "roll_request",
    "status_lists",
]
