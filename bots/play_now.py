"""Play the computer now: one click starts a game against a computer opponent.

The same services as any challenge do the work: the player challenges the bot
(``challenge_create``) and the bot accepts at once (``challenge_accept``, as its task would a
second later), in one transaction, so the player lands on a game that exists. The terms are the
player's last choice against the computer, or the defaults below.

Two clicks (a double click, two tabs) must not start two games: the form carries how many games
against the computer the player had when the page was drawn (``expected_games``), and the player's
row lock makes the two requests take turns, so the second one finds a number that moved on and
is refused, like a stale move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q

from backgammon.engine import VARIANTS
from backgammon.models import DEFAULT_TIME_LIMIT, Challenge, Game
from backgammon.services import ChallengeRejected, Refusal, challenge_accept, challenge_create
from backgammon.services.game_limit import lock_players
from bots.models import Bot

__all__ = [
    "DEFAULT_TERMS",
    "ComputerGameTerms",
    "computer_game_start",
    "computer_game_terms_for",
    "computer_games_count",
    "latest_computer_game",
]


@dataclass(frozen=True, slots=True)
class ComputerGameTerms:
    bot: str  # the computer opponent's userid
    variant: str
    match_length: int  # 0 for a single game
    time_limit: timedelta  # the player's; the computer is never on the clock
    rated: bool


DEFAULT_TERMS = ComputerGameTerms(
    bot="gnubg-medium",  # plays well without the strong one's look-ahead: beatable, and instructive
    variant="BP",  # backgammon with the cube, the New game page's default
    match_length=3,  # a short match: over in one sitting, and it shows the cube and the score
    time_limit=DEFAULT_TIME_LIMIT,  # 3 days: nobody loses for stepping away
    rated=False,  # a first game against the computer should not cost rating points
)


def _bot_games() -> Q:
    return Q(black__bot__isnull=False) | Q(white__bot__isnull=False)


def computer_games_count(player: Any) -> int:
    """How many games against a computer opponent ``player`` is playing now."""
    return Game.objects.filter(
        Q(black=player) | Q(white=player), _bot_games(), status=Game.Status.ACTIVE
    ).count()


def latest_computer_game(player: Any) -> Game | None:
    """The game against the computer ``player`` started last, still in progress."""
    return (
        Game.objects.filter(Q(black=player) | Q(white=player), _bot_games(), status=Game.Status.ACTIVE)
        .order_by("-created_at", "-pk")
        .first()
    )


def computer_game_terms_for(player: Any) -> ComputerGameTerms:
    """The terms of ``player``'s last challenge to a computer opponent, or the defaults."""
    last = (
        Challenge.objects.filter(challenger=player, challenged__bot__isnull=False)
        .select_related("challenged")
        .order_by("-created_at", "-pk")
        .first()
    )
    if last is None:
        return DEFAULT_TERMS
    return ComputerGameTerms(
        bot=last.challenged.get_username(),
        variant=last.variant,
        match_length=last.match_length,
        time_limit=last.time_limit,
        rated=last.rated,
    )


def _bot_user(username: str) -> Any:
    bot = Bot.objects.select_related("user").filter(user__username__iexact=username.strip()).first()
    if bot is None or not bot.user.is_active:
        raise ChallengeRejected(f"{username.strip()[:30]!r} is not one of the computer opponents")
    return bot.user


def computer_game_start(
    *,
    player: Any,
    bot: str,
    variant: str,
    match_length: int | None,
    time_limit: timedelta,
    rated: bool,
    expected_games: int,
) -> Game:
    """Start a game of ``player`` against the computer opponent ``bot`` and return it (its opening
    already rolled). Refused (ChallengeRejected, nothing changed) for a name that is not a
    computer opponent, terms the challenge service refuses, or an ``expected_games`` that is not
    the player's count of games against the computer (kind STALE: a second click)."""
    opponent = _bot_user(bot)
    with transaction.atomic():
        lock_players(player)
        if computer_games_count(player) != expected_games:
            raise ChallengeRejected(
                "You have just started a game against the computer (a second click?): here it is.",
                Refusal.STALE,
            )
        challenge = challenge_create(
            challenger=player,
            opponent=opponent.get_username(),
            variant=variant,
            match_length=match_length or None,
            time_limit=time_limit,
            rated=rated and not VARIANTS.get(variant.strip().upper(), VARIANTS["BP"]).money,
        )
        return challenge_accept(challenge_id=challenge.pk, actor=opponent)
