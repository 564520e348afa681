"""Game status and the menu bar's counts keep themselves up to date (issue 6, item 15).

The status page asks for its own lists again, and every page's header for the count of games
waiting for me on the closed PLAY menu bar and the unread messages on TALK (one small endpoint
for both that answers 204 while neither changed), when the server pushes a "status" event or,
without push, when the page polls.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from backgammon.services import challenge_create
from tests.site.gamebuilder import scripted_dice, start_game

pytestmark = pytest.mark.django_db

COUNT = "menu_counts"


def test_the_status_page_refreshes_its_lists_on_push_or_poll(bob_client: Client) -> None:
    # A "status" event from the page's stream, or live.js's fallback poll (tests/site/test_live_push.py).
    page = bob_client.get(reverse("backgammon:status")).content.decode()
    assert '<div id="status-lists" hx-get="/games/"' in page and 'hx-trigger="sse:status, live:poll"' in page


def test_a_challenge_arrives_in_the_polled_lists(bob_client: Client, alice: Any, bob: Any) -> None:
    before = bob_client.get(reverse("backgammon:status"), HTTP_HX_REQUEST="true").content.decode()
    assert "challenges you to" not in before
    challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=1))
    response = bob_client.get(reverse("backgammon:status"), HTTP_HX_REQUEST="true")
    region = response.content.decode()
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    assert "<html" not in region
    assert 'id="status-lists"' in region and "challenges you to" in region and 'value="accept"' in region


def test_the_closed_menu_bar_shows_the_count(alice_client: Client, alice: Any, bob: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    page = alice_client.get(reverse("help_rules")).content.decode()
    assert re.search(r'<summary>Play\s*<span id="play-badge"', page) and f'{reverse(COUNT)}?play=0&amp;talk=0"' in page
    scripted_dice(monkeypatch).then((3, 1))
    start_game(alice, bob, "BX")  # alice won the opening roll: her turn
    page = alice_client.get(reverse("help_rules")).content.decode()
    assert f'{reverse(COUNT)}?play=1&amp;talk=0"' in page
    assert '<span class="badge">1<span class="visually-hidden"> waiting for you</span></span></span></summary>' in page


def test_the_counts_answer_204_while_unchanged_and_every_badge_when_one_changed(
    alice_client: Client, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from messaging.services import message_send

    assert alice_client.get(reverse(COUNT), {"play": "0", "talk": "0"}).status_code == 204
    scripted_dice(monkeypatch).then((3, 1))
    start_game(alice, bob, "BX")
    changed = alice_client.get(reverse(COUNT), {"play": "0", "talk": "0"})
    body = changed.content.decode()
    assert changed.status_code == 200
    assert f'<span id="play-badge" class="play-badge" hx-get="{reverse(COUNT)}?play=1&amp;talk=0"' in body
    assert '<span id="play-menu-count" hx-swap-oob="true"><span class="badge" aria-label="1 waiting for you">(1)</span></span>' in body
    assert '<span id="talk-badge" hx-swap-oob="true" class="talk-badge" data-unread="0"></span>' in body
    assert '<span id="talk-menu-count" hx-swap-oob="true" class="talk-badge" data-unread="0"></span>' in body
    assert alice_client.get(reverse(COUNT), {"play": "1", "talk": "0"}).status_code == 204
    message_send(sender=bob, to="alice", body="Good luck")  # the TALK count alone changed
    told = alice_client.get(reverse(COUNT), {"play": "1", "talk": "0"}).content.decode()
    assert f'hx-get="{reverse(COUNT)}?play=1&amp;talk=1"' in told
    assert ('<span id="talk-badge" hx-swap-oob="true" class="talk-badge" data-unread="1"><span class="badge">1'
            '<span class="visually-hidden"> unread message</span></span></span>') in told
    for bad in ({}, {"play": "x", "talk": "0"}, {"play": "1"}, {"play": "1", "talk": "-1"}):
        assert alice_client.get(reverse(COUNT), bad).status_code == 200  # not what she has: answered
    assert alice_client.post(reverse(COUNT)).status_code == 405


def test_the_count_is_kept_until_a_game_of_the_player_changes(
    monkeypatch: pytest.MonkeyPatch, alice_client: Client, alice: Any, bob: Any
) -> None:
    def games_queries() -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            alice_client.get(reverse(COUNT), {"play": "0", "talk": "0"})
        return [query["sql"] for query in queries if "backgammon_" in query["sql"]]

    assert len(games_queries()) == 1  # counted once
    assert games_queries() == []  # then kept (gamesite.kept): every page and status event asks
    scripted_dice(monkeypatch).then((3, 1))
    start_game(alice, bob, "BX")  # a game saved: both players' counts are forgotten
    assert len(games_queries()) == 1
    assert alice_client.get(reverse(COUNT), {"play": "1", "talk": "0"}).status_code == 204


def test_a_visitor_is_told_to_stop_asking(client: Client, db: None) -> None:
    assert client.get(reverse(COUNT), {"play": "0", "talk": "0"}).status_code == 286
    page = client.get(reverse("help_rules")).content.decode()
    assert "play-badge" not in page


def test_the_count_is_the_number_of_active_games_waiting_for_the_player(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any
) -> None:
    """The count (plain SQL) agrees with games_awaiting, the list Game status and "next game" use."""
    from backgammon.models import Game
    from backgammon.services import games_awaiting, games_awaiting_count

    scripted_dice(monkeypatch).then((3, 1)).then((3, 1)).then((1, 3))
    hers = start_game(alice, bob, "BX")  # alice won the opening roll: her turn
    start_game(alice, bob, "BX")
    start_game(alice, bob, "BX")  # bob won this one's opening roll
    Game.objects.filter(pk=hers.pk).update(status=Game.Status.FINISHED)
    for player in (alice, bob):
        assert games_awaiting_count(player) == games_awaiting(player).count() == 1
