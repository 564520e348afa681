"""GET /api/v1/games and /games/{id}: the contract's GAME, read from the snapshot and the log."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon.engine import Position
from backgammon.engine.actions import Action
from backgammon.engine.match import Phase
from backgammon.models import Game
from backgammon.services import game_abort
from tests.site.gamebuilder import act, layout, scripted_dice, start_game, starting_from

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A match to 3: Alice (Black) to play her opening 3-1."""
    scripted_dice(monkeypatch).then((3, 1))
    return start_game(alice, bob, "BP", match_length=3)


def test_it_shows_a_game_from_the_side_of_the_player_to_act(game: Game, alice_api: Any) -> None:
    data = alice_api.get(f"/games/{game.pk}").json()
    assert data["id"] == game.pk and data["variant"] == "BP" and data["match_length"] == 3
    assert data["players"] == {"black": "alice", "white": "bob"}
    assert data["score"] == {"alice": 0, "bob": 0}
    assert data["status"] == "active" and data["turn"] == "alice" and data["awaiting"] == "play"
    assert data["dice"] == [3, 1] and data["cube"] == {"value": 1, "owner": None}
    assert data["crawford"] is False
    assert data["board"]["points"] == [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5,
                                       5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
    assert data["board"]["bar"] == data["board"]["off"] == data["board"]["waiting"] == {"alice": 0, "bob": 0}
    assert data["position_id"] == "4HPwATDgc/ABMA" == game.position_id
    assert data["match_id"] == game.match_id
    assert data["action_number"] == game.action_count
    assert "8/5 6/5" in data["legal_plays"] and len(data["legal_plays"]) == len(set(data["legal_plays"]))
    assert data["winner"] is None and data["result"] is None
    assert data["moves"][0]["opening"] == "Opening roll: alice 3, bob 1"
    assert data["mat_url"] == f"/api/v1/games/{game.pk}/mat"


def test_the_board_turns_with_the_turn(game: Game, alice: Any, bob_api: Any) -> None:
    act(game, alice, Action.play([(8, 5), (6, 5)]))
    data = bob_api.get(f"/games/{game.pk}").json()
    assert data["turn"] == "bob" and data["awaiting"] == "roll_or_double" and data["dice"] is None
    assert data["legal_plays"] == []
    # Alice's new point 5 is Bob's point 20.
    assert data["board"]["points"][19] == -2 and data["board"]["points"][5] == 5
    assert data["moves"][0]["rows"][0]["black"] == "31: 8/5 6/5"


def test_a_take_or_drop_says_whether_a_beaver_is_allowed(
    alice: Any, bob: Any, alice_api: Any, bob_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "MP", beavers=True)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    number = game.action_count
    bob_api.act(game.pk, "double", number)
    data = alice_api.get(f"/games/{game.pk}").json()
    assert data["match_length"] == 0
    assert data["turn"] == "alice" and data["awaiting"] == "take_or_drop" and data["beaver_allowed"] is True


def test_after_a_beaver_the_doubler_may_take_or_drop_but_not_beaver_again(
    alice: Any, bob: Any, alice_api: Any, bob_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "MP", beavers=True)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    bob_api.act(game.pk, "double", game.action_count)
    alice_api.act(game.pk, "beaver", game.action_count + 1)

    data = bob_api.get(f"/games/{game.pk}").json()
    assert data["turn"] == "bob" and data["awaiting"] == "take_or_drop"
    assert data["beaver_allowed"] is False
    assert data["cube"] == {"value": 2, "owner": "alice"}  # as gnubg holds a beavered cube

    finished = bob_api.act(game.pk, "drop", data["action_number"]).json()
    assert finished["status"] == "finished" and finished["winner"] == "alice"
    assert finished["result"] == {"points": 2, "kind": "drop"}  # the value before the beaver


def test_a_single_game_has_match_length_1(alice: Any, bob: Any, alice_api: Any) -> None:
    game = start_game(alice, bob, "BX")
    assert alice_api.get(f"/games/{game.pk}").json()["match_length"] == 1


def test_race_games_tell_waiting_checkers_from_hit_ones(
    alice: Any, bob: Any, alice_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((6, 5))
    game = start_game(alice, bob, "BR")
    data = alice_api.get(f"/games/{game.pk}").json()
    assert data["board"]["bar"] == {"alice": 15, "bob": 15}
    assert data["board"]["waiting"] == {"alice": 15, "bob": 15}
    assert sum(abs(n) for n in data["board"]["points"]) == 0


def test_a_player_who_cannot_move_has_the_single_empty_play(
    alice: Any, bob: Any, alice_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Alice on the bar against Bob's closed board.
    closed = Position(layout({25: 1, 6: 14}), layout({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}))
    starting_from(monkeypatch, phase=Phase.OPENING_ROLL, position=closed)
    scripted_dice(monkeypatch).then((6, 5))
    game = start_game(alice, bob, "BX")
    data = alice_api.get(f"/games/{game.pk}").json()
    assert data["awaiting"] == "play" and data["legal_plays"] == [""]
    assert data["board"]["bar"]["alice"] == 1


def test_a_finished_game_has_its_winner_and_result(
    game: Game, alice: Any, bob: Any, alice_api: Any, bob_api: Any
) -> None:
    act(game, alice, Action.resign(3))
    number = Game.objects.get(pk=game.pk).action_count
    assert bob_api.get(f"/games/{game.pk}").json()["awaiting"] == "resignation"
    data = bob_api.act(game.pk, "accept", number).json()
    assert data["status"] == "finished" and data["winner"] == "bob"
    assert data["result"] == {"points": 3, "kind": "resign"}
    assert data["score"] == {"alice": 0, "bob": 3}
    assert data["turn"] is None and data["awaiting"] is None
    assert alice_api.get(f"/games/{game.pk}").json()["board_side"] == "alice"  # Black's side


def test_an_aborted_game_is_finished_without_a_result(game: Game, admin_user: Any, alice_api: Any) -> None:
    game_abort(game_id=game.pk, staff=admin_user, reason="test")
    data = alice_api.get(f"/games/{game.pk}").json()
    assert data["status"] == "finished" and data["turn"] is None and data["result"] is None
    assert data["legal_plays"] == []


def test_messages_are_for_the_players_only(game: Game, alice: Any, bob_api: Any, charlie_api: Any) -> None:
    act(game, alice, Action.play([(8, 5), (6, 5)]), message="Good luck")
    assert bob_api.get(f"/games/{game.pk}").json()["moves"][0]["rows"][0]["messages"]["black"] == "Good luck"
    watched = charlie_api.get(f"/games/{game.pk}")
    assert watched.status_code == 200
    assert watched.json()["moves"][0]["rows"][0]["messages"]["black"] == ""


def test_the_mat_file_comes_with_the_same_token(game: Game, alice: Any, alice_api: Any) -> None:
    act(game, alice, Action.play([(8, 5), (6, 5)]))
    url = alice_api.get(f"/games/{game.pk}").json()["mat_url"]
    response = alice_api.client.get(url, HTTP_AUTHORIZATION=f"Bearer {alice_api.token}")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert "3 point match" in text and "alice" in text and "bob" in text and "31: 8/5 6/5" in text
    assert alice_api.client.get(url).status_code == 401


def test_my_games_by_status(game: Game, alice: Any, bob: Any, charlie: Any, alice_api: Any,
                            admin_user: Any) -> None:
    other = start_game(alice, charlie, "BX")
    game_abort(game_id=other.pk, staff=admin_user, reason="test")
    start_game(bob, charlie, "BX")  # not Alice's
    assert [g["id"] for g in alice_api.get("/games", status="active").json()["games"]] == [game.pk]
    assert [g["id"] for g in alice_api.get("/games", status="finished").json()["games"]] == [other.pk]
    assert {g["id"] for g in alice_api.get("/games").json()["games"]} == {game.pk, other.pk}
    wrong = alice_api.get("/games", status="won")
    assert wrong.status_code == 422 and "'active' or 'finished'" in wrong.json()["detail"]


def test_an_unknown_game_is_404(alice_api: Any) -> None:
    response = alice_api.get("/games/999999")
    assert response.status_code == 404 and response.json() == {"detail": "There is no such game."}


def test_a_player_s_ratings(alice: Any, charlie_api: Any) -> None:
    data = charlie_api.get("/players/Alice").json()
    assert data["username"] == "alice"
    assert set(data["ratings"]) == {"BX", "BP", "BA", "BN", "BR", "BS", "BO", "B9"}
    assert all(r == {"rating": 1500.0, "experience": 0} for r in data["ratings"].values())
    missing = charlie_api.get("/players/nobody")
    assert missing.status_code == 404 and missing.json()["detail"] == "There is no player called 'nobody'."




def test_a_match_won_by_bearing_off_pairs_the_ids_as_gnubg_does(alice: Any, bob: Any, alice_api: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # gnubg passes the roll to the loser at the end: Bob's side of the board beside its Match ID.
    from backgammon.engine import PerSide, Side, decode_match_id

    starting_from(monkeypatch, position=Position(layout({1: 1}), layout({13: 15})), score=PerSide(4, 0))
    scripted_dice(monkeypatch).then((6, 1))
    game = act(start_game(alice, bob, "BP", match_length=5), alice, Action.play([(1, 0)]))
    data = alice_api.get(f"/games/{game.pk}").json()
    assert data["status"] == "finished"
    assert data["position_id"] == Position(layout({13: 15}), layout({})).id
    assert decode_match_id(data["match_id"]).player_on_roll is Side.WHITE
