"""Time controls and the live clock through the API: the contract's ``time_control`` and ``clock``
objects on GAME, and the same ``time_control`` taken by challenges and waiting-room offers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from accounts.models import Profile
from backgammon.models import Challenge, Game
from tests.site.gamebuilder import scripted_dice

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
LIVE = {"kind": "live", "delay_s": 12, "reserve_s": 300}


def at(seconds: float) -> Any:
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


def test_a_live_challenge_makes_a_live_game_whose_clock_the_game_carries(
    alice: Any, bob: Any, alice_api: Any, bob_api: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))  # alice (Black) opens
    with at(0):
        made = alice_api.post("/challenges", {"opponent": "bob", "variant": "BP", "time_control": LIVE})
        assert made.status_code == 201
        assert made.json()["time_control"] == LIVE
        game_id = bob_api.post(f"/challenges/{made.json()['id']}/accept").json()["game_id"]
    with at(20.5):
        game = alice_api.get(f"/games/{game_id}").json()
    assert game["time_control"] == LIVE
    assert game["clock"] == {
        "black_ms": 291_500, "white_ms": 300_000, "running": "black",
        "at": "2026-11-27T20:00:20.500Z", "delay_left_ms": 0,
    }
    assert game["deadline"] == "2026-11-27T20:05:12+00:00"
    with at(5):
        assert alice_api.get(f"/games/{game_id}").json()["clock"]["delay_left_ms"] == 7000


def test_a_correspondence_game_says_so_and_has_no_clock(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    made = alice_api.post("/challenges", {"opponent": "bob", "variant": "BP",
                                          "time_control": {"kind": "correspondence", "per_move_s": 86400}})
    assert made.status_code == 201 and made.json()["time_limit_hours"] == 24
    game_id = bob_api.post(f"/challenges/{made.json()['id']}/accept").json()["game_id"]
    game = alice_api.get(f"/games/{game_id}").json()
    assert game["time_control"] == {"kind": "correspondence", "per_move_s": 86400}
    assert game["clock"] is None
    # and a challenge made the old way reads the same
    old = alice_api.post("/challenges", {"opponent": "bob", "variant": "BX", "time_limit_hours": 72}).json()
    assert old["time_control"] == {"kind": "correspondence", "per_move_s": 72 * 3600}


@pytest.mark.parametrize(
    ("control", "words"),
    [
        ({"kind": "live", "delay_s": 12, "reserve_s": 29}, "The field 'time_control.live.reserve_s' is not valid"),
        ({"kind": "live", "delay_s": 61, "reserve_s": 300}, "The field 'time_control.live.delay_s' is not valid"),
        ({"kind": "live", "delay_s": 12, "reserve_s": 10801}, "The field 'time_control.live.reserve_s'"),
        ({"kind": "live", "delay_s": 12}, "The field 'time_control.live.reserve_s' is missing"),
        ({"kind": "correspondence", "per_move_s": 30}, "The field 'time_control.correspondence.per_move_s'"),
        ({"kind": "correspondence", "per_move_s": 7200 + 1}, "Choose a time limit per move from the list"),
        ({"kind": "blitz"}, "The field 'time_control' is not valid"),
    ],
)
def test_a_time_control_out_of_range_is_refused_with_422_and_changes_nothing(
    alice: Any, bob: Any, alice_api: Any, control: dict[str, Any], words: str
) -> None:
    for path, body in (("/challenges", {"opponent": "bob", "variant": "BP"}), ("/waiting-room", {"variant": "BP"})):
        response = alice_api.post(path, {**body, "time_control": control})
        assert response.status_code == 422, response.json()
        assert response.json()["detail"].startswith(words)
    assert not Challenge.objects.exists()


def test_both_ways_of_naming_the_time_at_once_are_refused(alice: Any, bob: Any, alice_api: Any) -> None:
    response = alice_api.post("/challenges", {"opponent": "bob", "variant": "BP", "time_limit_hours": 24,
                                              "time_control": LIVE})
    assert response.status_code == 422
    assert response.json()["detail"] == "Give either time_limit_hours or time_control, not both"
    assert not Challenge.objects.exists()


def test_the_waiting_room_takes_and_shows_a_live_offer(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    made = alice_api.post("/waiting-room", {"variant": "BP", "match_length": 7,
                                            "time_control": {"kind": "live", "delay_s": 12, "reserve_s": 420}})
    assert made.status_code == 201 and made.json()["time_control"]["reserve_s"] == 420
    listed = bob_api.get("/waiting-room").json()["challenges"]
    assert [row["time_control"] for row in listed] == [{"kind": "live", "delay_s": 12, "reserve_s": 420}]
    game_id = bob_api.post(f"/waiting-room/{made.json()['id']}/join").json()["game_id"]
    assert Game.objects.get(pk=game_id).is_live


def test_a_live_challenge_answered_after_2_minutes_is_refused(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    with at(0):
        made = alice_api.post("/challenges", {"opponent": "bob", "variant": "BP", "time_control": LIVE}).json()
    with at(120):
        response = bob_api.post(f"/challenges/{made['id']}/accept")
    assert response.status_code == 422
    assert "expired" in response.json()["detail"]
    assert not Game.objects.exists()


def test_live_offers_in_the_waiting_room_are_listed_while_their_player_is_here(
    alice: Any, bob: Any, alice_api: Any, bob_api: Any
) -> None:
    live = alice_api.post("/waiting-room", {"variant": "BP", "time_control": LIVE}).json()
    other = alice_api.post("/waiting-room", {"variant": "BX", "time_limit_hours": 24}).json()
    listed = bob_api.get("/waiting-room", live="true").json()["challenges"]
    assert [(c["id"], c["time_control"]) for c in listed] == [(live["id"], LIVE)]
    assert [c["id"] for c in bob_api.get("/waiting-room", live="false").json()["challenges"]] == [other["id"]]
    # alice was last seen longer ago than "Who is here?" counts
    Profile.objects.filter(user=alice).update(last_seen=timezone.now() - timedelta(minutes=11))
    assert bob_api.get("/waiting-room", live="true").json()["challenges"] == []
    refused = bob_api.post(f"/waiting-room/{live['id']}/join")
    assert refused.status_code == 422 and "has left the waiting room" in refused.json()["detail"]
    assert not Game.objects.exists()


def test_a_live_auto_match_request_through_the_api(alice: Any, bob: Any, alice_api: Any, bob_api: Any) -> None:
    made = alice_api.put("/auto-match", {"variants": ["BP"], "time_controls": [LIVE], "live_presets": ["blitz"]})
    assert made.status_code == 200, made.json()
    assert made.json() | {"id": 0} == {
        "id": 0, "status": "open", "variants": ["BP"], "time_limits_hours": [], "time_controls": [LIVE],
        "live_presets": ["blitz"], "live_any": False, "live": True, "rated": "either", "max_games": 1,
        "game_ids": [],
    }
    # a correspondence request never pairs with it
    assert bob_api.put("/auto-match", {"variants": ["BP"], "time_limits_hours": [24]}).json()["game_ids"] == []
    paired = bob_api.put("/auto-match", {"variants": ["BP"], "live_any": True}).json()
    game = Game.objects.get()
    assert paired["status"] == "filled" and paired["game_ids"] == [game.pk] and paired["live"] is True
    assert alice_api.get(f"/games/{game.pk}").json()["time_control"] == LIVE  # the gentler of Blitz (150 s) and 300 s
    assert alice_api.get("/auto-match").json()["game_ids"] == [game.pk]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"time_controls": [{"kind": "live", "delay_s": 1, "reserve_s": 300}]},
         "The field 'time_controls.0.live.delay_s' is not valid"),
        ({"time_controls": [{"kind": "live", "delay_s": 12, "reserve_s": 10801}]},
         "The field 'time_controls.0.live.reserve_s'"),
        ({"time_controls": [{"kind": "correspondence", "per_move_s": 7201}]}, "Choose time limits per move from the list"),
        ({"time_controls": [{"kind": "blitz"}]}, "The field 'time_controls.0' is not valid"),
        ({"live_presets": ["bullet"]}, "The field 'live_presets.0' is not valid"),
        ({"time_limits_hours": [24], "live_presets": ["blitz"]}, "A request is for correspondence or for live play"),
        ({"time_controls": [LIVE, {"kind": "correspondence", "per_move_s": 86400}]}, "A request is for correspondence"),
        ({}, "Choose at least one time limit per move, or a live clock"),
        ({"live_any": "sometimes"}, "The field 'live_any' is not valid"),
    ],
)
def test_a_bad_auto_match_clock_is_refused_with_422_and_changes_nothing(
    alice: Any, alice_api: Any, body: dict[str, Any], words: str
) -> None:
    from backgammon.models import AutoMatchRequest

    response = alice_api.put("/auto-match", {"variants": ["BP"], **body})
    assert response.status_code == 422, response.json()
    assert response.json()["detail"].startswith(words), response.json()
    assert not AutoMatchRequest.objects.exists()


def test_the_openapi_document_describes_auto_match_clocks() -> None:
    from api.api import api

    document = api.get_openapi_schema(path_prefix="/api/v1")
    schemas = document["components"]["schemas"]
    body_ref = document["paths"]["/api/v1/auto-match"]["put"]["requestBody"]["content"]["application/json"]["schema"]
    body = schemas[body_ref["$ref"].rsplit("/", 1)[1]]
    controls = body["properties"]["time_controls"]
    kinds = {ref["$ref"].rsplit("/", 1)[1] for ref in controls["items"]["oneOf"]}
    live = schemas["LiveTime"]["properties"]
    assert kinds == {"LiveTime", "CorrespondenceTime"}
    assert (live["delay_s"]["minimum"], live["delay_s"]["maximum"]) == (2, 60)
    assert body["properties"]["live_presets"]["items"]["enum"] == ["blitz", "rapid", "standard"]
    assert "live_any" in body["properties"] and "time_limits_hours" in body["properties"]
    out = document["paths"]["/api/v1/auto-match"]["get"]["responses"][200]["content"]["application/json"]["schema"]
    answer = schemas[out["$ref"].rsplit("/", 1)[1]]["properties"]
    assert {"time_controls", "live_presets", "live_any", "live"} <= set(answer)
