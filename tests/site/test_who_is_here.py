"""Who is here? (/players/here/): players seen lately, buddies first, what they are doing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from gamebuilder import fast_passwords, start_game  # noqa: F401

from accounts.models import Profile
from accounts.relations import relation_set

pytestmark = pytest.mark.django_db


def seen(user: Any, minutes_ago: float = 0) -> None:
    Profile.objects.filter(user=user).update(last_seen=timezone.now() - timedelta(minutes=minutes_ago))


def names_in_order(html: str, names: list[str]) -> list[str]:
    return sorted((name for name in names if f'href="/players/{name}/"' in html),
                  key=lambda name: html.index(f'href="/players/{name}/"'))


def test_a_visitor_sees_who_is_here_with_nothing_to_act_on(client: Client, alice: Any, bob: Any) -> None:
    seen(bob, 1)
    response = client.get("/players/here/")
    assert response.status_code == 200
    html = response.content.decode()
    assert ">bob</a>" in html and "bob@example.com" not in html
    # Challenging needs a userid: no Challenge button (New game asks for a log-in), a sign-up link.
    assert "/games/new/" not in html and 'href="/accounts/signup/"' in html
    assert 'href="/accounts/login/?next=/players/here/"' in html


def test_recent_players_buddies_first_and_not_the_stale_ones(alice: Any, bob: Any, charlie: Any,
                                                             make_user: Any, alice_client: Client) -> None:
    dora = make_user("dora")
    seen(bob, 1)
    seen(charlie, 5)
    seen(dora, 60)  # long gone
    relation_set(owner=alice, username="charlie", kind="buddy")
    html = alice_client.get("/players/here/").content.decode()
    assert names_in_order(html, ["bob", "charlie", "dora"]) == ["charlie", "bob"]
    assert "buddy</span>" in html and 'href="/games/new/?opponent=bob"' in html


def test_what_they_are_doing(alice: Any, bob: Any, charlie: Any, alice_client: Client) -> None:
    seen(bob)
    seen(charlie)
    games = [start_game(bob, alice), start_game(bob, charlie), start_game(charlie, alice)]
    bob_to_act = sum(1 for game in games if game.actor_id == bob.pk)
    html = alice_client.get("/players/here/").content.decode()
    bob_row = html[html.index('href="/players/bob/"'):]
    bob_row = bob_row[:bob_row.index("</li>")]
    assert "playing 2 games" in bob_row
    assert (f"their turn in {bob_to_act}" if bob_to_act else "waiting for their opponents") in bob_row


def test_players_behind_the_ignore_wall_are_left_out(alice: Any, bob: Any, alice_client: Client) -> None:
    seen(bob)
    relation_set(owner=bob, username="alice", kind="ignore")
    assert 'href="/players/bob/"' not in alice_client.get("/players/here/").content.decode()


def test_queries_stay_bounded(alice: Any, bob: Any, alice_client: Client,
                              django_assert_max_num_queries: Any) -> None:
    User = get_user_model()
    for number in range(40):
        seen(User.objects.create_user(username=f"here{number:02}", password="x"))
    start_game(bob, alice)
    seen(bob)
    alice_client.get("/players/here/")
    with django_assert_max_num_queries(9):
        html = alice_client.get("/players/here/").content.decode()
    assert html.count('class="player-link"') >= 41
