"""A live challenge lapses 2 minutes after it was sent: on Game status and on the main screen the
live challenges to the player lead the page, above the games waiting, and each shows once (the
other challenges keep their place below)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse
from gamebuilder import scripted_dice, start_game

from backgammon.engine import TimeControl
from backgammon.models import Challenge
from backgammon.services import challenge_accept, challenge_create

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


@pytest.mark.parametrize("where", [reverse("backgammon:status"), "/"])
def test_the_challengers_open_page_goes_to_the_live_match_once_it_is_accepted(
        alice: Any, bob: Any, client_for: Any, where: str) -> None:
    """At the news of it (htmx asks again for the lists at a status event) the challenger's open
    Game status or main screen goes to the live match their challenge started, for the challenge's
    2 minutes; a plain visit and a correspondence challenge's game do not."""
    alices: Client = client_for(alice)
    live = challenge_create(challenger=alice, opponent="bob", variant="BP", match_length=3,
                            time_limit=timedelta(minutes=5), time_control=TimeControl.live(8, 90))
    assert "HX-Redirect" not in alices.get(where, HTTP_HX_REQUEST="true")  # not accepted yet
    game = challenge_accept(challenge_id=live.pk, actor=bob)
    asked = alices.get(where, HTTP_HX_REQUEST="true")
    assert asked["HX-Redirect"] == reverse("backgammon:game", args=[game.pk])
    assert alices.get(where).status_code == 200  # a page loaded by hand stays itself
    Challenge.objects.filter(pk=live.pk).update(responded_at=F("responded_at") - timedelta(minutes=3))
    assert "HX-Redirect" not in alices.get(where, HTTP_HX_REQUEST="true")
    slow = challenge_create(challenger=alice, opponent="bob", variant="BX", time_limit=timedelta(days=3))
    challenge_accept(challenge_id=slow.pk, actor=bob)
    assert "HX-Redirect" not in alices.get(where, HTTP_HX_REQUEST="true")


def test_a_live_match_offers_no_submit_and_next_game(alice: Any, bob: Any, client_for: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The live match is the game being played now: Submit alone (the typed move's form too)."""
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=3, time_control=TimeControl.live(8, 90))
    page = client_for(alice).get(reverse("backgammon:game", args=[game.pk]) + "?steps=8-5,6-5").content.decode()
    assert ">Submit</button>" in page and ">Submit typed move</button>" in page
    assert 'name="then" value="next"' not in page


def test_a_challenge_tells_both_players_pages(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch,
                                             django_capture_on_commit_callbacks: Any) -> None:
    """The challenged player's lists show it, and the challenger's other open pages too (a rematch
    offered from one page of a finished match shows as offered on the others)."""
    from backgammon import live

    told: list[int] = []
    monkeypatch.setattr(live, "publish_status", told.append)
    with django_capture_on_commit_callbacks(execute=True):
        challenge_create(challenger=alice, opponent="bob", variant="BX", time_limit=timedelta(days=3))
    assert sorted(told) == sorted([bob.pk, alice.pk])
