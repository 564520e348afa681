"""Analyses never hold up the bots, deadlines and notices (issue 29, item 4): they have a queue
and a worker of their own, and one player may have only ANALYSES_PER_PLAYER waiting or running."""

from __future__ import annotations

import re
import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401
from racing import race

from accounts.models import Profile
from analysis.models import GameAnalysis
from analysis.services import AnalysisRejected, analysis_request, analysis_run
from backgammon.engine.actions import Action
from backgammon.models import Challenge, Game
from backgammon.services import challenge_create
from bots.accounts import create_bot_accounts
from bots.models import Bot
from tests.site.worker_process import WorkerStarter, wait_for

ROOT = Path(__file__).resolve().parents[2]
ANALYSE = "analysis.tasks.analyse_game"


def resigned_game(black: Any, white: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A finished single game: Black opens, White resigns at once."""
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(black, white, variant="BX", match_length=0)
    game = act(game, black, Action.play([(8, 5), (6, 5)]))
    game = act(game, white, Action.resign(1))
    return act(game, black, Action.accept_resign())


def ask(client: Client, game: Game) -> Any:
    return client.post(reverse("analysis:start", args=[game.pk]))


@pytest.mark.django_db
@override_settings(ANALYSES_PER_PLAYER=2)
def test_it_refuses_a_players_analysis_beyond_their_share_and_changes_nothing(
    alice: Any, bob: Any, charlie: Any, alice_client: Client, charlie_client: Client,
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any,
) -> None:
    games = [resigned_game(alice, bob, monkeypatch) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        assert [ask(alice_client, game).status_code for game in games[:2]] == [302, 302]
        refused = ask(alice_client, games[2])
    assert refused.status_code == 400
    assert "You already have 2 analyses waiting or running" in refused.content.decode()
    assert not GameAnalysis.objects.filter(game=games[2]).exists()
    assert DBTaskResult.objects.filter(task_path=ANALYSE).count() == 2
    # Another player's share is their own; asking for a game already queued costs nothing.
    with django_capture_on_commit_callbacks(execute=True):
        assert ask(charlie_client, games[0]).status_code == 302
        assert ask(charlie_client, games[2]).status_code == 302
    assert GameAnalysis.objects.get(game=games[2]).requested_by == charlie
    # Once one of hers is done, Alice may ask again.
    assert analysis_run(GameAnalysis.objects.get(game=games[0]).pk) is True
    extra = resigned_game(alice, bob, monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        assert ask(alice_client, extra).status_code == 302
    assert GameAnalysis.objects.get(game=extra).status == GameAnalysis.Status.QUEUED


@pytest.mark.django_db(transaction=True)
@override_settings(ANALYSES_PER_PLAYER=1)
def test_simultaneous_requests_of_one_player_count_each_other(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = iter([resigned_game(alice, bob, monkeypatch) for _ in range(4)])
    next_game = threading.Lock()

    def attempt() -> str:
        with next_game:
            game = next(games)
        try:
            analysis_request(game_id=game.pk, user=bob)
        except AnalysisRejected:
            return "refused"
        return "queued"

    assert race(4, attempt) == ["queued", "refused", "refused", "refused"]
    assert GameAnalysis.objects.filter(requested_by=bob).count() == 1


@pytest.mark.django_db
def test_analyses_go_to_their_own_queue(
    alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = resigned_game(alice, bob, monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        ask(alice_client, game)
    assert list(DBTaskResult.objects.filter(task_path=ANALYSE).values_list("queue_name", flat=True)) == ["analysis"]
    assert set(DBTaskResult.objects.exclude(task_path=ANALYSE).values_list("queue_name", flat=True)) <= {"default"}


def test_make_run_and_the_deployment_start_a_worker_for_analyses() -> None:
    printed = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    workers = re.findall(r"manage\.py db_worker[^&;]*", printed)
    assert sorted(worker.strip() for worker in workers) == [
        "manage.py db_worker --no-reload", "manage.py db_worker --no-reload --queue-name analysis",
    ]
    units = ROOT / "deploy" / "systemd"
    assert "--queue-name" not in (units / "gammon-worker@.service").read_text()
    exec_line = re.search(r"^ExecStart=.*$", (units / "gammon-analysis-worker@.service").read_text(), re.MULTILINE)
    assert exec_line is not None and exec_line.group(0).endswith("db_worker --no-reload --queue-name analysis")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_bot_answers_at_once_with_30_analyses_queued(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, start_worker: WorkerStarter
) -> None:
    finished = [resigned_game(alice, bob, monkeypatch) for _ in range(30)]
    create_bot_accounts(get_user_model(), Profile, Bot)
    start_worker()  # the main worker, as `make run` and gammon-worker@ start it
    challenge = challenge_create(
        challenger=alice, opponent="gnubg-strong", variant="BX", time_limit=timedelta(days=3)
    )

    def alice_to_move() -> bool:
        """the bot to accept and the game to wait for alice"""
        game_id = Challenge.objects.get(pk=challenge.pk).game_id
        return game_id is not None and Game.objects.filter(pk=game_id, actor=alice).exists()

    wait_for(alice_to_move)
    with override_settings(ANALYSES_PER_PLAYER=30):
        for game in finished:  # as the outsider of the probe did
            analysis_request(game_id=game.pk, user=bob)
    game = Game.objects.get(pk=Challenge.objects.get(pk=challenge.pk).game_id)
    play = game.state().legal_plays()[0]
    played = act(game, alice, Action.play([(m.origin, m.destination) for m in play.moves])).action_count
    started = time.monotonic()

    def bot_answered() -> bool:
        """the bot to play and the game to wait for alice again"""
        current = Game.objects.get(pk=game.pk)
        return current.action_count > played and current.actor_id == alice.pk

    wait_for(bot_answered, seconds=30)
    answered_in = time.monotonic() - started
    print(f"bot answered in {answered_in:.2f} s with 30 analyses queued")
    assert answered_in < 4
    assert GameAnalysis.objects.filter(status="queued").count() == 30  # none taken by that worker

    start_worker(queue_name="analysis")

    def one_analysed() -> bool:
        """the analyses' worker to finish one"""
        return GameAnalysis.objects.filter(status="done").exists()

    wait_for(one_analysed, seconds=60, poll=0.2)
