"""The Buddy list and Edit ignore list pages: add by userid, remove, permissions, bad input."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from gamebuilder import fast_passwords  # noqa: F401
from racing import race

from accounts.models import Profile, Relation
from accounts.relations import relation_set

pytestmark = pytest.mark.django_db

PAGES = [("accounts:buddies", "accounts:buddy_remove", "buddy"),
         ("accounts:ignored", "accounts:ignore_remove", "ignore")]


@pytest.mark.parametrize(("page", "remove", "kind"), PAGES)
def test_add_and_remove_by_userid(alice: Any, bob: Any, alice_client: Client, page: str, remove: str,
                                  kind: str) -> None:
    response = alice_client.post(reverse(page), {"username": "BOB"}, follow=True)
    html = response.content.decode()
    assert response.status_code == 200 and 'href="/players/bob/"' in html and "bob is on your" in html
    assert Relation.objects.get(owner=alice).kind == kind
    response = alice_client.post(reverse(remove), {"username": "bob"})
    assert response.status_code == 302 and not Relation.objects.exists()


@pytest.mark.parametrize(("page", "remove", "kind"), PAGES)
@pytest.mark.parametrize(("username", "message"), [
    ("nobody", "There is no player called"), ("alice", "That is you"), ("", "This field is required"),
    ("x" * 151, "at most 150 characters"),
])
def test_bad_names_give_the_reason_and_change_nothing(alice: Any, alice_client: Client, page: str, remove: str,
                                                      kind: str, username: str, message: str) -> None:
    for url in (reverse(page), reverse(remove)):
        response = alice_client.post(url, {"username": username})
        assert response.status_code == 400 and message in response.content.decode()
    assert not Relation.objects.exists()


def test_the_buddy_list_shows_who_is_online(alice: Any, bob: Any, charlie: Any, alice_client: Client) -> None:
    relation_set(owner=alice, username="bob", kind="buddy")
    relation_set(owner=alice, username="charlie", kind="buddy")
    relation_set(owner=alice, username="charlie", kind="buddy")
    Profile.objects.filter(user=bob).update(last_seen=timezone.now())
    html = alice_client.get(reverse("accounts:buddies")).content.decode()
    bob_row = html[html.index('href="/players/bob/"'):html.index('href="/players/charlie/"')]
    assert "online now" in bob_row and "not seen yet" in html


def test_the_pages_need_a_log_in_posts_and_the_csrf_token(alice: Any, bob: Any, client: Client) -> None:
    for name in ("accounts:buddies", "accounts:ignored"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        assert client.post(reverse(name), {"username": "bob"}).status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(reverse("accounts:buddies"), {"username": "bob"}).status_code == 403
    assert strict.get(reverse("accounts:buddy_remove")).status_code == 405
    assert not Relation.objects.exists()


def test_next_goes_only_to_our_own_pages(alice: Any, bob: Any, alice_client: Client) -> None:
    response = alice_client.post(reverse("accounts:buddies"),
                                 {"username": "bob", "next": "https://evil.example/"})
    assert response["Location"] == reverse("accounts:buddies")


def test_the_menu_links_the_pages(alice_client: Client) -> None:
    html = alice_client.get(reverse("accounts:buddies")).content.decode()
    for url in ("/accounts/buddies/", "/accounts/ignored/", "/players/here/", "/players/"):
        assert f'<li><a href="{url}">' in html


@pytest.mark.django_db(transaction=True)
def test_two_adds_racing_make_one_entry(alice: Any, bob: Any, client_for: Any) -> None:
    def attempt() -> str:
        return str(client_for(alice).post(reverse("accounts:ignored"), {"username": "bob"}).status_code)

    assert race(2, attempt) == ["302", "302"]
    assert Relation.objects.filter(owner=alice, other=bob).count() == 1


def test_queries_stay_bounded(alice: Any, make_user: Any, alice_client: Client,
                              django_assert_max_num_queries: Any) -> None:
    for number in range(30):
        relation_set(owner=alice, username=make_user(f"pal{number:02}").get_username(), kind="buddy")
    alice_client.get(reverse("accounts:buddies"))
    with django_assert_max_num_queries(6):
        html = alice_client.get(reverse("accounts:buddies")).content.decode()
    assert html.count('class="player-link"') == 30
