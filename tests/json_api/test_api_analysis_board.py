"""GET /api/v1/analysis/position: gnubg's plays and cube decision for a position, computed by the
worker and kept; bad IDs 422, the per-player limit 429."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from analysis.models import PositionAnalysis
from analysis.position_services import position_analysis_run
from tests.json_api.conftest import ApiClient
from tests.site.worker_process import WorkerStarter, wait_for

pytestmark = pytest.mark.django_db

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10"
TASK = "analysis.tasks.analyse_position_task"


def _run_queued() -> None:
    for row in PositionAnalysis.objects.filter(status="queued"):
        position_analysis_run(row.pk)


@override_settings(POSITION_ANALYSIS_WAIT_SECONDS=0)
def test_a_new_position_is_queued_then_answered_from_the_kept_result(
    alice_api: ApiClient, bob_api: ApiClient, django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = alice_api.get("/analysis/position", xgid=START, dice="63")
    assert first.status_code == 202 and first["Retry-After"] == "1"
    assert first.json() == {"status": "queued", "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:63:0:0:0:5:10",
                            "plies": 0, "plays": [], "cube": None}
    assert DBTaskResult.objects.filter(task_path=TASK).count() == 1
    _run_queued()
    # The same position, however written (36 for 63, no XGID= in front), from another player.
    answer = bob_api.get("/analysis/position", xgid=START[5:].replace(":00:", ":36:"))
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "done" and body["plies"] == 0
    moves = [play["move"] for play in body["plays"]]
    assert moves[0] == "24/15" and "24/18 13/10" in moves and len(moves) == len(set(moves)) == 14
    equities = [play["equity"] for play in body["plays"]]
    assert equities == sorted(equities, reverse=True)
    assert set(body["plays"][0]["chances"]) == {"win", "win_gammon", "win_backgammon", "lose", "lose_gammon",
                                                "lose_backgammon"}
    assert body["cube"]["action"] == "No double, take"
    assert body["cube"]["no_double"] > body["cube"]["double_take"]
    assert DBTaskResult.objects.filter(task_path=TASK).count() == 1  # nothing asked again
    with django_capture_on_commit_callbacks(execute=True):
        alice_api.get("/analysis/position", xgid=START, dice="63", plies="2")
    queues = DBTaskResult.objects.filter(task_path=TASK).order_by("enqueued_at").values_list("queue_name", flat=True)
    assert list(queues) == ["default", "analysis"]  # a slow 2-ply never holds up the bots


@override_settings(POSITION_ANALYSIS_WAIT_SECONDS=0)
def test_position_and_match_ids_and_a_pending_double_are_read(alice_api: ApiClient) -> None:
    # The opening position, Black on roll in a 5-point match (the Match ID holds the dice 31).
    ids = alice_api.get("/analysis/position", position_id="4HPwATDgc/ABMA", match_id="MIGlAAAAAAAE", dice="31")
    assert ids.status_code == 202
    assert ids.json()["xgid"] == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10"
    double = alice_api.get("/analysis/position", xgid="XGID=-a-B--E-B-a-dDB--b-bcb----:0:0:-1:D:2:4:0:7:10")
    assert double.status_code == 202
    _run_queued()
    answer = alice_api.get("/analysis/position", xgid="XGID=-a-B--E-B-a-dDB--b-bcb----:0:0:-1:D:2:4:0:7:10").json()
    assert answer["plays"] == [] and answer["cube"]["action"]
    opening = alice_api.get("/analysis/position", position_id="4HPwATDgc/ABMA", match_id="MIGlAAAAAAAE",
                            dice="31").json()
    assert opening["plays"][0]["move"] == "8/5 6/5"


@pytest.mark.parametrize(("params", "words"), [
    ({}, "Give an XGID"),
    ({"xgid": "XGID=nonsense"}, "ten fields"),
    ({"xgid": START, "dice": "77"}, "not a roll"),
    ({"xgid": START, "plies": "3"}, "plies must be 0 or 2"),
    ({"xgid": START, "position_id": "4HPwATDgc/ABMA"}, "not both"),
    ({"position_id": "4HPwATDgc/ABMA"}, "Give an XGID"),
    ({"xgid": "XGID=-a-B--E-B-a-dDB--b-bcb----:0:0:-1:D:2:4:0:7:10", "dice": "31"}, "no dice"),
    ({"xgid": "X" * 101}, "at most 100"),
])
def test_bad_input_is_refused_with_422_and_changes_nothing(alice_api: ApiClient, params: dict[str, str],
                                                           words: str) -> None:
    answer = alice_api.get("/analysis/position", **params)
    assert answer.status_code == 422 and words in answer.json()["detail"], answer.json()
    assert not PositionAnalysis.objects.exists()


def test_the_board_needs_a_token() -> None:
    assert ApiClient().get("/analysis/position", xgid=START).status_code == 401


@override_settings(POSITION_ANALYSIS_WAIT_SECONDS=0, POSITION_ANALYSES_PER_MINUTE=2)
def test_new_positions_are_limited_per_player_but_kept_ones_still_answer(
    alice_api: ApiClient, bob_api: ApiClient,
) -> None:
    assert alice_api.get("/analysis/position", xgid=START, dice="31").status_code == 202
    assert alice_api.get("/analysis/position", xgid=START, dice="42").status_code == 202
    refused = alice_api.get("/analysis/position", xgid=START, dice="65")
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "2 new positions in the last minute" in refused.json()["detail"]
    assert PositionAnalysis.objects.count() == 2
    assert alice_api.get("/analysis/position", xgid=START, dice="31").status_code == 202  # asked already
    assert bob_api.get("/analysis/position", xgid=START, dice="65").status_code == 202  # bob's own share


@override_settings(POSITION_ANALYSIS_WAIT_SECONDS=0)
def test_a_failed_analysis_answers_503_and_is_queued_afresh(alice_api: ApiClient) -> None:
    alice_api.get("/analysis/position", xgid=START, dice="31")
    PositionAnalysis.objects.update(status="failed", failure="the worker died")
    with override_settings(POSITION_ANALYSIS_WAIT_SECONDS=0):
        again = alice_api.get("/analysis/position", xgid=START, dice="31")
    assert again.status_code == 202 and PositionAnalysis.objects.get().status == "queued"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@override_settings(POSITION_ANALYSIS_WAIT_SECONDS=30)
def test_the_real_worker_answers_at_0_and_2_ply(alice_api: ApiClient, start_worker: WorkerStarter) -> None:
    start_worker()
    start_worker(queue_name="analysis")  # 2-ply answers run there, behind no bot
    zero = alice_api.get("/analysis/position", xgid=START, dice="63")
    two = alice_api.get("/analysis/position", xgid=START, dice="63", plies="2")
    assert (zero.status_code, two.status_code) == (200, 200), (zero.json(), two.json())
    # gnubg's 2-ply prefers 24/18 13/10 where its 0-ply prefers 24/15.
    assert zero.json()["plays"][0]["move"] == "24/15"
    assert two.json()["plays"][0]["move"] == "24/18 13/10" and two.json()["plays"][0]["plies"] == 2

    def both_kept() -> bool:
        """both answers kept"""
        return PositionAnalysis.objects.filter(status="done").count() == 2

    wait_for(both_kept)


@pytest.mark.parametrize("xgid", ["XGID=-b----E-C---eE---c-e----B-:0:0:1:00:\u00b2:0:0:5:10",
                                  "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10\x00"])
def test_odd_characters_get_422(alice_api: ApiClient, xgid: str) -> None:
    answer = alice_api.get("/analysis/position", xgid=xgid)
    assert answer.status_code in (400, 422)
    assert not PositionAnalysis.objects.exists()
