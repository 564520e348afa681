"""Every ``next`` goes through one check (gamesite.next_page, issue 29 item 10): a value without
"/" or "." on the buddy and ignore forms gave a 500 after the change was saved. Odd values now
send the player to the page's own default and the change is made; a path of ours is followed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords  # noqa: F401

from accounts.models import Relation
from messaging.models import Message

pytestmark = pytest.mark.django_db

ODD = [
    "abc",  # read as a URL pattern's name by redirect()
    "home",  # the name of a real pattern: still not a path
    "//evil.example/",
    "https://evil.example/",
    "javascript:alert(1)",
    "/\\evil.example",
    "/\\/evil.example",
    "/games/\r\nSet-Cookie: x=1",
    "/games/\x1b[2J",
    "/" + "a" * 5000,
    "",
]
LISTS = [("accounts:buddies", "accounts:buddy_remove", "buddy"),
         ("accounts:ignored", "accounts:ignore_remove", "ignore")]


@pytest.mark.parametrize("odd", ODD)
@pytest.mark.parametrize(("add", "remove", "kind"), LISTS)
def test_the_buddy_and_ignore_forms_go_back_to_the_list(alice: Any, bob: Any, alice_client: Client, odd: str,
                                                        add: str, remove: str, kind: str) -> None:
    added = alice_client.post(reverse(add), {"username": "bob", "next": odd})
    assert added.status_code == 302 and added["Location"] == reverse(add)
    assert Relation.objects.get(owner=alice).kind == kind
    removed = alice_client.post(reverse(remove), {"username": "bob", "next": odd})
    assert removed.status_code == 302 and removed["Location"] == reverse(add)
    assert not Relation.objects.exists()


@pytest.mark.parametrize(("add", "remove", "kind"), LISTS)
def test_a_nul_is_refused_at_the_door_and_changes_nothing(alice: Any, bob: Any, alice_client: Client,
                                                          add: str, remove: str, kind: str) -> None:
    assert alice_client.post(reverse(add), {"username": "bob", "next": "/\x00"}).status_code == 400
    assert not Relation.objects.exists()


def test_a_path_of_ours_is_followed(alice: Any, bob: Any, alice_client: Client) -> None:
    added = alice_client.post(reverse("accounts:ignored"), {"username": "bob", "next": "/players/bob/?x=1"})
    assert added.status_code == 302 and added["Location"] == "/players/bob/?x=1"


@pytest.mark.parametrize("odd", [*ODD, "/games/"])
def test_the_message_forms_go_back_to_the_inbox(alice: Any, bob: Any, alice_client: Client, odd: str) -> None:
    message = Message.objects.create(sender=bob, recipient=alice, body="hello")
    response = alice_client.post(reverse("messaging:mark", args=[message.pk]), {"read": "1", "next": odd})
    assert response.status_code == 302 and response["Location"] == reverse("messaging:inbox")
    assert Message.objects.get(pk=message.pk).read_at is not None


@pytest.mark.parametrize("odd", ODD)
def test_sign_up_and_log_in_go_home(client: Client, alice: Any, odd: str) -> None:
    from tests.conftest import PASSWORD

    signed_up = client.post(reverse("accounts:signup"), {
        "username": "dora", "email": "dora@example.com", "password1": PASSWORD, "password2": PASSWORD,
        "next": odd})
    assert signed_up.status_code == 302 and signed_up["Location"] == reverse("home")
    client.post(reverse("accounts:logout"))
    logged_in = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD, "next": odd})
    assert logged_in.status_code == 302 and "evil" not in logged_in["Location"]
    assert logged_in["Location"].startswith("/") and not logged_in["Location"].startswith("//")
