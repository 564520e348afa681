"""One text check for every free-text field (issue 29, items 1 and 7): ESC, BEL, backspace, the
other control characters and the bidirectional overrides are refused in bios, notes, token
names, message subjects and bodies, Tell a friend notes and challenge messages, on the pages
and through the API, and nothing is changed; plain text with line breaks, tabs, right-to-left
writing and its direction marks is kept."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from api.models import ApiToken
from backgammon.models import Challenge, Game, GameNote
from messaging.models import Message
from tests.site.gamebuilder import fast_passwords, start_game  # noqa: F401
from tournaments.models import Ladder, Tournament

pytestmark = pytest.mark.django_db

REFUSED = [
    "bell \x07",
    "escape \x1b[31mred",
    "back\x08space",
    "delete \x7f",
    "c1 \x9b",
    "right-to-left override \u202e",
    "left-to-right embedding \u202a",
    "isolate \u2066x\u2069",
]
KEPT = "Line one\n\tline two: שלום \u200f and an emoji 👍\u200d"
WORDS = "contains characters that cannot"


def _text(response: Any) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    return start_game(alice, bob)


@pytest.mark.parametrize("text", REFUSED)
def test_the_pages_refuse_them_everywhere(alice: Any, bob: Any, alice_client: Client, game: Game,
                                          text: str) -> None:
    challenges = Challenge.objects.count()
    bio = alice_client.post(reverse("accounts:about_save"),
                            {"about-bio": text, "about-country": "", "about-time_zone": ""})
    assert bio.status_code == 400 and "cannot be kept" in _text(bio)
    note = alice_client.post(reverse("backgammon:game_note", args=[game.pk]), {"text": text})
    assert note.status_code == 400 and WORDS in _text(note)
    token = alice_client.post(reverse("api_token_create"), {"name": text}, follow=True)
    assert WORDS in _text(token)
    for fields in ({"subject": text}, {"body": text}):
        sent = alice_client.post(reverse("messaging:send"), {"to": "bob", "subject": "", "body": "Hi", **fields})
        assert sent.status_code == 400 and WORDS in _text(sent)
    alice.profile.confirmed_email = alice.email  # invitations go out from a confirmed address
    alice.profile.save(update_fields=["confirmed_email"])
    invited = alice_client.post(reverse("messaging:tell_a_friend"), {"email": "sam@example.org", "note": text})
    assert invited.status_code == 400 and WORDS in _text(invited)
    challenged = alice_client.post(reverse("backgammon:new_game"), {
        "opponent": "bob", "variant": "BP", "match_length": 3, "time_limit": "259200", "message": text})
    assert challenged.status_code == 400 and WORDS in _text(challenged)
    assert Profile.objects.get(user=alice).bio == ""
    assert not GameNote.objects.exists() and not ApiToken.objects.exists()
    assert not Message.objects.exists() and Challenge.objects.count() == challenges and mail.outbox == []


@pytest.mark.parametrize("text", REFUSED)
def test_the_api_refuses_them_everywhere(alice: Any, bob: Any, alice_api: Any, anonymous_api: Any, game: Game,
                                         text: str) -> None:
    from tests.conftest import PASSWORD

    challenges = Challenge.objects.count()
    answers = [
        alice_api.put(f"/games/{game.pk}/note", {"text": text}),
        alice_api.post("/messages", {"to": "bob", "subject": text, "text": "Hi"}),
        alice_api.post("/messages", {"to": "bob", "text": text}),
        alice_api.post("/challenges", {"opponent": "bob", "variant": "BP", "message": text}),
        alice_api.post("/waiting-room", {"variant": "BP", "message": text}),
        anonymous_api.post("/token", {"username": "alice", "password": PASSWORD, "name": text}),
    ]
    for response in answers:
        assert 400 <= response.status_code < 500, (response.status_code, response.content)
        assert WORDS in response.json()["detail"]
    assert not GameNote.objects.exists() and ApiToken.objects.count() == 1  # alice_api's own
    assert not Message.objects.exists() and Challenge.objects.count() == challenges


def test_plain_text_with_line_breaks_and_right_to_left_writing_is_kept(alice: Any, bob: Any, alice_client: Client,
                                                                        alice_api: Any, game: Game) -> None:
    saved = alice_client.post(reverse("accounts:about_save"),
                              {"about-bio": KEPT, "about-country": "", "about-time_zone": ""})
    assert saved.status_code == 302
    assert Profile.objects.get(user=alice).bio == KEPT.replace("\n", "\r\n") or Profile.objects.get(
        user=alice).bio.replace("\r\n", "\n") == KEPT
    assert alice_api.put(f"/games/{game.pk}/note", {"text": KEPT}).status_code == 200
    assert alice_api.post("/messages", {"to": "bob", "subject": "שלום \u200f", "text": KEPT}).status_code == 201


@pytest.mark.parametrize("text", REFUSED)
def test_ladder_and_tournament_names_too(admin_user: Any, api_for: Any, text: str) -> None:
    staff = api_for(admin_user)
    for path, body in (
        ("/ladders", {"name": f"L {text}", "variant": "BX", "time_limit_hours": 48}),
        ("/tournaments", {"name": f"C {text}", "variant": "BX", "format": "single_elimination", "size": 4,
                          "time_limit_hours": 24}),
    ):
        response = staff.post(path, body)
        assert 400 <= response.status_code < 500 and WORDS in response.json()["detail"]
    assert not Ladder.objects.exists() and not Tournament.objects.exists()
