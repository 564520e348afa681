"""The waiting room and auto-match through the API: the same services and refusals as the pages."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.relations import relation_set
from backgammon.models import AutoMatchRequest, Challenge, Game

pytestmark = pytest.mark.django_db


def open_one(client: Any, **fields: Any) -> Any:
    return client.post("/waiting-room", {"variant": "BP", "time_limit_hours": 24, **fields})


def test_it_needs_a_token(alice: Any) -> None:
    from tests.json_api.conftest import ApiClient

    anonymous = ApiClient()
    for response in (anonymous.get("/waiting-room"), open_one(anonymous), anonymous.get("/auto-match"),
                     anonymous.put("/auto-match", {}), anonymous.delete("/auto-match")):
        assert response.status_code == 401
    assert not Challenge.objects.exists() and not AutoMatchRequest.objects.exists()


def test_a_player_opens_a_challenge_and_another_joins_it(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    response = open_one(alice_api, match_length=3, rated=False, min_rating=1000, max_rating=2000)
    assert response.status_code == 201
    made = response.json()
    assert (made["challenger"], made["variant"], made["match_length"], made["rated"]) == ("alice", "BP", 3, False)
    assert (made["min_rating"], made["max_rating"], made["time_limit_hours"]) == (1000, 2000, 24)

    listed = bob_api.get("/waiting-room").json()["challenges"]
    assert [(c["id"], c["may_join"]) for c in listed] == [(made["id"], True)]
    assert alice_api.get("/waiting-room").json()["challenges"][0]["may_join"] is False

    joined = bob_api.post(f"/waiting-room/{made['id']}/join")
    assert joined.status_code == 201
    game = Game.objects.get(pk=joined.json()["game_id"])
    assert (game.black, game.white, game.match_length) == (alice, bob, 3)
    again = bob_api.post(f"/waiting-room/{made['id']}/join")
    assert again.status_code == 422 and "no longer in the waiting room" in again.json()["detail"]
    assert Game.objects.count() == 1
    assert bob_api.get("/waiting-room").json()["challenges"] == []


def test_filters(alice: Any, bob: Any, alice_api: Any, bob_api: Any, charlie_api: Any) -> None:
    open_one(alice_api, variant="BX")
    open_one(bob_api, variant="BN", rated=False, min_rating=1900)

    def variants(**params: Any) -> list[str]:
        return [c["variant"] for c in charlie_api.get("/waiting-room", **params).json()["challenges"]]

    assert variants() == ["BX", "BN"]
    assert variants(variant="bn") == ["BN"]
    assert variants(rated="true") == ["BX"]
    assert variants(may_join="true") == ["BX"]
    assert variants(time_limit_hours=72) == []
    assert charlie_api.get("/waiting-room", match_length=-1).status_code == 422


def test_only_the_creator_withdraws(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    made = open_one(alice_api).json()
    refused = bob_api.delete(f"/waiting-room/{made['id']}")
    assert refused.status_code == 403
    assert Challenge.objects.get().status == "pending"
    assert alice_api.delete(f"/waiting-room/{made['id']}").status_code == 200
    assert Challenge.objects.get().status == "withdrawn"
    assert alice_api.delete("/waiting-room/999999").status_code == 404
    assert bob_api.post("/waiting-room/999999/join").status_code == 404


def test_the_ignore_wall_hides_and_refuses(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    made = open_one(alice_api).json()
    relation_set(owner=alice, username="bob", kind="ignore")
    assert bob_api.get("/waiting-room").json()["challenges"] == []
    assert bob_api.post(f"/waiting-room/{made['id']}/join").status_code == 404
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("fields", "status"),
    [
        ({"variant": "ZZ"}, 422),
        ({"time_limit_hours": 5.5}, 422),
        ({"time_limit_hours": -1}, 422),
        ({"min_rating": 2000, "max_rating": 1000}, 422),
        ({"min_rating": "lots"}, 422),
        ({"variant": "MP", "max_rating": 1600}, 422),
        ({"message": "x" * 501}, 422),
    ],
)
def test_bad_open_challenges_change_nothing(alice_api: Any, fields: dict[str, Any], status: int) -> None:
    response = open_one(alice_api, **fields)
    assert response.status_code == status and response.json()["detail"]
    assert not Challenge.objects.exists()


def test_auto_match_put_get_delete(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    assert alice_api.get("/auto-match").status_code == 404
    body = {"variants": ["BP", "bx"], "time_limits_hours": [24, 72], "rated": "either", "max_games": 2}
    made = alice_api.put("/auto-match", body)
    assert made.status_code == 200
    assert made.json() | {"id": 0} == {
        "id": 0, "status": "open", "variants": ["BX", "BP"], "time_limits_hours": [24.0, 72.0],
        "time_controls": [{"kind": "correspondence", "per_move_s": 86400},
                          {"kind": "correspondence", "per_move_s": 259200}],
        "live_presets": [], "live_any": False, "live": False,
        "rated": "either", "max_games": 2, "game_ids": [],
    }
    paired = bob_api.put("/auto-match", {"variants": ["BP"], "time_limits_hours": [72], "rated": "rated"}).json()
    game = Game.objects.get()
    assert paired["status"] == "filled" and paired["game_ids"] == [game.pk]
    mine = alice_api.get("/auto-match").json()
    assert mine["status"] == "open" and mine["game_ids"] == [game.pk]
    cancelled = alice_api.delete("/auto-match")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert alice_api.delete("/auto-match").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"variants": [], "time_limits_hours": [24]},
        {"variants": ["ZZ"], "time_limits_hours": [24]},
        {"variants": ["BP"], "time_limits_hours": [5]},
        {"variants": ["BP"], "time_limits_hours": [24], "rated": "sometimes"},
        {"variants": ["BP"], "time_limits_hours": [24], "max_games": 0},
        {"variants": ["BP"], "time_limits_hours": [24], "max_games": 1000},
        {"variants": "BP", "time_limits_hours": [24]},
        {"time_limits_hours": [24]},
    ],
)
def test_bad_auto_match_requests_change_nothing(alice_api: Any, body: dict[str, Any]) -> None:
    response = alice_api.put("/auto-match", body)
    assert response.status_code == 422 and response.json()["detail"]
    assert not AutoMatchRequest.objects.exists()


def test_writes_are_rate_limited_per_player(alice_api: Any, bob_api: Any, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.LOBBY_WRITE_RATE = "2/m"
    assert [open_one(alice_api).status_code for _ in range(2)] == [201, 201]
    refused = open_one(alice_api)
    assert refused.status_code == 429 and "wait a minute" in refused.json()["detail"]
    assert Challenge.objects.count() == 2
    assert open_one(bob_api).status_code == 201  # another player is not slowed down
    cache.clear()


HUGE = 10**30
BAD_NUMBERS = [HUGE, -HUGE, 1e308, "seven", [], {"a": 1}]
OPEN = {"variant": "BP", "time_limit_hours": 24}
AUTO = {"variants": ["BP"], "time_limits_hours": [24]}


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/waiting-room", OPEN, "match_length"),
        ("/waiting-room", OPEN, "time_limit_hours"),
        ("/waiting-room", OPEN, "stake"),
        ("/waiting-room", OPEN, "automatic_doubles"),
        ("/waiting-room", OPEN, "min_rating"),
        ("/waiting-room", OPEN, "max_rating"),
        ("/auto-match", AUTO, "max_games"),
        ("/auto-match", AUTO, "time_limits_hours"),
    ],
)
def test_wild_numbers_are_refused(alice_api: Any, path: str, body: dict[str, Any], field: str, value: Any) -> None:
    send = alice_api.put if path == "/auto-match" else alice_api.post
    if field == "time_limits_hours" and not isinstance(value, list):
        value = [value]
    response = send(path, {**body, field: value})
    assert 400 <= response.status_code < 500 and response.json()["detail"], response.content[:200]
    assert not Challenge.objects.exists() and not AutoMatchRequest.objects.exists()


@pytest.mark.parametrize("text", ["x" * 10_000, "a\x00b"])
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [("/waiting-room", OPEN, "message"), ("/waiting-room", OPEN, "variant"), ("/auto-match", AUTO, "variants")],
)
def test_long_texts_and_nul_bytes_are_refused(
    alice_api: Any, path: str, body: dict[str, Any], field: str, text: str
) -> None:
    send = alice_api.put if path == "/auto-match" else alice_api.post
    response = send(path, {**body, field: [text] if field == "variants" else text})
    assert 400 <= response.status_code < 500 and response.json()["detail"]
    assert len(response.json()["detail"]) < 500
    assert not Challenge.objects.exists() and not AutoMatchRequest.objects.exists()


def test_huge_ids_are_404_or_422(alice_api: Any) -> None:
    assert alice_api.post(f"/waiting-room/{HUGE}/join").status_code in (404, 422)
    assert alice_api.delete(f"/waiting-room/{HUGE}").status_code in (404, 422)
