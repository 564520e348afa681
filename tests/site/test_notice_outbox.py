"""A notice cut off by a worker kill is sent after all, once (issue 29, item 13): the claim and
the composed mail are committed before the mail server is asked, and a mail still held after
NOTICE_RESEND_AFTER_SECONDS is sent again by the workers' tick (notices/outbox.py)."""

from __future__ import annotations

import signal
import smtplib
import time
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401
from smtp_stand_in import SmtpStandIn

from backgammon.engine.actions import Action
from backgammon.models import Game
from notices import outbox
from notices.models import SentNotice
from notices.sending import notify_your_turn
from tests.site.worker_process import WorkerStarter, wait_for


def bob_to_act(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BX", match_length=0)
    return act(game, alice, Action.play([(8, 5), (6, 5)]))


def your_turn_notice(bob: Any) -> SentNotice:
    return SentNotice.objects.get(user=bob, kind="your_turn")


@pytest.mark.django_db
def test_a_mail_the_server_failed_stays_held_and_goes_again_once(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = bob_to_act(alice, bob, monkeypatch)
    sent = outbox.send_composed

    def server_down(composed: Any) -> None:
        raise smtplib.SMTPServerDisconnected("the mail server went away")

    monkeypatch.setattr(outbox, "send_composed", server_down)
    with pytest.raises(smtplib.SMTPServerDisconnected):
        notify_your_turn(game.pk, game.action_count)
    notice = your_turn_notice(bob)
    assert notice.outbox is not None and notice.attempts == 1 and mail.outbox == []
    monkeypatch.setattr(outbox, "send_composed", sent)

    assert outbox.queue_stale() == 0  # not before NOTICE_RESEND_AFTER_SECONDS
    later = timezone.now() + timedelta(minutes=4)
    assert outbox.queue_stale(later) == 1
    assert outbox.queue_stale(later) == 0  # already queued
    assert DBTaskResult.objects.filter(task_path="notices.tasks.deliver_held_notice").count() == 1
    assert outbox.redeliver(notice.pk, later) is True
    assert outbox.redeliver(notice.pk, later) is False  # one run sends it
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "your turn against alice" in mail.outbox[0].subject
    notice.refresh_from_db()
    assert notice.outbox is None and notice.attempts == 2
    assert notify_your_turn(game.pk, game.action_count) is False  # the task again: nothing new
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_a_mail_sent_at_once_keeps_nothing_held(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = bob_to_act(alice, bob, monkeypatch)
    assert notify_your_turn(game.pk, game.action_count) is True
    assert len(mail.outbox) == 1 and your_turn_notice(bob).outbox is None
    assert outbox.queue_stale(timezone.now() + timedelta(days=1)) == 0


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_notice_cut_off_by_a_killed_worker_is_sent_once_after_the_restart(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, start_worker: WorkerStarter
) -> None:
    server = SmtpStandIn()
    server.hold = True  # a slow mail server: it takes the message and does not answer
    bob_to_act(alice, bob, monkeypatch)  # committed: Bob's your-turn notice is queued
    env = {"EMAIL_URL": server.url, "EMAIL_TIMEOUT": "5", "NOTICE_RESEND_AFTER_SECONDS": "6"}
    first = start_worker(**env)

    def held_by_the_server() -> bool:
        """the mail server to have the whole message, unanswered"""
        return len(server.held) == 1

    wait_for(held_by_the_server)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    assert server.accepted == []
    assert your_turn_notice(bob).outbox is not None  # the claim and its mail outlived the kill

    server.hold = False
    started = time.monotonic()
    start_worker(**env)

    def accepted() -> bool:
        """the restarted worker to send the mail again"""
        return len(server.accepted) >= 1

    wait_for(accepted, seconds=60)
    print(f"sent again {time.monotonic() - started:.1f} s after the restart")
    wait_for(lambda: your_turn_notice(bob).outbox is None)
    time.sleep(7)  # a resend window and more ticks: nothing goes twice
    assert len(server.accepted) == 1
    assert b"bob@example.com" in server.accepted[0] and b"your turn against alice" in server.accepted[0]
    assert SentNotice.objects.filter(kind="your_turn").count() == 1
    server.close()
