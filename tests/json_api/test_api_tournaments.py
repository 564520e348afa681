"""Tournaments through the API: staff create, players join and leave, games are played with the
ordinary game actions, and the bracket and standings follow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from backgammon.models import Game

pytestmark = pytest.mark.django_db

CUP = {"name": "Sunday cup", "variant": "BX", "format": "single_elimination", "size": 4,
       "time_limit_hours": 24, "rated": True}


def _play_to_win(apis: dict[str, Any], game_id: int, winner: str) -> None:
    """Act through the API as whoever must act: the loser resigns, the winner plays on."""
    for _ in range(200):
        game = Game.objects.select_related("actor").get(pk=game_id)
        if game.status != "active":
            assert game.winner.username == winner
            return
        state, actor = game.state(), game.actor.username
        api = apis[actor]
        if state.phase.value == "resign_offered":
            answer = api.act(game_id, "accept", game.action_count)
        elif actor != winner:
            answer = api.act(game_id, "resign", game.action_count, level="backgammon")
        elif state.phase.value == "roll":
            answer = api.act(game_id, "roll", game.action_count)
        elif state.phase.value == "take_or_drop":
            answer = api.act(game_id, "take", game.action_count)
        else:
            play = state.legal_plays()[0]
            move = " ".join(f"{m.origin}/{m.destination}".replace("25/", "bar/").replace("/0", "/off")
                            for m in play.moves)
            answer = api.act(game_id, "play", game.action_count, move=move)
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the game did not end")


def test_a_four_player_cup_through_the_api(
    admin_user: Any, make_user: Any, api_for: Callable[[Any], Any]
) -> None:
    staff = api_for(admin_user)
    names = ["ann", "ben", "cal", "dan"]
    apis = {name: api_for(make_user(name)) for name in names}
    refused = apis["ann"].post("/tournaments", CUP)
    assert refused.status_code == 403 and refused.json()["detail"].startswith("Only staff")
    created = staff.post("/tournaments", CUP)
    assert created.status_code == 201
    cup = created.json()["id"]
    assert apis["ann"].post(f"/tournaments/{cup}/join").status_code == 200
    again = apis["ann"].post(f"/tournaments/{cup}/join")
    assert again.status_code == 409 and "already signed up" in again.json()["detail"]
    assert apis["ann"].post(f"/tournaments/{cup}/leave").status_code == 200
    listed = apis["ann"].get("/tournaments", status="signup").json()["tournaments"]
    assert listed == [{"id": cup, "name": "Sunday cup", "variant": "BX",
                       "format": "single_elimination", "size": 4, "status": "signup", "time_control": None}]
    for name in names:
        assert apis[name].post(f"/tournaments/{cup}/join").status_code == 200
    late = apis["ann"].post(f"/tournaments/{cup}/leave")
    assert late.status_code == 409 and "no longer withdraw" in late.json()["detail"]
    body = apis["ben"].get(f"/tournaments/{cup}").json()
    assert body["status"] == "running" and sorted(body["players"]) == names
    assert [m["round"] for m in body["matches"]] == [1, 1]
    ann_games = apis["ann"].get("/games", status="active").json()["games"]
    first = next(m for m in body["matches"] if "ann" in m["players"])
    assert [g["id"] for g in ann_games] == [first["game_id"]]
    for match in body["matches"]:
        _play_to_win(apis, match["game_id"], "ann" if "ann" in match["players"] else match["players"][0])
    body = apis["ben"].get(f"/tournaments/{cup}").json()
    final = body["matches"][2]
    assert final["round"] == 2 and "ann" in final["players"] and final["winner"] is None
    _play_to_win(apis, final["game_id"], "ann")
    body = apis["ben"].get(f"/tournaments/{cup}").json()
    assert body["status"] == "finished" and body["winner"] == "ann"
    assert body["standings"][0] == {"place": 1, "username": "ann", "wins": 2, "losses": 0}
    # The two beaten semi-finalists share 3rd place (issue 29, item 19): a knock-out has no 4th.
    assert [row["place"] for row in body["standings"]] == [1, 2, 3, 3]
    assert apis["ben"].get("/tournaments", status="finished").json()["tournaments"][0]["id"] == cup
    assert apis["ben"].get("/tournaments", status="done").status_code == 422
    assert apis["ben"].get("/tournaments/999999").status_code == 404


@pytest.mark.parametrize(("format", "size"), [("round_robin", 4), ("double_elimination", 4)])
def test_the_other_formats_are_played_to_their_end_through_the_api(
    admin_user: Any, make_user: Any, api_for: Callable[[Any], Any], format: str, size: int
) -> None:
    # Through the API alone: every open match's game is read from GET /tournaments/{id} and
    # played through the actions call; the better-listed player always wins, so "ann" wins all.
    staff = api_for(admin_user)
    names = ["ann", "ben", "cal", "dan"][:size]
    apis = {name: api_for(make_user(name)) for name in names}
    cup = staff.post("/tournaments", {**CUP, "name": f"{format} cup", "format": format,
                                      "size": size}).json()["id"]
    for name in names:
        assert apis[name].post(f"/tournaments/{cup}/join").status_code == 200
    rank = {name: index for index, name in enumerate(names)}
    for _ in range(40):
        body = apis["ben"].get(f"/tournaments/{cup}").json()
        if body["status"] == "finished":
            break
        open_match = next(m for m in body["matches"] if m["game_id"] and m["winner"] is None)
        best = min((p for p in open_match["players"] if p), key=rank.__getitem__)
        _play_to_win(apis, open_match["game_id"], best)
    assert body["status"] == "finished" and body["winner"] == "ann", body
    assert body["standings"][0]["username"] == "ann" and body["standings"][0]["losses"] == 0
    if format == "round_robin":
        assert [row["wins"] for row in body["standings"]] == [3, 2, 1, 0]
        assert len(body["matches"]) == 6 and all(m["winner"] for m in body["matches"])


@pytest.fixture
def live_staff_api(admin_user: Any, api_for: Any) -> Any:
    return api_for(admin_user)


def test_staff_create_a_live_tournament_with_its_clock(live_staff_api: Any) -> None:
    body = {"name": "Friday blitz", "variant": "BP", "match_length": 3, "format": "single_elimination",
            "size": 4, "time_control": {"kind": "live", "delay_s": 8, "reserve_s": 90}}
    made = live_staff_api.post("/tournaments", body)
    assert made.status_code == 201
    shown = live_staff_api.get(f"/tournaments/{made.json()['id']}").json()
    assert shown["time_control"] == {"kind": "live", "delay_s": 8, "reserve_s": 90}
    slow = live_staff_api.post("/tournaments", {**body, "name": "Slow", "time_control": None})
    assert live_staff_api.get(f"/tournaments/{slow.json()['id']}").json()["time_control"] is None
    refused = live_staff_api.post("/tournaments", {**body, "time_control": {"kind": "live", "delay_s": 1, "reserve_s": 90}})
    assert refused.status_code == 422
