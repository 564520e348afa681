"""Search user profiles (/players/): by part of the userid and by country, a page at a time."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from gamebuilder import fast_passwords  # noqa: F401

from accounts.models import Profile
from accounts.people_views import SEARCH_PAGE_SIZE
from accounts.relations import relation_set

pytestmark = pytest.mark.django_db


def many_players(count: int, country: str = "") -> None:
    User = get_user_model()
    for number in range(count):
        user = User.objects.create_user(username=f"crowd{number:03}", password="x")
        if country:
            Profile.objects.filter(user=user).update(country=country)


def test_search_by_part_of_the_userid_in_any_case(alice: Any, bob: Any, make_user: Any, client: Client) -> None:
    make_user("Bobby")
    html = client.get("/players/", {"q": "BOB"}).content.decode()
    assert "2 players found" in html
    assert 'href="/players/bob/"' in html and 'href="/players/Bobby/"' in html and "/players/alice/" not in html


def test_search_by_country_shows_the_country_and_last_seen(alice: Any, bob: Any, client: Client) -> None:
    Profile.objects.filter(user=bob).update(country="NZ")
    html = client.get("/players/", {"country": "NZ"}).content.decode()
    assert "1 player found" in html and "New Zealand" in html and "not seen yet" in html
    assert "/players/alice/" not in html


def test_no_search_yet_shows_just_the_form(alice: Any, client: Client) -> None:
    html = client.get("/players/").content.decode()
    assert "Search user profiles" in html and "found" not in html


@pytest.mark.parametrize("params", [{"country": "XX"}, {"q": "x" * 21}, {"country": "<script>"}])
def test_bad_searches_say_why(alice: Any, client: Client, params: dict[str, str]) -> None:
    response = client.get("/players/", params)
    assert response.status_code == 400 and "errorlist" in response.content.decode()
    assert "<script>" not in response.content.decode()


def test_results_come_a_page_at_a_time(db: None, client: Client) -> None:
    many_players(SEARCH_PAGE_SIZE + 5)
    first = client.get("/players/", {"q": "crowd"}).content.decode()
    assert f"{SEARCH_PAGE_SIZE + 5} players found" in first and "Page 1 of 2" in first
    assert "crowd000" in first and "crowd029" not in first and 'href="?q=crowd&amp;page=2"' in first
    second = client.get("/players/", {"q": "crowd", "page": "2"}).content.decode()
    assert "crowd029" in second and "crowd000" not in second
    assert client.get("/players/", {"q": "crowd", "page": "junk"}).status_code == 200


def test_players_behind_the_ignore_wall_are_not_found(alice: Any, bob: Any, alice_client: Client) -> None:
    relation_set(owner=bob, username="alice", kind="ignore")
    assert "0 players found" in alice_client.get("/players/", {"q": "bob"}).content.decode()


def test_queries_stay_bounded(db: None, client: Client, django_assert_max_num_queries: Any) -> None:
    many_players(SEARCH_PAGE_SIZE * 3, country="FR")
    with django_assert_max_num_queries(6):
        response = client.get("/players/", {"q": "crowd", "country": "FR"})
    assert response.content.decode().count('class="player-link"') == SEARCH_PAGE_SIZE
