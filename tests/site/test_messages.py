"""Messages between players (issue 9, part 4): the pages, the services and who may see what.

Alice writes to Bob; Charlie must see and change nothing of theirs. Move and challenge messages
reach the inbox through backgammon's signals.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.relations import relation_set
from backgammon.engine.actions import Action
from backgammon.services import challenge_create
from gamesite.bad_requests import NUL_IN_FORM
from messaging.models import BODY_MAX, Message
from messaging.services import (
    NOT_DELIVERED,
    TOO_MANY,
    MessageRefused,
    message_send,
    unread_count,
)
from tests.site.gamebuilder import act, scripted_dice, start_game
from tests.site.racing import race

pytestmark = pytest.mark.django_db

SEND = reverse("messaging:send")
INBOX = reverse("messaging:inbox")
SENT = reverse("messaging:sent")


def page(response: Any) -> str:
    return response.content.decode()


def send_form(client: Client, **fields: Any) -> Any:
    return client.post(SEND, {"to": "bob", "subject": "", "body": "Hello", **fields})


def test_it_sends_a_message_that_the_recipient_reads(alice_client: Client, bob_client: Client, bob: Any) -> None:
    response = send_form(alice_client, subject="Rematch?", body="Good game.\nAnother one?")
    assert response.status_code == 302 and response["Location"] == SENT
    message = Message.objects.get()
    assert (message.sender.username, message.recipient.username) == ("alice", "bob")
    assert unread_count(bob) == 1
    inbox = page(bob_client.get(INBOX))
    assert "Rematch?" in inbox and "mail-item--unread" in inbox
    read = page(bob_client.get(reverse("messaging:message", args=[message.pk])))
    # Line breaks are kept: linebreaks makes a <br> of the single newline.
    assert "Good game.<br>Another one?" in read
    assert unread_count(bob) == 0
    assert "mail-item--unread" not in page(bob_client.get(INBOX))


def test_the_header_shows_the_unread_count_on_talk_and_my_messages(alice: Any, bob_client: Client) -> None:
    for text in ("one", "two"):
        message_send(sender=alice, to="bob", body=text)
    home = page(bob_client.get(INBOX))
    assert home.count('data-unread="2"') >= 2  # the TALK bar and "My messages"
    assert "2<span class=\"visually-hidden\"> unread messages</span>" in home


def test_the_unread_count_costs_one_query_per_page(alice: Any, bob: Any, rf: Any,
                                                   django_assert_num_queries: Any) -> None:
    from messaging.context_processors import talk_menu

    message_send(sender=alice, to="bob", body="hi")
    request = rf.get(INBOX)
    request.user = bob
    with django_assert_num_queries(0):
        context = talk_menu(request)  # lazy: a page that shows no menu pays nothing
    with django_assert_num_queries(1):
        assert context["unread_messages_count"] == 1
        assert str(context["unread_messages_count"]) == "1"
        assert talk_menu(request)["unread_messages_count"] == 1  # a second look: no query


def test_a_reply_quotes_and_threads_to_the_original(alice: Any, bob_client: Client, alice_client: Client) -> None:
    original = message_send(sender=alice, to="bob", subject="Rematch?", body="Line one\nLine two")
    form = page(bob_client.get(SEND, {"reply": original.pk}))
    assert "Re: Rematch?" in form and "&gt; Line one" in form and 'value="alice"' in form
    response = bob_client.post(SEND, {"to": "alice", "subject": "Re: Rematch?", "body": "> Line one\n\nYes!",
                                      "reply_to": original.pk})
    assert response.status_code == 302
    reply = Message.objects.get(reply_to=original)
    shown = page(alice_client.get(reverse("messaging:message", args=[reply.pk])))
    assert "In reply to" in shown and reverse("messaging:message", args=[original.pk]) in shown


def test_a_reply_readdressed_to_a_third_player_leaves_the_thread(alice: Any, bob: Any, charlie: Any) -> None:
    original = message_send(sender=alice, to="bob", subject="Between us", body="secret plan")
    forwarded = message_send(sender=bob, to="charlie", body="hello", reply_to_id=original.pk)
    assert forwarded.reply_to is None


def test_nobody_reads_or_changes_another_players_message(alice: Any, bob: Any, charlie_client: Client) -> None:
    message = message_send(sender=alice, to="bob", body="for bob only")
    url = reverse("messaging:message", args=[message.pk])
    assert charlie_client.get(url).status_code == 404
    assert charlie_client.get(SEND, {"reply": message.pk}).status_code == 404
    for action, data in (("mark", {"read": "1"}), ("delete", {}), ("report", {})):
        response = charlie_client.post(reverse(f"messaging:{action}", args=[message.pk]), data)
        assert response.status_code == 404
    message.refresh_from_db()
    assert message.read_at is None and not message.deleted_by_recipient and message.reported_at is None
    assert "for bob only" not in page(charlie_client.get(INBOX))


def test_reply_to_a_message_one_cannot_see_is_refused(alice: Any, bob: Any, charlie_client: Client) -> None:
    message = message_send(sender=alice, to="bob", body="for bob only")
    response = charlie_client.post(SEND, {"to": "bob", "body": "hi", "reply_to": message.pk})
    assert response.status_code == 400 and "There is no such message." in page(response)
    assert Message.objects.count() == 1


def test_pages_need_a_log_in(client: Client) -> None:
    for url in (INBOX, SENT, SEND, reverse("messaging:message", args=[1]), reverse("messaging:tell_a_friend")):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_unknown_ids_are_404(alice_client: Client) -> None:
    assert alice_client.get("/messages/999999/").status_code == 404
    assert alice_client.get(SEND, {"reply": "nope"}).status_code == 404
    assert alice_client.post(reverse("messaging:delete", args=[999999])).status_code == 404


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"to": ""}, "This field is required"),
        ({"to": "nobody"}, "There is no player called “nobody”."),
        ({"to": "alice"}, "That is you: messages are for other players."),
        ({"body": "   "}, "This field is required"),
        ({"body": "x" * (BODY_MAX + 1)}, f"at most {BODY_MAX} characters"),
        ({"subject": "s" * 200}, "at most 120 characters"),
        ({"body": "nul \x00 here"}, NUL_IN_FORM),
        ({"body": "bell \x07"}, "contains characters that cannot be sent"),
        ({"reply_to": "-3"}, "There is no such message to reply to."),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(alice_client: Client, bob: Any, fields: dict[str, str],
                                                  reason: str) -> None:
    response = send_form(alice_client, **fields)
    assert response.status_code == 400
    assert reason in page(response)
    assert not Message.objects.exists()


@pytest.mark.parametrize("ignorer", ["alice", "bob"])
def test_an_ignore_stops_messages_both_ways_with_neutral_words(alice: Any, bob: Any, alice_client: Client,
                                                                ignorer: str) -> None:
    owner, other = (alice, "bob") if ignorer == "alice" else (bob, "alice")
    relation_set(owner=owner, username=other, kind="ignore")
    response = send_form(alice_client)
    assert response.status_code == 400 and NOT_DELIVERED in page(response)
    with pytest.raises(MessageRefused, match=NOT_DELIVERED):
        message_send(sender=bob, to="alice", body="hi")
    assert not Message.objects.exists()


def test_sending_is_rate_limited_per_sender(alice: Any, bob: Any, charlie: Any, alice_client: Client,
                                            settings: Any) -> None:
    settings.MESSAGE_RATE_PER_HOUR = "3/h"
    for _ in range(3):
        message_send(sender=alice, to="bob", body="hi")
    response = send_form(alice_client)
    assert response.status_code == 400 and TOO_MANY in page(response)
    assert Message.objects.count() == 3
    message_send(sender=charlie, to="bob", body="my own allowance")  # others are not affected


def test_everything_is_escaped(alice: Any, bob_client: Client) -> None:
    script = "<script>alert('x')</script>"
    message = message_send(sender=alice, to="bob", subject=script, body=script)
    for url in (INBOX, reverse("messaging:message", args=[message.pk]), f"{SEND}?reply={message.pk}"):
        html = page(bob_client.get(url))
        assert script not in html and "&lt;script&gt;" in html


def test_delete_is_per_side(alice: Any, alice_client: Client, bob_client: Client) -> None:
    message = message_send(sender=alice, to="bob", body="keep me, bob")
    response = alice_client.post(reverse("messaging:delete", args=[message.pk]))
    assert response.status_code == 302 and response["Location"] == SENT
    assert "keep me, bob" not in page(alice_client.get(SENT))
    assert alice_client.get(reverse("messaging:message", args=[message.pk])).status_code == 404
    assert "keep me, bob" in page(bob_client.get(INBOX))
    bob_client.post(reverse("messaging:delete", args=[message.pk]))
    assert "keep me, bob" not in page(bob_client.get(INBOX))
    assert Message.objects.filter(pk=message.pk).exists()  # kept for the operators


@pytest.mark.django_db(transaction=True)
def test_both_sides_deleting_at_once_both_count(alice: Any, bob: Any) -> None:
    from messaging.services import message_delete

    message = message_send(sender=alice, to="bob", body="both delete")
    users = iter([alice, bob])

    def attempt() -> str:
        message_delete(user=next(users), message_id=message.pk)
        return "deleted"

    assert race(2, attempt) == ["deleted", "deleted"]
    message.refresh_from_db()
    assert message.deleted_by_sender and message.deleted_by_recipient


def test_mark_unread_and_mark_all_read(alice: Any, bob: Any, bob_client: Client, alice_client: Client) -> None:
    first = message_send(sender=alice, to="bob", body="one")
    message_send(sender=alice, to="bob", body="two")
    bob_client.get(reverse("messaging:message", args=[first.pk]))
    assert unread_count(bob) == 1
    response = bob_client.post(reverse("messaging:mark", args=[first.pk]), {"read": "0", "next": INBOX})
    assert response.status_code == 302 and unread_count(bob) == 2
    bad = bob_client.post(reverse("messaging:mark", args=[first.pk]), {"read": "maybe"})
    assert bad.status_code == 400 and unread_count(bob) == 2
    # The sender has no read state to change on the recipient's copy.
    assert alice_client.post(reverse("messaging:mark", args=[first.pk]), {"read": "1"}).status_code == 400
    assert unread_count(bob) == 2
    bob_client.post(reverse("messaging:mark_all_read"))
    assert unread_count(bob) == 0


def test_the_next_field_cannot_redirect_elsewhere(alice: Any, bob_client: Client) -> None:
    message = message_send(sender=alice, to="bob", body="one")
    for target in ("https://evil.example/", "//evil.example/messages/"):
        response = bob_client.post(reverse("messaging:mark", args=[message.pk]), {"read": "1", "next": target})
        assert response["Location"] == INBOX


def test_a_recipient_reports_a_message_for_the_operators(alice: Any, bob_client: Client,
                                                         alice_client: Client) -> None:
    message = message_send(sender=alice, to="bob", body="rude words")
    assert alice_client.post(reverse("messaging:report", args=[message.pk])).status_code == 400
    assert bob_client.post(reverse("messaging:report", args=[message.pk])).status_code == 302
    message.refresh_from_db()
    assert message.reported_at is not None


def test_the_inbox_makes_a_bounded_number_of_queries(make_user: Callable[..., Any], bob: Any,
                                                     bob_client: Client,
                                                     django_assert_max_num_queries: Any) -> None:
    senders = [make_user(f"sender{n}") for n in range(30)]
    for sender in senders:
        message_send(sender=sender, to="bob", body=f"hello from {sender.username}")
    with django_assert_max_num_queries(12):
        response = bob_client.get(INBOX)
    assert response.status_code == 200 and "sender29" in page(response) and "Page 1 of 2" in page(response)
    with django_assert_max_num_queries(12):
        older = bob_client.get(INBOX, {"page": "2"})
    assert "sender0" in page(older)


def test_a_move_message_reaches_the_inbox_linked_to_the_game(
    alice: Any, bob: Any, bob_client: Client, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    dice = scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    dice.then((6, 4))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game = act(game, alice, Action.play(((8, 5), (6, 5))), message="<b>watch my 5-point</b>")
    message = Message.objects.get()
    assert (message.sender, message.recipient, message.kind, message.game_id) == (alice, bob, "move", game.pk)
    assert callbacks  # message_sent goes out after commit
    inbox = page(bob_client.get(INBOX))
    assert "&lt;b&gt;watch my 5-point&lt;/b&gt;" in inbox and "with a move" in inbox
    shown = page(bob_client.get(reverse("messaging:message", args=[message.pk])))
    assert reverse("backgammon:game", args=[game.pk]) in shown and "<b>watch" not in shown
    # Reading the game page reads the move's message.
    bob_client.post(reverse("messaging:mark", args=[message.pk]), {"read": "0"})
    assert unread_count(bob) == 1
    bob_client.get(reverse("backgammon:game", args=[game.pk]))
    assert unread_count(bob) == 0


def test_a_spectator_reading_the_game_marks_nothing(alice: Any, bob: Any, charlie_client: Client,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    dice = scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    dice.then((6, 4))
    act(game, alice, Action.play(((8, 5), (6, 5))), message="hi bob")
    charlie_client.get(reverse("backgammon:game", args=[game.pk]))
    assert unread_count(bob) == 1


def test_a_move_refused_leaves_no_message(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from backgammon.services import ActionRejected

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    with pytest.raises(ActionRejected):
        act(game, bob, Action.double(), message="not my turn")
    assert not Message.objects.exists()


def test_a_challenge_message_reaches_the_inbox_once(alice: Any, bob: Any, bob_client: Client,
                                                    django_capture_on_commit_callbacks: Any) -> None:
    from backgammon.signals import challenge_created

    with django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_create(challenger=alice, opponent="bob", variant="BP", match_length=3,
                                     time_limit=timedelta(days=3), message="fancy a game?")
    challenge_created.send(sender=None, challenge_id=challenge.pk, challenged_id=bob.pk)  # delivered twice
    message = Message.objects.get()
    assert (message.kind, message.challenge_id, message.body) == ("challenge", challenge.pk, "fancy a game?")
    assert "fancy a game?" in page(bob_client.get(INBOX))


def test_message_sent_goes_out_after_commit(alice: Any, bob: Any,
                                            django_capture_on_commit_callbacks: Any) -> None:
    from messaging.signals import message_sent

    heard: list[Message] = []

    def listener(*, message: Message, **_: Any) -> None:
        heard.append(message)

    message_sent.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            sent = message_send(sender=alice, to="bob", body="hi")
        assert heard == []  # not before the commit
        for callback in callbacks:
            callback()
        assert heard == [sent]
    finally:
        message_sent.disconnect(listener)


def test_operators_find_reported_messages_in_the_admin(alice: Any, bob: Any, make_user: Callable[..., Any],
                                                       client_for: Callable[[Any], Client]) -> None:
    from messaging.services import message_report

    reported = message_send(sender=alice, to="bob", subject="Rude", body="rude words")
    message_send(sender=alice, to="bob", subject="Polite", body="kind words")
    message_report(user=bob, message_id=reported.pk)
    operator = make_user("operator")
    operator.is_staff = operator.is_superuser = True
    operator.save()
    listed = page(client_for(operator).get("/admin/messaging/message/", {"reported": "yes"}))
    assert "Rude" in listed and "Polite" not in listed
    shown = client_for(operator).get(f"/admin/messaging/message/{reported.pk}/change/")
    assert shown.status_code == 200 and "rude words" in page(shown)
    assert client_for(bob).get("/admin/messaging/message/").status_code == 302  # players: no admin


def test_the_header_badge_is_asked_for_with_the_play_count_and_hears_204_while_unchanged(
    alice: Any, bob_client: Client, client: Client
) -> None:
    url = reverse("menu_counts")
    shown = page(bob_client.get(INBOX))
    assert f'hx-get="{url}?play=0&amp;talk=0"' in shown
    assert bob_client.get(url, {"play": "0", "talk": "0"}).status_code == 204
    message_send(sender=alice, to="bob", body="news")
    changed = bob_client.get(url, {"play": "0", "talk": "0"})
    assert changed.status_code == 200
    assert f'hx-get="{url}?play=0&amp;talk=1"' in page(changed)
    assert 'id="talk-badge" hx-swap-oob="true"' in page(changed)
    assert 'id="talk-menu-count" hx-swap-oob="true"' in page(changed)
    assert bob_client.get(url, {"play": "0", "talk": "1"}).status_code == 204
    assert client.get(url).status_code == 286  # a visitor: stop asking
