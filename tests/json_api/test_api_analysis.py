"""POST and GET /api/v1/games/{id}/analysis: queue a finished game's analysis through the page's
service and read the same stored result the replay page shows, with gnubg's marks."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from analysis.marks import mark
from analysis.models import GameAnalysis
from analysis.services import analysis_run
from backgammon.engine import Action
from backgammon.models import Game
from backgammon.services import MATCH_VARIANTS
from backgammon.services.watching import game_set_private
from tests.json_api.conftest import ApiClient
from tests.site.gamebuilder import act, scripted_dice, start_game
from tests.site.test_analysis import finish_a_short_game

pytestmark = pytest.mark.django_db

TASK = "analysis.tasks.analyse_game"


@pytest.fixture
def finished_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    return finish_a_short_game(alice, bob, monkeypatch)


def resigned(black: Any, white: Any, monkeypatch: pytest.MonkeyPatch, variant: str = "BX") -> Game:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(black, white, variant=variant, match_length=0)
    game = act(game, black, Action.play([(8, 5), (6, 5)]))
    game = act(game, white, Action.resign(1))
    return act(game, black, Action.accept_resign())


def test_it_queues_once_then_answers_409_while_queued_running_or_done(
    finished_game: Game, alice_api: ApiClient, charlie_api: ApiClient,
    django_capture_on_commit_callbacks: Any,
) -> None:
    path = f"/games/{finished_game.pk}/analysis"
    assert alice_api.get(path).json() == {"status": "none", "progress": 0.0, "players": {}, "actions": []}
    with django_capture_on_commit_callbacks(execute=True):
        queued = alice_api.post(path)
        again = charlie_api.post(path)  # a watcher may ask too, but it is queued already
    assert (queued.status_code, queued.json()) == (202, {"status": "queued"})
    assert again.status_code == 409 and "already queued" in again.json()["detail"]
    assert DBTaskResult.objects.filter(task_path=TASK).count() == 1
    assert alice_api.get(path).json()["status"] == "queued"
    GameAnalysis.objects.filter(game=finished_game).update(status=GameAnalysis.Status.RUNNING, done=3, total=12)
    running = alice_api.get(path).json()
    assert (running["status"], running["progress"]) == ("running", 0.25)
    assert alice_api.post(path).status_code == 409
    GameAnalysis.objects.filter(game=finished_game).update(status=GameAnalysis.Status.QUEUED)
    assert analysis_run(GameAnalysis.objects.get(game=finished_game).pk) is True
    assert alice_api.post(path).status_code == 409
    assert DBTaskResult.objects.filter(task_path=TASK).count() == 1


def test_done_it_gives_every_action_with_gnubgs_verdict_marks_and_ids(
    finished_game: Game, alice: Any, alice_api: ApiClient, alice_client: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    path = f"/games/{finished_game.pk}/analysis"
    with django_capture_on_commit_callbacks(execute=True):
        alice_api.post(path)
    analysis_run(GameAnalysis.objects.get(game=finished_game).pk)
    body = alice_api.get(path).json()
    assert (body["status"], body["progress"]) == ("done", 1.0)
    stored = GameAnalysis.objects.get(game=finished_game).results
    assert set(body["players"]) == {"alice", "bob"}
    assert set(body["players"]["alice"]) == {"error_rate", "pr", "luck", "errors", "blunders"}
    assert body["players"]["alice"]["error_rate"] == stored["players"]["black"]["error_rate"]
    assert body["players"]["alice"]["luck"] == stored["players"]["black"]["luck"]
    actions = body["actions"]
    assert [row["number"] for row in actions] == list(range(1, finished_game.action_count + 1))
    assert [row["kind"] for row in actions] == [entry["kind"] for entry in stored["actions"]]
    first_play = next(row for row in actions if row["kind"] == "play")
    entry = stored["actions"][first_play["number"] - 1]
    # Alice's opening is gnubg's worst 61: the error is what gnubg's equities say, marked in its words.
    assert first_play["error"] == entry["equity_loss"] > 0.03
    assert first_play["mark"] == mark(entry["equity_loss"]) in ("doubtful", "bad", "very bad")
    assert first_play["best"] == entry["best"] and "/" in first_play["best"]
    rolls = [row for row in actions if row["kind"] == "roll"]
    # gnubg's luck of every roll a play followed; none for Bob's last, cut short by his resignation.
    assert all(isinstance(row["luck"], float) for row in rolls[:-1]) and rolls[-1]["luck"] is None
    assert all(row["error"] is None and row["mark"] is None for row in actions if row["kind"] == "resign")
    assert actions[0]["position_id"] == "4HPwATDgc/ABMA" and actions[0]["xgid"].startswith("XGID=")
    assert all(row["match_id"] for row in actions)
    # The replay page shows the same verdict and the same mark for that play.
    step = [row for row in actions if row["kind"] != "roll"].index(first_play)
    replay = alice_client.get(f"/games/{finished_game.pk}/replay/", {"step": step}).content.decode()
    assert f"({first_play['mark']})" in replay and first_play["best"] in replay


def test_refusals_follow_the_apis_conventions(
    alice: Any, bob: Any, charlie_api: ApiClient, alice_api: ApiClient, anonymous_api: ApiClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert charlie_api.post("/games/999999/analysis").status_code == 404
    assert charlie_api.get("/games/999999/analysis").status_code == 404
    playing = start_game(alice, bob, variant="BP", match_length=3)
    not_over = alice_api.post(f"/games/{playing.pk}/analysis")
    assert not_over.status_code == 409 and "not over yet" in not_over.json()["detail"]
    for variant in ("BA", "BR", "BS"):
        game = resigned_for_variant(alice, bob, monkeypatch, variant)
        refused = alice_api.post(f"/games/{game.pk}/analysis")
        assert refused.status_code == 422, variant
        assert "GNU Backgammon" in refused.json()["detail"]
    private = resigned(alice, bob, monkeypatch)
    game_set_private(game_id=private.pk, user=alice, private=True)
    assert charlie_api.post(f"/games/{private.pk}/analysis").status_code == 403
    assert charlie_api.get(f"/games/{private.pk}/analysis").status_code == 403
    assert anonymous_api.post(f"/games/{private.pk}/analysis").status_code == 401
    assert not GameAnalysis.objects.exists()
    assert alice_api.post(f"/games/{private.pk}/analysis").status_code == 202  # its players may


def resigned_for_variant(black: Any, white: Any, monkeypatch: pytest.MonkeyPatch, variant: str) -> Game:
    scripted_dice(monkeypatch).then((6, 1))
    game = start_game(black, white, variant=variant, match_length=1 if variant in MATCH_VARIANTS else None)
    game = act(game, black, Action.resign(1))
    game = act(game, white, Action.accept_resign())
    assert game.status == Game.Status.FINISHED
    return game


@override_settings(ANALYSES_PER_PLAYER=1)
def test_past_the_players_share_it_answers_429_and_queues_nothing(
    alice: Any, bob: Any, alice_api: ApiClient, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    first, second = resigned(alice, bob, monkeypatch), resigned(alice, bob, monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        assert alice_api.post(f"/games/{first.pk}/analysis").status_code == 202
        refused = alice_api.post(f"/games/{second.pk}/analysis")
    assert refused.status_code == 429 and "You already have 1 analyses waiting" in refused.json()["detail"]
    assert not GameAnalysis.objects.filter(game=second).exists()
    assert DBTaskResult.objects.filter(task_path=TASK).count() == 1


@pytest.mark.parametrize(("kind", "proper", "best"), [
    ("roll", "No double, take (31.1%)", "roll"),
    ("roll", "Double, pass", "double"),
    ("double", "Too good to redouble, pass", "roll"),
    ("double", "Redouble, take", "double"),
    ("take", "Double, pass", "drop"),
    ("drop", "No double, beaver (23.0%)", "beaver"),
    ("take", "Too good to double, take", "take"),
])
def test_gnubgs_proper_cube_action_is_given_as_the_sites_action(kind: str, proper: str, best: str) -> None:
    from analysis.report import cube_best

    assert cube_best(kind, proper) == best
