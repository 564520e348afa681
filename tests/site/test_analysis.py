"""Analysis: asked for on a finished game's page, queued once, run by the worker's task, shown
on the page (progress, then the link) and beside each move of the replay."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from analysis.models import GameAnalysis
from analysis.services import analysis_run
from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.site.gamebuilder import act, scripted_dice, start_game

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return html.unescape(response.content.decode())


def worst_and_best(game: Game) -> tuple[Any, Any]:
    """gnubg's worst and best plays for the player on roll (0-ply cubeful, through the binding;
    no bear-off here, so no move tuple is cut)."""
    from analysis.gnubg_analysis import gnubg_board, gnubg_cube, gnubg_result_id
    from backgammon.gnubg_home import gnubg

    state = game.state()
    board = gnubg_board(state.position)
    ranked = sorted(gnubg.findbestmoves(board, gnubg_cube(state), gnubg.evalcontext(1, 0, 0, 1, 0), state.dice),
                    key=lambda entry: -entry["score"])
    by_result = {play.result.id: play for play in state.legal_plays()}
    return by_result[gnubg_result_id(board, ranked[-1]["move"])], by_result[gnubg_result_id(board, ranked[0]["move"])]


@pytest.fixture
def finished_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    return finish_a_short_game(alice, bob, monkeypatch)


def finish_a_short_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A short game from the usual start: Alice (Black) opens with gnubg's worst play of her 61,
    each then plays once more, and Bob resigns, which Alice accepts."""
    scripted_dice(monkeypatch).then((6, 1), (2, 1), (6, 6), (5, 4))
    game = start_game(alice, bob, variant="BX", match_length=0)
    worst, _ = worst_and_best(game)
    game = act(game, alice, Action.play([(m.origin, m.destination) for m in worst.moves]),
               message="Good luck")
    for player, message in ((bob, "You too"), (alice, "")):
        play = game.state().legal_plays()[0]
        game = act(game, player, Action.play([(m.origin, m.destination) for m in play.moves]),
                   message=message)
    game = act(game, bob, Action.resign(1))
    game = act(game, alice, Action.accept_resign())
    assert game.status == Game.Status.FINISHED
    return game


def start(client: Client, game: Game, **extra: Any) -> Any:
    return client.post(reverse("analysis:start", args=[game.pk]), **extra)


def analysis_tasks() -> int:
    return DBTaskResult.objects.filter(task_path="analysis.tasks.analyse_game").count()


