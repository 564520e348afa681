"""The ladders in the JSON API: every call, its fields and its error codes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from backgammon.models import Game
from tests.site.gamebuilder import fast_passwords, scripted_dice  # noqa: F401
from tournaments.models import Ladder, LadderMatch, LadderRung

pytestmark = pytest.mark.django_db

TERMS = {"name": "BP 48 hours", "variant": "BP", "match_length": 3, "time_limit_hours": 48,
         "members_only": False}


@pytest.fixture
def staff_api(make_user: Any, api_for: Callable[[Any], Any]) -> Any:
    user = make_user("steward")
    user.is_staff = True
    user.save()
    return api_for(user)


@pytest.fixture
def ladder_id(staff_api: Any) -> int:
    response = staff_api.post("/ladders", TERMS)
    assert response.status_code == 201, response.json()
    return int(response.json()["id"])


def test_staff_create_a_ladder_and_everyone_lists_it(staff_api: Any, alice_api: Any) -> None:
    made = staff_api.post("/ladders", {**TERMS, "members_only": True})
    assert made.status_code == 201
    single = staff_api.post("/ladders", {"name": "BX 1 day", "variant": "BX", "time_limit_hours": 24})
    assert single.status_code == 201
    listed = alice_api.get("/ladders").json()["ladders"]
    assert listed == [
        {"id": made.json()["id"], **TERMS, "members_only": True},
        {"id": single.json()["id"], "name": "BX 1 day", "variant": "BX", "match_length": 1,
         "time_limit_hours": 24.0, "members_only": False},
    ]


def test_only_staff_create_ladders(alice_api: Any) -> None:
    response = alice_api.post("/ladders", TERMS)
    assert response.status_code == 403
    assert response.json() == {"detail": "Only staff can create ladders."}
    assert not Ladder.objects.exists()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"variant": "XX"}, "A ladder is played in a rated variant"),
        ({"time_limit_hours": 28}, "Choose a time limit per move"),
        ({"match_length": 99}, "A ladder's matches are played to 1 to"),
        ({"name": None}, "The field 'name'"),
    ],
)
def test_bad_ladder_terms_get_422_and_change_nothing(staff_api: Any, changes: Any, reason: str) -> None:
    response = staff_api.post("/ladders", {**TERMS, **changes})
    assert response.status_code == 422 and response.json()["detail"].startswith(reason)
    assert not Ladder.objects.exists()


def test_join_read_and_leave(ladder_id: int, alice_api: Any, bob_api: Any, charlie_api: Any) -> None:
    for client in (alice_api, bob_api, charlie_api):
        assert client.post(f"/ladders/{ladder_id}/join").status_code == 200
    again = bob_api.post(f"/ladders/{ladder_id}/join")
    assert again.status_code == 409
    assert again.json() == {"detail": "You are already on the ladder BP 48 hours."}
    read = charlie_api.get(f"/ladders/{ladder_id}").json()
    assert read == {"id": ladder_id, **TERMS, "ranks": [
        {"rank": 1, "username": "alice", "wins": 0, "losses": 0},
        {"rank": 2, "username": "bob", "wins": 0, "losses": 0},
        {"rank": 3, "username": "charlie", "wins": 0, "losses": 0},
    ]}
    assert alice_api.post(f"/ladders/{ladder_id}/leave").status_code == 200
    ranks = charlie_api.get(f"/ladders/{ladder_id}").json()["ranks"]
    assert [(r["rank"], r["username"]) for r in ranks] == [(1, "bob"), (2, "charlie")]
    assert alice_api.post(f"/ladders/{ladder_id}/leave").status_code == 409


def test_unknown_ladders_are_404_and_strangers_401(alice_api: Any, anonymous_api: Any, ladder_id: int) -> None:
    for response in (alice_api.get("/ladders/999"), alice_api.post("/ladders/999/join"),
                     alice_api.post("/ladders/999/leave"),
                     alice_api.post("/ladders/999/challenge", {"opponent": "bob"})):
        assert response.status_code == 404 and response.json() == {"detail": "There is no such ladder."}
    for response in (anonymous_api.get("/ladders"), anonymous_api.post(f"/ladders/{ladder_id}/join"),
                     anonymous_api.post("/ladders", TERMS)):
        assert response.status_code == 401
    assert not LadderRung.objects.exists() and Ladder.objects.count() == 1


def test_challenge_refusals_are_422_with_the_reason(
    ladder_id: int, alice_api: Any, bob_api: Any, charlie_api: Any, make_user: Any,
    api_for: Callable[[Any], Any],
) -> None:
    for client in (alice_api, bob_api, charlie_api):
        client.post(f"/ladders/{ladder_id}/join")
    for n in range(4, 24):  # ranks 4 to 23
        api_for(make_user(f"p{n:02}")).post(f"/ladders/{ladder_id}/join")
    last = api_for(LadderRung.objects.get(rank=23).player)
    cases = [
        (last, "alice", "alice is 22 places above you"),
        (alice_api, "bob", "bob is below you"),
        (alice_api, "alice", "You cannot challenge yourself."),
        (bob_api, "nobody", "nobody is not on the ladder BP 48 hours."),
    ]
    for client, opponent, reason in cases:
        response = client.post(f"/ladders/{ladder_id}/challenge", {"opponent": opponent})
        assert response.status_code == 422 and response.json()["detail"].startswith(reason)
    assert charlie_api.post(f"/ladders/{ladder_id}/challenge", {"opponent": "alice"}).status_code == 201
    assert charlie_api.post(f"/ladders/{ladder_id}/challenge", {"opponent": "bob"}).status_code == 201
    third = charlie_api.post(f"/ladders/{ladder_id}/challenge", {"opponent": "bob"})
    assert third.status_code == 422 and "already have 2 open challenges" in third.json()["detail"]
    assert LadderMatch.objects.count() == 2


def test_a_ladder_match_through_the_api(
    monkeypatch: pytest.MonkeyPatch, ladder_id: int, alice_api: Any, bob_api: Any
) -> None:
    alice_api.post(f"/ladders/{ladder_id}/join")
    bob_api.post(f"/ladders/{ladder_id}/join")
    made = bob_api.post(f"/ladders/{ladder_id}/challenge", {"opponent": "alice"})
    assert made.status_code == 201
    challenge_id = made.json()["challenge_id"]
    incoming = alice_api.get("/challenges").json()["incoming"]
    assert [(c["id"], c["variant"], c["match_length"], c["time_limit_hours"], c["rated"]) for c in incoming] == [
        (challenge_id, "BP", 3, 48.0, True)]
    scripted_dice(monkeypatch).then((1, 2))  # alice (White) moves first
    game_id = alice_api.post(f"/challenges/{challenge_id}/accept").json()["game_id"]
    data = alice_api.get(f"/games/{game_id}").json()
    assert data["turn"] == "alice"
    data = alice_api.act(game_id, "resign", data["action_number"], level="backgammon").json()
    data = bob_api.act(game_id, "accept", data["action_number"]).json()
    assert data["status"] == "finished" and data["winner"] == "bob"
    assert Game.objects.get(pk=game_id).rated
    ranks = alice_api.get(f"/ladders/{ladder_id}").json()["ranks"]
    assert ranks == [{"rank": 1, "username": "bob", "wins": 1, "losses": 0},
                     {"rank": 2, "username": "alice", "wins": 0, "losses": 1}]
