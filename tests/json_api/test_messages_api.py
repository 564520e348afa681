"""Messages in the JSON API: list, read, send, mark, delete; the pages' rules with status codes."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.relations import relation_set
from messaging.models import BODY_MAX, Message
from messaging.services import NOT_DELIVERED, TOO_MANY, message_send, unread_count

pytestmark = pytest.mark.django_db


def test_send_list_read_and_reply(alice_api: Any, bob_api: Any, bob: Any) -> None:
    sent = alice_api.post("/messages", {"to": "bob", "subject": "Hi", "text": "Line\n<b>two</b>"})
    assert sent.status_code == 201
    made = sent.json()
    assert made["sender"] == "alice" and made["recipient"] == "bob" and made["text"] == "Line\n<b>two</b>"
    listed = bob_api.get("/messages").json()
    assert listed["box"] == "inbox" and listed["unread_count"] == 1 and listed["pages"] == 1
    assert [m["id"] for m in listed["messages"]] == [made["id"]] and listed["messages"][0]["read"] is False
    read = bob_api.get(f"/messages/{made['id']}").json()
    assert read["read"] is True and unread_count(bob) == 0
    reply = bob_api.post("/messages", {"to": "alice", "text": "> two\nthree", "reply_to": made["id"]})
    assert reply.status_code == 201 and reply.json()["reply_to"] == made["id"]
    assert [m["id"] for m in alice_api.get("/messages", box="sent").json()["messages"]] == [made["id"]]


def test_mark_unread_read_and_delete_per_side(alice: Any, alice_api: Any, bob_api: Any, bob: Any) -> None:
    message = message_send(sender=alice, to="bob", body="hi")
    assert bob_api.post(f"/messages/{message.pk}/read").json()["read"] is True
    assert bob_api.post(f"/messages/{message.pk}/read", {"read": False}).json()["read"] is False
    assert unread_count(bob) == 1
    deleted = alice_api.client.delete(f"/api/v1/messages/{message.pk}", **alice_api._headers())
    assert deleted.status_code == 204
    assert alice_api.get("/messages", box="sent").json()["messages"] == []
    assert len(bob_api.get("/messages").json()["messages"]) == 1


def test_nobody_reads_or_changes_another_players_message(alice: Any, bob: Any, charlie_api: Any) -> None:
    message = message_send(sender=alice, to="bob", body="for bob")
    assert charlie_api.get(f"/messages/{message.pk}").status_code == 404
    assert charlie_api.post(f"/messages/{message.pk}/read").status_code == 404
    response = charlie_api.client.delete(f"/api/v1/messages/{message.pk}", **charlie_api._headers())
    assert response.status_code == 404 and response.json() == {"detail": "There is no such message."}
    message.refresh_from_db()
    assert message.read_at is None and not message.deleted_by_recipient
    assert charlie_api.get("/messages").json()["messages"] == []


def test_the_api_needs_a_token(anonymous_api: Any) -> None:
    assert anonymous_api.get("/messages").status_code == 401
    assert anonymous_api.post("/messages", {"to": "bob", "text": "x"}).status_code == 401


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        ({"to": "nobody", "text": "x"}, 422, "There is no player called “nobody”."),
        ({"to": "alice", "text": "x"}, 422, "That is you: messages are for other players."),
        ({"to": "bob", "text": " "}, 422, "Write something in the message."),
        ({"to": "bob", "text": "x" * (BODY_MAX + 1)}, 422, f"A message can be at most {BODY_MAX} characters."),
        ({"to": "bob"}, 422, "The field 'text' is missing."),
        ({"to": "bob", "text": 5}, 422, "The field 'text' is not valid"),
        ({"to": "bob", "text": "x", "reply_to": 999999}, 404, "There is no such message."),
        ({"to": "bob", "text": "x", "reply_to": "zz"}, 422, "The field 'reply_to' is not valid"),
    ],
)
def test_bad_sends_change_nothing(alice_api: Any, bob: Any, body: dict[str, Any], status: int,
                                  detail: str) -> None:
    response = alice_api.post("/messages", body)
    assert response.status_code == status and response.json()["detail"].startswith(detail)
    assert not Message.objects.exists()


def test_bad_list_queries(alice_api: Any) -> None:
    assert alice_api.get("/messages", box="trash").status_code == 422
    assert alice_api.get("/messages", page="0").status_code == 404
    assert alice_api.get("/messages", page="x").status_code == 422


def test_an_ignore_refuses_with_the_pages_words(alice: Any, alice_api: Any, bob: Any) -> None:
    relation_set(owner=bob, username="alice", kind="ignore")
    response = alice_api.post("/messages", {"to": "bob", "text": "hi"})
    assert response.status_code == 422 and response.json() == {"detail": NOT_DELIVERED}
    assert not Message.objects.exists()


def test_the_api_and_the_pages_share_one_allowance(alice: Any, alice_api: Any, bob: Any, settings: Any) -> None:
    settings.MESSAGE_RATE_PER_DAY = "2/d"
    message_send(sender=alice, to="bob", body="from a page")
    assert alice_api.post("/messages", {"to": "bob", "text": "one"}).status_code == 201
    refused = alice_api.post("/messages", {"to": "bob", "text": "two"})
    assert refused.status_code == 429 and refused.json() == {"detail": TOO_MANY}
    assert Message.objects.count() == 2


def test_the_list_makes_a_bounded_number_of_queries(make_user: Any, bob: Any, bob_api: Any,
                                                    django_assert_max_num_queries: Any) -> None:
    for n in range(60):
        message_send(sender=make_user(f"writer{n}"), to="bob", body=f"note {n}")
    # About 20 whatever the count: token, throttle counters, presence, and three of our own.
    with django_assert_max_num_queries(25):
        first = bob_api.get("/messages").json()
    assert len(first["messages"]) == 50 and first["pages"] == 2 and first["unread_count"] == 60
