"""Challenges through the API: create, list, accept, decline, withdraw, and their refusals."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.relations import relation_set
from backgammon.models import Challenge, Game

pytestmark = pytest.mark.django_db


def challenge(client: Any, **fields: Any) -> Any:
    return client.post("/challenges", {"opponent": "bob", "variant": "BP", **fields})


def test_it_creates_a_challenge_with_the_site_s_defaults(alice: Any, bob: Any, alice_api: Any) -> None:
    response = challenge(alice_api)
    assert response.status_code == 201
    data = response.json()
    made = Challenge.objects.get(pk=data["id"])
    assert (made.challenger, made.challenged, made.variant) == (alice, bob, "BP")
    assert data["match_length"] == 5 and data["time_limit_hours"] == 72 and data["rated"] is True
    assert made.rated and made.time_limit.total_seconds() == 72 * 3600


def test_it_takes_the_contract_s_fields(alice: Any, bob: Any, alice_api: Any) -> None:
    data = challenge(alice_api, match_length=3, time_limit_hours=24, rated=False).json()
    made = Challenge.objects.get(pk=data["id"])
    assert made.match_length == 3 and made.time_limit.total_seconds() == 24 * 3600 and not made.rated


@pytest.mark.parametrize(("variant", "length", "shown"), [("BX", None, 1), ("BA", 1, 1), ("MP", None, 0)])
def test_single_games_show_match_length_1_and_money_0(
    alice: Any, bob: Any, alice_api: Any, variant: str, length: int | None, shown: int
) -> None:
    response = challenge(alice_api, variant=variant, match_length=length)
    assert response.status_code == 201 and response.json()["match_length"] == shown


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"variant": "XX"}, "There is no variant 'XX'"),
        ({"variant": "BX", "match_length": 3}, "Backgammon is a single game"),
        ({"match_length": 40}, "A match is played to 1 to 25 points"),
        ({"time_limit_hours": 5}, "Choose a time limit per move"),
        ({"time_limit_hours": -1}, "Choose a time limit per move"),
        ({"opponent": "nobody"}, "There is no player called 'nobody'"),
        ({"opponent": "alice"}, "You cannot challenge yourself"),
        ({"jacoby": True}, "The Jacoby rule"),
    ],
)
def test_it_refuses_bad_challenges_with_422(
    alice: Any, bob: Any, alice_api: Any, fields: dict[str, Any], words: str
) -> None:
    response = challenge(alice_api, **fields)
    assert response.status_code == 422 and response.json()["detail"].startswith(words)
    assert not Challenge.objects.exists()


def test_a_player_who_ignores_you_cannot_be_challenged_as_on_the_pages(alice: Any, bob: Any, alice_api: Any) -> None:
    relation_set(owner=bob, username="alice", kind="ignore")
    response = challenge(alice_api, message="hello anyway")
    assert response.status_code == 422
    assert response.json()["detail"] == "That player cannot receive your challenges."
    assert not Challenge.objects.exists()


def test_it_lists_incoming_and_outgoing(alice: Any, bob: Any, charlie: Any, alice_api: Any,
                                        bob_api: Any, charlie_api: Any) -> None:
    mine = challenge(alice_api, variant="BX").json()["id"]
    theirs = challenge(charlie_api, opponent="alice", variant="BR").json()["id"]
    data = alice_api.get("/challenges").json()
    assert [c["id"] for c in data["outgoing"]] == [mine]
    assert [c["id"] for c in data["incoming"]] == [theirs]
    incoming = data["incoming"][0]
    assert {k: incoming[k] for k in ("challenger", "opponent", "variant", "match_length")} == {
        "challenger": "charlie", "opponent": "alice", "variant": "BR", "match_length": 1,
    }
    assert bob_api.get("/challenges").json() == {"incoming": [data["outgoing"][0]], "outgoing": []}


def test_accepting_starts_the_game(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    made = challenge(alice_api, match_length=3).json()["id"]
    response = bob_api.post(f"/challenges/{made}/accept")
    assert response.status_code == 201
    game = Game.objects.get(pk=response.json()["game_id"])
    assert (game.black, game.white, game.match_length) == (alice, bob, 3)
    assert bob_api.get("/challenges").json() == {"incoming": [], "outgoing": []}
    again = bob_api.post(f"/challenges/{made}/accept")
    assert again.status_code == 422 and again.json() == {"detail": "This challenge was already accepted"}
    assert Game.objects.count() == 1


def test_decline_and_withdraw(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    first = challenge(alice_api, variant="BX").json()["id"]
    second = challenge(alice_api, variant="BN").json()["id"]
    declined = bob_api.post(f"/challenges/{first}/decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    withdrawn = alice_api.post(f"/challenges/{second}/withdraw")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert not Game.objects.exists()


def test_only_the_right_player_may_answer(alice: Any, bob: Any, alice_api: Any, charlie_api: Any,
                                          bob_api: Any) -> None:
    made = challenge(alice_api).json()["id"]
    for client, verb in ((charlie_api, "accept"), (alice_api, "accept"), (bob_api, "withdraw"),
                         (charlie_api, "decline")):
        response = client.post(f"/challenges/{made}/{verb}")
        assert response.status_code == 403 and response.json()["detail"].startswith("Only the")
    assert Challenge.objects.get(pk=made).status == Challenge.Status.PENDING


def test_an_unknown_challenge_is_404(bob_api: Any) -> None:
    response = bob_api.post("/challenges/999999/accept")
    assert response.status_code == 404 and response.json() == {"detail": "There is no such challenge"}


def test_an_open_challenge_is_not_handled_by_the_named_challenge_calls(
    alice: Any, bob: Any, alice_api: Any, bob_api: Any
) -> None:
    # Withdrawing an open (waiting-room) challenge here answered 500 "nothing was changed" after
    # withdrawing it: now these calls leave it alone and say where it is handled.
    made = alice_api.post("/waiting-room", {"variant": "BP", "time_limit_hours": 24}).json()["id"]
    withdrawn = alice_api.post(f"/challenges/{made}/withdraw")
    assert withdrawn.status_code == 404
    assert withdrawn.json()["detail"].endswith("an open challenge is withdrawn from the waiting room")
    for verb in ("accept", "decline", "withdraw"):
        response = bob_api.post(f"/challenges/{made}/{verb}")
        assert response.status_code == 404 and response.json() == {"detail": "There is no such challenge"}
    assert Challenge.objects.get(pk=made).status == Challenge.Status.PENDING
    assert alice_api.delete(f"/waiting-room/{made}").status_code == 200
    assert Challenge.objects.get(pk=made).status == Challenge.Status.WITHDRAWN
    assert not Game.objects.exists()
