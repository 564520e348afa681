"""A live challenge lapses 2 minutes after it was sent: on Game status and on the main screen the
live challenges to the player lead the page, above the games waiting, and each shows once (the
other challenges keep their place below)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import scripted_dice, start_game

from backgammon.engine import TimeControl
from backgammon.services import challenge_create

pytestmark = pytest.mark.django_db


def _live_and_correspondence_challenges_to(bob: Any, alice: Any, charlie: Any) -> None:
    challenge_create(challenger=alice, opponent="bob", variant="BP", match_length=3, time_limit=timedelta(minutes=5),
                     time_control=TimeControl.live(8, 90))
    challenge_create(challenger=charlie, opponent="bob", variant="BX", time_limit=timedelta(days=3))


@pytest.mark.parametrize("where,games", [(reverse("backgammon:status"), 'id="my-turn"'), ("/", 'id="games-waiting"')])
def test_a_live_challenge_leads_the_page_and_the_others_stay_below(
        alice: Any, bob: Any, charlie: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch, where: str,
        games: str) -> None:
    scripted_dice(monkeypatch).then((1, 3))
    start_game(alice, bob, variant="BX", match_length=0)  # bob won the opening: his turn
    _live_and_correspondence_challenges_to(bob, alice, charlie)
    page = client_for(bob).get(where).content.decode()
    live_section = page.index('id="live-challenges-to-me"')
    assert live_section < page.index(games) < page.index('id="challenges-to-me"' if where == "/" else 'id="challenges"')
    alices, charlies = page.index(">alice</a></strong> challenges you"), page.index(">charlie</a></strong> challenges you")
    assert live_section < alices < page.index(games) < charlies
    assert page.count(" challenges you") == 2  # each once


def test_without_a_live_challenge_the_page_is_as_before(alice: Any, bob: Any, charlie: Any,
                                                         client_for: Any) -> None:
    challenge_create(challenger=charlie, opponent="bob", variant="BX", time_limit=timedelta(days=3))
    client: Client = client_for(bob)
    for where in (reverse("backgammon:status"), "/"):
        page = client.get(where).content.decode()
        assert "live-challenges-to-me" not in page and ">charlie</a></strong> challenges you" in page
