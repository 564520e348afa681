"""Tell a friend (issue 9, part 5): an invitation e-mail with a sign-up link naming the inviter."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from messaging.invitations import NOTE_MAX, TOO_MANY

pytestmark = pytest.mark.django_db

URL = reverse("messaging:tell_a_friend")


@pytest.fixture(autouse=True)
def confirmed_addresses(alice: Any, bob: Any) -> None:
    """Invitations go out only from confirmed addresses (tests/site/test_signup_abuse.py)."""
    for player in (alice, bob):
        player.profile.confirmed_email = player.email
        player.profile.save(update_fields=["confirmed_email"])


def page(response: Any) -> str:
    return response.content.decode()


def invite(client: Client, **fields: Any) -> Any:
    return client.post(URL, {"email": "sam@example.org", "note": "Come and play!", **fields})


def test_it_sends_an_invitation_with_a_signup_link(alice_client: Client) -> None:
    response = invite(alice_client, note="Line one\nLine two")
    assert response.status_code == 302
    [sent] = mail.outbox
    assert sent.to == ["sam@example.org"] and "alice invites you" in sent.subject
    link = "http://testserver/accounts/signup/?invited_by=alice"
    assert link in sent.body and "Line one\nLine two" in sent.body
    html, kind = sent.alternatives[0]
    assert kind == "text/html" and f'href="{link}"' in html and "Line one<br>Line two" in html


def test_the_signup_page_names_the_inviter(client: Client, alice: Any) -> None:
    shown = page(client.get(reverse("accounts:signup"), {"invited_by": "ALICE"}))
    assert "Invited by" in shown and reverse("people:profile", args=["alice"]) in shown
    for nobody in ("nobody", "<script>", "x" * 300):
        assert "Invited by" not in page(client.get(reverse("accounts:signup"), {"invited_by": nobody}))


def test_the_note_is_escaped_in_the_html_mail(alice_client: Client) -> None:
    invite(alice_client, note="<script>alert(1)</script> & <b>bold</b>")
    html = mail.outbox[0].alternatives[0][0]
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>bold" not in html


def test_the_answer_does_not_reveal_whether_the_address_plays_here(alice_client: Client, bob: Any) -> None:
    to_player = invite(alice_client, email=bob.email)
    to_stranger = invite(alice_client, email="stranger@example.org")
    assert to_player.status_code == to_stranger.status_code == 302
    first = page(alice_client.get(to_player["Location"]))  # both show the same kind of confirmation
    assert "Your invitation is on its way" in first
    assert len(mail.outbox) == 2


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"email": ""}, "This field is required"),
        ({"email": "not-an-address"}, "Enter a valid email address"),
        ({"email": "a@example.org\nBcc: x@example.org"}, "Enter a valid email address"),
        ({"note": "n" * (NOTE_MAX + 1)}, f"at most {NOTE_MAX} characters"),
        ({"note": "bell \x07"}, "cannot be sent"),
    ],
)
def test_bad_input_sends_nothing(alice_client: Client, fields: dict[str, str], reason: str) -> None:
    response = invite(alice_client, **fields)
    assert response.status_code == 400 and reason in page(response)
    assert mail.outbox == []


def test_invitations_are_rate_limited_per_player(alice_client: Client, settings: Any) -> None:
    settings.INVITE_RATE_PER_USER_HOUR = "2/h"
    for n in range(2):
        assert invite(alice_client, email=f"friend{n}@example.org").status_code == 302
    refused = invite(alice_client, email="friend9@example.org")
    assert refused.status_code == 400 and TOO_MANY in page(refused)
    assert len(mail.outbox) == 2


def test_invitations_are_rate_limited_per_address(alice_client: Client, bob_client: Client,
                                                  settings: Any) -> None:
    settings.INVITE_RATE_PER_EMAIL_HOUR = "2/h"
    assert invite(alice_client, email="Sam@Example.org").status_code == 302
    assert invite(bob_client, email="sam@example.org").status_code == 302
    refused = invite(alice_client, email="SAM@example.org")  # the same address, whatever its case
    assert refused.status_code == 400 and TOO_MANY in page(refused)
    assert len(mail.outbox) == 2


def test_it_needs_a_log_in(client: Client) -> None:
    response = client.post(URL, {"email": "sam@example.org"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert mail.outbox == []


def test_the_form_needs_the_csrf_token(alice: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert invite(client).status_code == 403
    assert mail.outbox == []
