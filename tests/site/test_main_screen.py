"""The main screen: a signed-in player's home page says what to do now; visitors keep the welcome."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from gamebuilder import scripted_dice, start_game

from accounts.models import Profile
from backgammon.models import Challenge, Game
from backgammon.services import challenge_create
from messaging.services import message_send
from notices.models import NewsItem

pytestmark = pytest.mark.django_db

HOME = "/"


def games_waiting_for(player: Any, opponents: list[Any], monkeypatch: pytest.MonkeyPatch, days: list[int]) -> list[Game]:
    """One game against each opponent where ``player`` (Black, winning the opening) is to play."""
    scripted_dice(monkeypatch).then(*[(3, 1)] * len(opponents))
    games = [
        start_game(player, opponent, variant="BX", match_length=0, time_limit=timedelta(days=limit))
        for opponent, limit in zip(opponents, days, strict=True)
    ]
    assert all(game.actor == player for game in games)
    return games


def test_visitors_keep_the_welcome_page(client: Client) -> None:
    page = client.get(HOME).content.decode()
    assert "Backgammon at your own pace" in page and "Your turn" not in page


def test_the_main_screen_lists_my_games_least_time_left_first(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, charlie: Any, alice_client: Client
) -> None:
    slow, fast = games_waiting_for(alice, [bob, charlie], monkeypatch, days=[3, 1])

    page = alice_client.get(HOME).content.decode()

    assert "Backgammon at your own pace" not in page
    assert page.index(f">#{fast.pk}<") < page.index(f">#{slow.pk}<")
    assert "23 hours 59 minutes" in page or "1 day" in page
    assert "2 days 23 hours" in page
    assert reverse("backgammon:game", args=[fast.pk]) in page
    assert 'class="player-link"' in page and ">charlie</a>" in page


def test_challenges_to_me_come_with_accept_and_decline(
    alice: Any, bob: Any, alice_client: Client, bob_client: Client
) -> None:
    challenge = challenge_create(challenger=bob, opponent="alice", variant="BX", time_limit=timedelta(days=2),
                                 message="<b>rematch</b>?")

    page = alice_client.get(HOME).content.decode()
    respond = reverse("backgammon:challenge_respond", args=[challenge.pk])
    assert f'action="{respond}"' in page and 'value="accept"' in page and 'value="decline"' in page
    assert "&lt;b&gt;rematch&lt;/b&gt;?" in page
    assert f'action="{respond}"' not in bob_client.get(HOME).content.decode()  # his own is not to him

    response = alice_client.post(respond, {"response": "accept"})
    assert response.status_code == 302
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.ACCEPTED


def test_nobody_sees_another_players_games_or_challenges(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, charlie_client: Client
) -> None:
    (game,) = games_waiting_for(alice, [bob], monkeypatch, days=[3])
    challenge_create(challenger=bob, opponent="alice", variant="BX", time_limit=timedelta(days=2))

    page = charlie_client.get(HOME).content.decode()

    assert f">#{game.pk}<" not in page and "challenge_respond" not in page
    assert "No game is waiting for you." in page and "No challenge waits for you." in page


def test_news_players_here_and_the_links_to_find_opponents(
    alice: Any, bob: Any, charlie: Any, alice_client: Client
) -> None:
    now = timezone.now()
    for number in range(5):
        NewsItem.objects.create(title=f"News {number}", body="Text", published_at=now - timedelta(hours=number))
    NewsItem.objects.create(title="Hidden", body="Text", is_published=False)
    Profile.objects.filter(user__in=[alice, bob]).update(last_seen=now)
    Profile.objects.filter(user=charlie).update(last_seen=now - timedelta(days=1))

    page = alice_client.get(HOME).content.decode()

    assert "News 0" in page and "News 2" in page and "News 3" not in page and "Hidden" not in page
    assert "<strong>2</strong> players on the site" in page
    for path in ("/players/here/", "/games/waiting-room/", "/games/auto-match/", reverse("notices:news")):
        assert f'href="{path}"' in page


def test_the_main_screen_shows_my_unread_messages_newest_first(
    alice: Any, bob: Any, alice_client: Client
) -> None:
    assert "No unread messages." in alice_client.get(HOME).content.decode()
    for number in range(4):
        message_send(sender=bob, to="alice", subject=f"<i>Rematch {number}?</i>", body="Again?")
    page = alice_client.get(HOME).content.decode()
    assert "<strong>4</strong> unread messages" in page
    assert "&lt;i&gt;Rematch 3?&lt;/i&gt;" in page and ">bob</a>" in page
    assert "Rematch 0?" not in page  # the newest three only
    assert page.index("Rematch 3?") < page.index("Rematch 1?")


def test_the_main_screen_makes_a_fixed_number_of_queries_however_much_there_is(
    monkeypatch: pytest.MonkeyPatch, alice: Any, make_user: Any, client_for: Any,
    django_assert_max_num_queries: Any,
) -> None:
    client = client_for(alice)
    opponents = [make_user(f"player{number}") for number in range(12)]
    # One of everything first: an empty list costs nothing at all (its kept count is 0).
    games_waiting_for(alice, opponents[:1], monkeypatch, days=[1])
    challenge_create(challenger=opponents[8], opponent="alice", variant="BX", time_limit=timedelta(days=2))
    NewsItem.objects.create(title="News", body="Text")
    client.get(HOME)  # the session's presence mark (once a minute) and the counts, kept after
    with django_assert_max_num_queries(12) as few:
        client.get(HOME)
    few_queries = len(few.captured_queries)  # now: the next request clears the connection's log
    games_waiting_for(alice, opponents[1:8], monkeypatch, days=[2, 3, 5, 7, 10, 14, 1])
    for opponent in opponents[9:]:
        challenge_create(challenger=opponent, opponent="alice", variant="BX", time_limit=timedelta(days=2))
    for number in range(5):
        NewsItem.objects.create(title=f"News {number}", body="Text")
    Profile.objects.update(last_seen=timezone.now())
    client.get(HOME)  # the counts the new games changed are counted again once, then kept

    with django_assert_max_num_queries(few_queries):
        page = client.get(HOME).content.decode()
    assert page.count('value="accept"') == 4 and page.count('data-label="Time left"') == 8