def test_it_queues_one_analysis_however_often_asked(finished_game: Game, alice_client: Client,
                                                     charlie_client: Client,
                                                     django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = start(alice_client, finished_game)
        again = start(charlie_client, finished_game)  # a watcher may ask too: nothing new
    assert response.status_code == again.status_code == 302
    analysis = GameAnalysis.objects.get(game=finished_game)
    assert analysis.status == GameAnalysis.Status.QUEUED
    assert analysis_tasks() == 1
    assert analysis_run(analysis.pk) is True
    assert analysis_run(analysis.pk) is False  # a second run of the task changes nothing
    analysis.refresh_from_db()
    assert analysis.status == GameAnalysis.Status.DONE
    assert analysis.done == analysis.total == finished_game.action_count
    results = analysis.results
    assert len(results["actions"]) == finished_game.action_count
    assert GameAnalysis.objects.count() == 1 and analysis_tasks() == 1


def test_the_worst_play_loses_equity_and_names_the_best(finished_game: Game, alice: Any,
                                                       alice_client: Client,
                                                       django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        start(alice_client, finished_game)
    analysis_run(GameAnalysis.objects.get().pk)
    results = GameAnalysis.objects.get().results
    plays = [entry for entry in results["actions"] if entry["kind"] == "play"]
    first = plays[0]
    assert first["side"] == 0 and first["choices"] > 1
    assert first["equity_loss"] > 0.01
    assert first["best"] != finished_game.actions.get(kind="play", number=first_play_number(finished_game)).notation
    rolls = [entry for entry in results["actions"] if entry["kind"] == "roll"]
    # gnubg rates the luck of each roll a play followed; Bob's 54, cut short by his resignation,
    # has no block in its export and no luck here either.
    assert all("luck" in entry for entry in rolls[:-1]) and "luck" not in rolls[-1]
    assert results["players"]["black"]["unforced"] >= 1
    assert results["players"]["black"]["error_rate"] > 0
    assert all(0.0 < entry["win_black"] < 1.0 for entry in plays)
    assert len(plays) == 3


def first_play_number(game: Game) -> int:
    return game.actions.filter(kind="play").order_by("number").values_list("number", flat=True)[0]


def test_an_unfinished_game_cannot_be_analysed(alice: Any, bob: Any, alice_client: Client) -> None:
    game = start_game(alice, bob, variant="BP", match_length=3)
    response = start(alice_client, game)
    assert response.status_code == 400
    assert "Analysis is for finished games: this one is not over yet." in text(response)
    assert not GameAnalysis.objects.exists() and analysis_tasks() == 0


def test_anti_backgammon_explains_why_there_is_no_analysis(alice: Any, bob: Any, alice_client: Client,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_dice(monkeypatch).then((6, 1))  # Alice opens, so she may resign
    game = start_game(alice, bob, variant="BA", match_length=0)
    act(game, alice, Action.resign(1))
    game = Game.objects.get(pk=game.pk)
    act(game, bob, Action.accept_resign())
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    page = text(alice_client.get(reverse("backgammon:game", args=[game.pk])))
    assert "Analysis is not available for Anti-Backgammon: GNU Backgammon does not play" in page
    assert "Analyse this game" not in page
    response = start(alice_client, game)
    assert response.status_code == 400
    assert not GameAnalysis.objects.exists()


def test_the_game_page_offers_then_shows_progress_then_links(finished_game: Game, alice_client: Client,
                                                             django_capture_on_commit_callbacks: Any) -> None:
    game_url = reverse("backgammon:game", args=[finished_game.pk])
    assert "Analyse this game" in text(alice_client.get(game_url))
    with django_capture_on_commit_callbacks(execute=True):
        panel = start(alice_client, finished_game, HTTP_HX_REQUEST="true")
    assert panel.status_code == 200
    # The panel asks again when a pushed event says the analysis moved on (tests/site/test_live_topics.py),
    # and keeps the game region's hx-select from applying to its answers (which made it vanish).
    assert "Waiting for the worker" in text(panel)
    assert f'data-live-topic="analysis-{finished_game.pk}"' in text(panel)
    assert 'hx-trigger="live:changed, live:poll"' in text(panel) and 'hx-select="#analysis"' in text(panel)
    poll_url = reverse("analysis:panel", args=[finished_game.pk])
    assert alice_client.get(poll_url).status_code == 200
    GameAnalysis.objects.update(status="running", done=3, total=finished_game.action_count)
    running = text(alice_client.get(poll_url))
    assert f"Analysing: 3 of {finished_game.action_count} actions." in running
    analysis_run(GameAnalysis.objects.get().pk)  # nothing: it is not queued any more
    GameAnalysis.objects.update(status="queued")
    analysis_run(GameAnalysis.objects.get().pk)
    done = alice_client.get(poll_url)
    assert done.status_code == 200
    assert "The analysis is ready." in text(done) and "live:changed" not in text(done)  # nothing more to hear
    assert reverse("analysis:replay", args=[finished_game.pk]) in text(alice_client.get(game_url))


def test_operators_see_each_analysis_in_the_admin(finished_game: Game, alice: Any, admin_client: Client,
                                                  django_capture_on_commit_callbacks: Any) -> None:
    from analysis.services import analysis_request

    with django_capture_on_commit_callbacks(execute=True):
        analysis = analysis_request(game_id=finished_game.pk, user=alice)
    analysis_run(analysis.pk)
    page = text(admin_client.get(reverse("admin:analysis_gameanalysis_changelist")))
    assert f"#{finished_game.pk} BX alice v bob" in page and 'class="field-status">Done<' in page
    detail = admin_client.get(reverse("admin:analysis_gameanalysis_change", args=[analysis.pk]))
    assert detail.status_code == 200


def test_an_aborted_game_says_there_is_nothing_to_analyse(alice: Any, bob: Any, admin_user: Any,
                                                          alice_client: Client) -> None:
    from backgammon.services import game_abort

    game = start_game(alice, bob, variant="BP", match_length=3)
    game_abort(game_id=game.pk, staff=admin_user, reason="Players asked")
    response = start(alice_client, game)
    assert response.status_code == 400
    assert "This game was aborted by the staff: there is nothing to analyse." in text(response)
    assert not GameAnalysis.objects.exists()
