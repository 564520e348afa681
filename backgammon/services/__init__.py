"""The only code that changes games and challenges: each service locks, checks, changes, then
notifies after commit. Views, the admin, tasks and commands all come through here.

Refusals raise a ``Rejected`` subclass whose ``message`` a player can read; nothing is changed.
"""

from .auto_match import (
    auto_match_cancel,
    auto_match_of,
    auto_match_pair,
    auto_match_place,
    auto_match_set,
    auto_match_waiting,
    live_match_in_play,
)
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
from .game_limit import counted_games, game_limit
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
from .waiting_room import (
    OpenChallengeFilters,
    open_challenge_create,
    open_challenge_join,
    open_challenge_withdraw,
    open_challenges_for,
)

__all__ = [
    "CHALLENGE_MESSAGE_MAX",
    "DEFAULT_MATCH_LENGTHS",
    "MATCH_VARIANTS",
    "ActionRejected",
    "ChallengeRejected",
    "OpenChallengeFilters",
    "Refusal",
    "Rejected",
    "auto_match_cancel",
    "auto_match_of",
    "auto_match_pair",
    "auto_match_place",
    "auto_match_set",
    "auto_match_waiting",
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "challenge_withdraw",
    "counted_games",
    "game_abort",
    "game_adjudicate",
    "game_apply_action",
    "game_create",
    "game_enforce_deadline",
    "game_limit",
    "game_start",
    "games_awaiting",
    "games_awaiting_count",
    "live_match_in_play",
    "next_game_for",
    "open_challenge_create",
    "open_challenge_join",
    "open_challenge_withdraw",
    "open_challenges_for",
    "overdue_games",
    "result_text",
    "roll_request",
    "status_lists",
]
