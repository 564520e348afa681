"""The API's private notes (GET/PUT /games/{id}/note) and watch list (GET /games/watch). Alice and
Bob play; Charlie is an outsider."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backgammon.models import Game, GameNote
from backgammon.services.notes import NOTE_MAX_LENGTH, game_note_save, game_note_text
from backgammon.services.watching import game_set_private
from tests.json_api.conftest import ApiClient
from tests.site.gamebuilder import scripted_dice, start_game

pytestmark = pytest.mark.django_db

SECRET = "double if the 5 point holds"


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    scripted_dice(monkeypatch).then((3, 1))
    return start_game(alice, bob, variant="BX", match_length=0)


def notes() -> list[tuple[int, int, str]]:
    return list(GameNote.objects.values_list("game_id", "author_id", "text"))


def test_the_api_reads_and_replaces_my_note(alice: Any, alice_api: ApiClient, game: Game) -> None:
    assert alice_api.get(f"/games/{game.pk}/note").json() == {"game_id": game.pk, "text": ""}
    response = alice_api.client.put(f"/api/v1/games/{game.pk}/note", '{"text": "hold the 5"}',
                                    content_type="application/json", **alice_api._headers())
    assert response.status_code == 200 and response.json() == {"game_id": game.pk, "text": "hold the 5"}
    assert alice_api.get(f"/games/{game.pk}/note").json()["text"] == "hold the 5"


@pytest.mark.parametrize("body", ['{"text": 5}', '{}', '{"text": "' + "z" * (NOTE_MAX_LENGTH + 1) + '"}',
                                  'not json', '{"text": "a\\u0000b"}'])
def test_the_api_refuses_bad_notes_and_changes_nothing(alice: Any, alice_api: ApiClient, game: Game,
                                                        body: str) -> None:
    game_note_save(game_id=game.pk, author=alice, text="keep me")
    response = alice_api.client.put(f"/api/v1/games/{game.pk}/note", body, content_type="application/json",
                                    **alice_api._headers())
    assert 400 <= response.status_code < 500 and "detail" in response.json()
    assert game_note_text(game=game, author=alice) == "keep me"


def test_the_api_keeps_notes_from_anyone_else(alice: Any, charlie_api: ApiClient, anonymous_api: ApiClient,
                                              game: Game) -> None:
    game_note_save(game_id=game.pk, author=alice, text=SECRET)
    assert charlie_api.get(f"/games/{game.pk}/note").status_code == 404
    put = charlie_api.client.put(f"/api/v1/games/{game.pk}/note", '{"text": "x"}', content_type="application/json",
                                 **charlie_api._headers())
    assert put.status_code == 404
    assert anonymous_api.get(f"/games/{game.pk}/note").status_code == 401
    assert charlie_api.get("/games/999999/note").status_code == 404
    assert game_note_text(game=game, author=alice) == SECRET and notes() == [(game.pk, alice.pk, SECRET)]


def test_the_opponent_reads_only_their_own_note(alice: Any, bob_api: ApiClient, game: Game) -> None:
    game_note_save(game_id=game.pk, author=alice, text=SECRET)
    assert bob_api.get(f"/games/{game.pk}/note").json() == {"game_id": game.pk, "text": ""}
    assert "5 point holds" not in bob_api.get(f"/games/{game.pk}").content.decode()
    assert "5 point holds" not in bob_api.get(f"/games/{game.pk}/mat").content.decode()


def test_the_watch_list_leaves_out_private_games(alice: Any, charlie_api: ApiClient, anonymous_api: ApiClient,
                                                 game: Game) -> None:
    response = charlie_api.get("/games/watch")
    assert response.status_code == 200
    assert response.json()["games"] == [{
        "id": game.pk, "variant": "BX", "match_length": 0, "players": {"black": "alice", "white": "bob"},
        "score": {"black": 0, "white": 0}, "last_activity": response.json()["games"][0]["last_activity"],
    }]
    assert response.json()["page"] == 1 and response.json()["pages"] == 1
    game_set_private(game_id=game.pk, user=alice, private=True)
    assert charlie_api.get("/games/watch").json()["games"] == []
    assert charlie_api.get(f"/games/{game.pk}").status_code == 404
    assert charlie_api.get(f"/games/{game.pk}/mat").status_code == 404
    assert anonymous_api.get("/games/watch").status_code == 401
    for bad in ("0", "-1", "abc", "99999999999"):
        assert charlie_api.get("/games/watch", page=bad).status_code == 422


def test_the_watch_list_costs_the_same_queries_for_one_game_or_a_full_page(
    make_user: Any, charlie_api: ApiClient, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    charlie_api.get("/games/watch")  # the token's first use records itself once
    with CaptureQueriesContext(connection) as one:
        charlie_api.get("/games/watch")
    players = [make_user(f"player{i}") for i in range(6)]
    dice = scripted_dice(monkeypatch)
    for i in range(40):
        dice.then((3, 1))
        start_game(players[i % 6], players[(i + 1) % 6], variant="BX", match_length=0)
    with CaptureQueriesContext(connection) as many:
        response = charlie_api.get("/games/watch", page="2")
    assert len(response.json()["games"]) == 16 and response.json()["pages"] == 2
    assert len(many) <= len(one) + 1, [query["sql"] for query in many.captured_queries]
