"""An analysis whose worker is killed does not stay "running" for ever (issue 29, item 12): its
heartbeat stops, any worker's tick marks it failed, and the page's "Try again" queues it afresh."""

from __future__ import annotations

import signal
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from gamebuilder import fast_passwords  # noqa: F401

from analysis.models import GameAnalysis
from analysis.services import analysis_fail_stale, analysis_request
from tests.site.test_analysis_queue import resigned_game
from tests.site.worker_process import WorkerStarter, wait_for


def panel(client: Client, game_id: int) -> str:
    return client.get(reverse("analysis:panel", args=[game_id])).content.decode()


@pytest.mark.django_db
def test_a_silent_running_analysis_is_failed_and_may_be_asked_again(
    alice: Any, bob: Any, bob_client: Client, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    beating, silent = (resigned_game(alice, bob, monkeypatch) for _ in range(2))
    with django_capture_on_commit_callbacks(execute=True):
        for game in (beating, silent):
            analysis_request(game_id=game.pk, user=bob)
    now = timezone.now()
    GameAnalysis.objects.filter(game=beating).update(status="running", heartbeat_at=now - timedelta(seconds=30))
    GameAnalysis.objects.filter(game=silent).update(status="running", done=2, total=5,
                                                    heartbeat_at=now - timedelta(seconds=121))
    assert analysis_fail_stale() == 1
    assert analysis_fail_stale() == 0  # once
    assert GameAnalysis.objects.get(game=beating).status == "running"  # its worker is alive
    failed = GameAnalysis.objects.get(game=silent)
    assert failed.status == "failed" and "stopped (restarted or killed) at 2 of 5" in failed.failure
    shown = panel(bob_client, silent.pk)
    assert "The analysis failed" in shown and "Try again" in shown
    with django_capture_on_commit_callbacks(execute=True):
        assert bob_client.post(reverse("analysis:start", args=[silent.pk])).status_code == 302
    assert GameAnalysis.objects.get(game=silent).status == "queued"


@pytest.mark.django_db
def test_asking_again_for_a_silent_one_queues_it_at_once(
    alice: Any, bob: Any, bob_client: Client, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = resigned_game(alice, bob, monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_request(game_id=game.pk, user=bob)
    GameAnalysis.objects.filter(game=game).update(status="running", heartbeat_at=timezone.now() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        assert bob_client.post(reverse("analysis:start", args=[game.pk])).status_code == 302
    assert GameAnalysis.objects.get(game=game).status == "queued"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_analysis_cut_off_by_a_killed_worker_is_failed_then_done_on_retry(
    alice: Any, bob: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch, start_worker: WorkerStarter
) -> None:
    game = resigned_game(alice, bob, monkeypatch)
    analysis = analysis_request(game_id=game.pk, user=bob)  # committed: the task is queued

    def running() -> bool:
        """the analyses' worker to start the analysis"""
        return GameAnalysis.objects.get(pk=analysis.pk).status == "running"

    first = start_worker(queue_name="analysis")
    wait_for(running, poll=0.02)
    first.send_signal(signal.SIGKILL)  # as an OOM kill or a crash would
    first.wait(timeout=10)
    assert running()

    # The main worker's tick (every 5 s) notices the silence; a short cut-off for the test.
    start_worker(ANALYSIS_STALE_SECONDS="3")

    def failed() -> bool:
        """the silent analysis to be marked failed"""
        return GameAnalysis.objects.get(pk=analysis.pk).status == "failed"

    wait_for(failed, seconds=20)
    bob_client = client_for(bob)
    assert "Try again" in panel(bob_client, game.pk)
    assert bob_client.post(reverse("analysis:start", args=[game.pk])).status_code == 302
    start_worker(queue_name="analysis", ANALYSIS_STALE_SECONDS="3")

    def done() -> bool:
        """the analysis asked again to be done"""
        return GameAnalysis.objects.get(pk=analysis.pk).status == "done"

    wait_for(done, seconds=60, poll=0.2)
