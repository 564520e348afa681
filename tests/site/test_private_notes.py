"""Private notes: Alice's note on her game with Bob is hers alone. Bob (her opponent) and Charlie
(a watcher) never see it: not on the page, not in the htmx fragment, not through the API, not in
the .mat record (the API's side: tests/json_api/test_api_notes_and_watching.py). Bad input is refused and changes nothing; racing saves leave one note.
"""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.models import Game, GameNote
from backgammon.services.notes import NOTE_MAX_LENGTH, NoteRejected, game_note_save, game_note_text
from tests.site.gamebuilder import scripted_dice, start_game
from tests.site.racing import race

SECRET = "double if the 5 point holds <b>bold</b>"


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    scripted_dice(monkeypatch).then((3, 1))
    return start_game(alice, bob, variant="BX", match_length=0)


def note_url(game: Game) -> str:
    return reverse("backgammon:game_note", args=[game.pk])


def notes() -> list[tuple[int, int, str]]:
    return list(GameNote.objects.values_list("game_id", "author_id", "text"))


@pytest.mark.django_db
def test_a_player_saves_a_note_and_sees_it_beside_the_board(alice: Any, alice_client: Client, game: Game) -> None:
    response = alice_client.post(note_url(game), {"text": SECRET})
    assert response.status_code == 302 and response["Location"] == reverse("backgammon:game", args=[game.pk])
    page = alice_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert html.escape(SECRET) in page and "<b>bold</b>" not in page  # escaped, never marked safe
    assert "Your private note" in page and "Your note is saved" in html.unescape(page)


@pytest.mark.django_db
def test_htmx_gets_the_note_panel_back(alice: Any, alice_client: Client, game: Game) -> None:
    response = alice_client.post(note_url(game), {"text": "cube at 2-away"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith("{#") is False and '<section id="game-note"' in body and "<html" not in body
    assert "cube at 2-away" in body and "Saved." in body
    assert game_note_text(game=game, author=alice) == "cube at 2-away"


@pytest.mark.django_db
def test_the_opponent_and_watchers_never_see_the_note(
    alice: Any, bob: Any, alice_client: Client, bob_client: Client, charlie_client: Client, game: Game,
) -> None:
    game_note_save(game_id=game.pk, author=alice, text=SECRET)
    for client in (bob_client, charlie_client):
        for url in (reverse("backgammon:game", args=[game.pk]), reverse("backgammon:game_poll", args=[game.pk]),
                    reverse("backgammon:game_mat", args=[game.pk]), reverse("analysis:replay", args=[game.pk])):
            body = html.unescape(client.get(url, HTTP_HX_REQUEST="true").content.decode())
            assert "5 point holds" not in body, url
    # Bob's own panel is empty: his note, not Alice's.
    bob_page = html.unescape(bob_client.get(reverse("backgammon:game", args=[game.pk])).content.decode())
    assert "Your private note" in bob_page
    charlie_page = charlie_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert "Your private note" not in charlie_page  # watchers have no note panel
    # Alice's own .mat and API game carry no note either: it is not part of the record.
    assert "5 point holds" not in html.unescape(alice_client.get(reverse("backgammon:game_mat", args=[game.pk]))
                                                 .content.decode())


@pytest.mark.django_db
def test_a_watcher_cannot_write_a_note(charlie: Any, charlie_client: Client, game: Game) -> None:
    response = charlie_client.post(note_url(game), {"text": "mine now"})
    assert response.status_code == 404
    assert notes() == []
    with pytest.raises(NoteRejected):
        game_note_save(game_id=game.pk, author=charlie, text="mine now")


@pytest.mark.django_db
def test_bad_input_is_refused_and_the_saved_note_is_unchanged(alice: Any, alice_client: Client, game: Game) -> None:
    game_note_save(game_id=game.pk, author=alice, text="keep me")
    before = notes()
    too_long = alice_client.post(note_url(game), {"text": "x" * (NOTE_MAX_LENGTH + 1)})
    assert too_long.status_code == 400
    assert f"at most {NOTE_MAX_LENGTH} characters" in html.unescape(too_long.content.decode())
    assert "<html" in too_long.content.decode()  # a whole page without JavaScript
    fragment = alice_client.post(note_url(game), {"text": "x" * (NOTE_MAX_LENGTH + 1)}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 400 and "<html" not in fragment.content.decode()
    assert alice_client.post(reverse("backgammon:game_note", args=[999_999]), {"text": "x"}).status_code == 404
    assert alice_client.get(note_url(game)).status_code == 405
    assert notes() == before


@pytest.mark.django_db
def test_exactly_the_limit_is_kept_and_an_empty_note_removes_it(alice: Any, game: Game) -> None:
    game_note_save(game_id=game.pk, author=alice, text="y" * NOTE_MAX_LENGTH)
    assert len(game_note_text(game=game, author=alice)) == NOTE_MAX_LENGTH
    game_note_save(game_id=game.pk, author=alice, text="   ")
    assert notes() == []


@pytest.mark.django_db
def test_a_note_is_not_a_game_action(alice: Any, alice_client: Client, game: Game) -> None:
    before = Game.objects.filter(pk=game.pk).values("action_count", "updated_at").get()
    alice_client.post(note_url(game), {"text": "no action"})
    assert Game.objects.filter(pk=game.pk).values("action_count", "updated_at").get() == before


@pytest.mark.django_db
def test_the_note_needs_a_login_and_csrf(client: Client, alice: Any, game: Game) -> None:
    assert client.post(note_url(game), {"text": "x"}).status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(note_url(game), {"text": "x"}).status_code == 403
    assert notes() == []


@pytest.mark.django_db(transaction=True)
def test_racing_saves_leave_one_note(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BX", match_length=0)
    texts = iter(["first", "second", "third"])

    def save() -> str:
        return game_note_save(game_id=game.pk, author=alice, text=next(texts))

    outcomes = race(3, save)
    assert outcomes == ["first", "second", "third"]
    assert GameNote.objects.filter(game=game, author=alice).count() == 1
    assert game_note_text(game=game, author=alice) in outcomes


@pytest.mark.django_db
def test_saving_notes_is_rate_limited(alice: Any, alice_client: Client, game: Game,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("backgammon.views.extras.NOTE_SAVES_RATE", "2/m")
    for text in ("one", "two"):
        assert alice_client.post(note_url(game), {"text": text}).status_code == 302
    refused = alice_client.post(note_url(game), {"text": "three"})
    assert refused.status_code == 429 and "wait a minute" in html.unescape(refused.content.decode())
    assert game_note_text(game=game, author=alice) == "two"
