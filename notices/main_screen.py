"""The main screen (the home page of a signed-in player): what to do now.

A fixed number of queries whatever the number of games, challenges, players or news: the games
come with both players joined, the time left is worked out in Python (the player's own vacation
read once, as every game listed waits for them), and counts are counted by the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from accounts.presence import here_now
from accounts.vacations import vacation_until
from backgammon.clock_words import duration_words
from backgammon.models import Challenge, Game
from backgammon.services import games_awaiting
from bots.forms import offer_form
from messaging import services as messaging_services
from notices.models import NewsItem
from notices.news import latest_news

__all__ = ["GameWaiting", "MainScreen", "MessagesSummary", "NewcomerOffer", "main_screen", "messages_summary",
           "newcomer_offer"]



@dataclass(frozen=True)
class GameWaiting:
    game: Game
    opponent: Any
    time_left: str  # "" when no clock runs (a game against a computer opponent)


@dataclass(frozen=True)
class MessagesSummary:
    unread: int
    latest: list[Any]
    inbox_url: str


@dataclass(frozen=True)
class NewcomerOffer:
    """For a player with no game and no challenge (a newcomer, or a quiet day): the tutorial,
    and a game against the computer at once (bots/play_now.py), with the terms in words."""

    play_now_form: Any
    terms: str
    tutorial_url: str


@dataclass(frozen=True)
class MainScreen:
    games: list[GameWaiting]
    vacation_until: datetime | None
    challenges: list[Challenge]
    messages: MessagesSummary
    news: list[NewsItem]
    here_count: int
    links: dict[str, str] = field(default_factory=dict)
    newcomer: NewcomerOffer | None = None

    @property
    def live_challenges(self) -> list[Challenge]:
        """The live challenges to the player: they lapse within 2 minutes, so they lead the screen."""
        return [challenge for challenge in self.challenges if challenge.is_live]

    @property
    def other_challenges(self) -> list[Challenge]:
        return [challenge for challenge in self.challenges if not challenge.is_live]


def _games_waiting(user: Any, now: datetime) -> list[GameWaiting]:
    games = (
        games_awaiting(user)
        .select_related("black", "white")
        .order_by(F("deadline").asc(nulls_last=True), "pk")
    )
    return [
        GameWaiting(
            game=game,
            opponent=game.white if game.black_id == user.pk else game.black,
            time_left="" if game.deadline is None else duration_words(max(game.deadline - now, timedelta(0))),
        )
        for game in games
    ]


def messages_summary(user: Any) -> MessagesSummary:
    """The unread messages: how many, and the newest three."""
    return MessagesSummary(
        unread=messaging_services.unread_count(user),
        latest=messaging_services.latest_unread(user, 3),
        inbox_url=reverse("messaging:inbox"),
    )


def newcomer_offer(user: Any, challenges_to_them: list[Challenge]) -> NewcomerOffer | None:
    """The offer, when ``user`` has no game in progress and no challenge either way: no query
    for a player challenged, one for a player with a game, five for one offered it (the checks,
    and the offer's terms, the bots and the count its form carries)."""
    if challenges_to_them:
        return None
    if Game.objects.filter(Q(black=user) | Q(white=user), status=Game.Status.ACTIVE).exists():
        return None
    if Challenge.objects.filter(challenger=user, status=Challenge.Status.PENDING).exists():
        return None
    form, terms = offer_form(user)
    return NewcomerOffer(play_now_form=form, terms=terms, tutorial_url=reverse("backgammon:tutorial"))


def main_screen(user: Any, now: datetime | None = None) -> MainScreen:
    """Everything the main screen shows for ``user``, in its order."""
    now = now or timezone.now()
    challenges = list(
        Challenge.objects.filter(challenged=user, status=Challenge.Status.PENDING)
        .select_related("challenger")
        .order_by("created_at")
    )
    return MainScreen(
        games=_games_waiting(user, now),
        vacation_until=vacation_until(user.pk, now),
        challenges=challenges,
        messages=messages_summary(user),
        news=latest_news(3),
        here_count=here_now().count(),
        links={
            "waiting_room": reverse("backgammon:waiting_room"),
            "auto_match": reverse("backgammon:auto_match"),
            "who_is_here": reverse("people:here"),
        },
        newcomer=newcomer_offer(user, challenges),
    )
