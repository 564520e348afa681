"""E-mail notices: each kind is queued on commit and sent only by the worker's task, once; the
opt-outs, the digest, the 80% time warning, bots and the actor, the one-click unsubscribe."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, scripted_dice, start_game
from notice_tasks import queued_notices, run_queued_notices
from racing import race

from accounts.models import Profile
from backgammon.engine import Phase
from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import challenge_create, roll_request
from bots.accounts import create_bot_accounts
from bots.models import Bot
from messaging.services import message_send
from notices.models import NoticePreferences, SentNotice
from notices.periodic import queue_periodic_notices
from notices.preferences import preferences_update
from notices.receivers import on_message_sent
from notices.sending import notify_time_warning
from notices.unsubscribe import unsubscribe_url

pytestmark = pytest.mark.django_db

ONE_DAY = timedelta(days=1)


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Any:
    """Run the on-commit hooks (the signals that queue notices) as a real request's commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def alice_opened(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any, **options: Any) -> Game:
    """Alice wins the opening 3-1 and plays it: Bob is to act (to roll, or double)."""
    scripted_dice(monkeypatch).then((3, 1), (6, 5), (4, 2), (5, 5))
    with on_commit():
        game = start_game(alice, bob, **options)
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert game.actor == bob
    return game


def play_turn(game: Game, player: Any) -> Game:
    """``player`` rolls if need be and plays the first legal play."""
    if game.state().phase is Phase.ROLL:
        game = act(game, player, roll_request())
    play = game.state().legal_plays()[0]
    return act(game, player, Action.play([(m.origin, m.destination) for m in play.moves]))


def test_a_move_only_queues_a_task_and_the_worker_sends_the_your_turn_notice(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any
) -> None:
    game = alice_opened(monkeypatch, alice, bob, on_commit)

    assert "notices.tasks.send_your_turn_notice" in queued_notices()
    assert mail.outbox == []  # the page sent nothing itself
    run_queued_notices()

    assert [m.to for m in mail.outbox] == [["bob@example.com"]]  # not Alice, who just moved
    notice = mail.outbox[0]
    game_url = f"http://testserver{reverse('backgammon:game', args=[game.pk])}"
    assert "your turn against alice" in notice.subject
    assert game_url in notice.body
    html, kind = notice.alternatives[0]
    assert kind == "text/html" and f'href="{game_url}"' in html
    assert notice.extra_headers["List-Unsubscribe"] == f"<{unsubscribe_url(bob)}>"
    assert notice.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe_url(bob) in notice.body


@pytest.mark.parametrize(
    ("options", "said"),
    [({"variant": "BX", "match_length": 0}, "(Backgammon)"),
     ({"variant": "BP", "match_length": 5}, "(Pro Backgammon, 0-0 (to 5))")],
)
def test_the_your_turn_mail_shows_a_score_only_for_a_match(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any, options: Any, said: str
) -> None:
    alice_opened(monkeypatch, alice, bob, on_commit, **options)
    run_queued_notices()
    notice = mail.outbox[0]
    html, _ = notice.alternatives[0]
    assert said in " ".join(notice.body.split()) and said in " ".join(html.split())
    assert ", )" not in notice.body and ", )" not in html


def test_the_game_page_never_sends_mail_itself(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, alice_client: Client, on_commit: Any
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (6, 5))
    game = start_game(alice, bob, variant="BX", match_length=0)
    with on_commit():
        response = alice_client.post(
            reverse("backgammon:game_act", args=[game.pk]),
            {"kind": "play", "expected_number": game.action_count, "steps": "8-5,6-5"},
        )
    assert response.status_code == 302
    assert queued_notices()[-1] == "notices.tasks.send_your_turn_notice"
    assert mail.outbox == []  # until the worker runs the task
    assert True in run_queued_notices()
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_the_task_run_twice_sends_once(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any) -> None:
    from notices.sending import notify_your_turn

    game = alice_opened(monkeypatch, alice, bob, on_commit)
    assert notify_your_turn(game.pk, game.action_count) is True
    assert notify_your_turn(game.pk, game.action_count) is False
    assert len(mail.outbox) == 1


def test_no_mail_to_the_player_who_acted_and_is_still_to_act(
    monkeypatch: pytest.MonkeyPatch, settings: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    settings.NOTICE_TURN_EVERY_MINUTES = 0  # so only the actor rule can hold the mail back
    game = alice_opened(monkeypatch, alice, bob, on_commit)
    run_queued_notices()
    assert len(mail.outbox) == 1
    with on_commit():
        game = act(game, bob, roll_request())  # Bob rolls: still his turn, to play
    assert game.actor == bob
    assert queued_notices() == []  # his own roll passed no turn: nothing for the worker to do
    assert run_queued_notices() == []
    assert len(mail.outbox) == 1


def test_at_most_one_your_turn_mail_per_game_in_the_interval(
    monkeypatch: pytest.MonkeyPatch, settings: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    settings.NOTICE_TURN_EVERY_MINUTES = 60
    # The clock ticks: the actions of one service call share a timestamp, and that is how the
    # task tells who chose the last action (frozen time would make every action one call).
    with time_machine.travel("2026-03-02 10:00:00+00:00", tick=True):
        game = alice_opened(monkeypatch, alice, bob, on_commit, variant="BX", match_length=0)
        run_queued_notices()
    with time_machine.travel("2026-03-02 10:20:00+00:00", tick=True):
        with on_commit():
            game = play_turn(game, bob)
        run_queued_notices()
    assert [m.to for m in mail.outbox] == [["bob@example.com"], ["alice@example.com"]]
    with time_machine.travel("2026-03-02 10:30:00+00:00", tick=True):
        with on_commit():
            game = play_turn(play_turn(game, alice), bob)
        run_queued_notices()
    assert game.actor == alice
    assert len(mail.outbox) == 2  # Alice had one for this game twenty minutes ago
    with time_machine.travel("2026-03-02 11:21:00+00:00", tick=True):
        with on_commit():
            game = play_turn(game, alice)
        run_queued_notices()
        with on_commit():
            game = play_turn(game, bob)
        run_queued_notices()
    assert [m.to for m in mail.outbox][2:] == [["bob@example.com"], ["alice@example.com"]]


def test_no_your_turn_mail_while_the_player_is_on_the_site(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any
) -> None:
    Profile.objects.filter(user=bob).update(last_seen=timezone.now() - timedelta(minutes=2))
    alice_opened(monkeypatch, alice, bob, on_commit)
    assert True not in run_queued_notices()
    assert mail.outbox == []


@pytest.mark.parametrize(("address", "seen_minutes_ago", "queued"), [
    ("bob@example.com", None, True),
    ("bob@example.com", 30, True),
    ("bob@example.com", 2, False),  # on the site: the PLAY count tells him
    ("", None, False),  # no address to write to
])
def test_a_turn_queues_the_notice_only_when_a_mail_could_go(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any, address: str,
    seen_minutes_ago: int | None, queued: bool,
) -> None:
    bob.email = address
    bob.save()  # saves forget the kept signed-in user, which the queueing reads
    profile = Profile.objects.get(user=bob)
    profile.last_seen = None if seen_minutes_ago is None else timezone.now() - timedelta(minutes=seen_minutes_ago)
    profile.save()
    scripted_dice(monkeypatch).then((3, 1), (6, 5))
    with on_commit():
        game = start_game(alice, bob)
    DBTaskResult.objects.all().delete()  # Alice's own notice of the opening: not what this is about
    with on_commit():
        act(game, alice, Action.play([(8, 5), (6, 5)]))  # now Bob's turn
    assert ("notices.tasks.send_your_turn_notice" in queued_notices()) is queued


def test_bots_get_no_mail(alice: Any, on_commit: Any) -> None:
    create_bot_accounts(get_user_model(), Profile, Bot)
    bot = get_user_model().objects.get(username="gnubg-easy")
    bot.email = "bot@example.com"  # even with an address
    bot.save()
    with on_commit():
        challenge_create(challenger=alice, opponent="gnubg-easy", variant="BX", time_limit=ONE_DAY)
    assert "notices.tasks.send_new_challenge_notice" in queued_notices()
    assert run_queued_notices() == [False]
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("delivery", "flag_off"), [("immediate", "your_turn"), ("digest", None), ("none", None)]
)
def test_the_opt_outs_stop_your_turn_mail(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any, delivery: str, flag_off: str | None
) -> None:
    flags = {flag_off: False} if flag_off else {}
    preferences_update(user=bob, delivery=delivery, **flags)
    alice_opened(monkeypatch, alice, bob, on_commit)
    assert True not in run_queued_notices()
    assert mail.outbox == []


def test_a_new_challenge_is_mailed_with_its_message_escaped(alice: Any, bob: Any, on_commit: Any) -> None:
    with on_commit():
        challenge_create(
            challenger=alice, opponent="bob", variant="BX", time_limit=ONE_DAY,
            message="<script>alert(1)</script> fancy a game?",
        )
    assert mail.outbox == []
    assert run_queued_notices() == [True]
    notice = mail.outbox[0]
    assert notice.to == ["bob@example.com"] and "alice challenges you" in notice.subject
    html = notice.alternatives[0][0]
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)</script> fancy a game?" in notice.body  # plain text stays plain
    assert "http://testserver/games/" in notice.body


def test_the_new_challenge_opt_out(alice: Any, bob: Any, on_commit: Any) -> None:
    preferences_update(user=bob, delivery="immediate", new_challenge=False)
    with on_commit():
        challenge_create(challenger=alice, opponent="bob", variant="BX", time_limit=ONE_DAY)
    assert run_queued_notices() == [False]
    assert mail.outbox == []


def sent_message(sender: Any, recipient: Any, capture: Any) -> Any:
    """A message sent through messaging's service; its message_sent fires on commit."""
    with capture(execute=True):
        return message_send(sender=sender, to=recipient.username, subject="Rematch?",
                            body="Good game <b>friend</b>.\nAnother?")


def test_a_new_message_is_mailed_by_the_worker_once(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    message = sent_message(alice, bob, django_capture_on_commit_callbacks)
    on_message_sent(message=message)  # the same message twice: one mail

    assert mail.outbox == []
    assert run_queued_notices() == [True, False]
    notice = mail.outbox[0]
    assert notice.to == ["bob@example.com"] and "a message from alice" in notice.subject
    assert "Good game &lt;b&gt;friend&lt;/b&gt;.<br>Another?" in notice.alternatives[0][0]
    assert f"/messages/{message.pk}/" in notice.body


def test_the_new_message_opt_out(alice: Any, bob: Any, django_capture_on_commit_callbacks: Any) -> None:
    preferences_update(user=bob, delivery="immediate", new_message=False)
    sent_message(alice, bob, django_capture_on_commit_callbacks)
    assert run_queued_notices() == [False]
    assert mail.outbox == []


def test_a_message_that_came_with_a_move_is_not_mailed_twice(alice: Any, bob: Any) -> None:
    move_message = SimpleNamespace(pk=1, kind="move", recipient_id=bob.pk, sender_id=alice.pk,
                                   subject="", body="Nice roll")
    on_message_sent(message=move_message)  # the your-turn notice carries it
    assert run_queued_notices() == []


def test_the_time_warning_goes_once_when_80_percent_of_the_move_time_has_passed(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any
) -> None:
    with time_machine.travel("2026-03-02 10:00:00+00:00", tick=False):
        game = alice_opened(monkeypatch, alice, bob, on_commit, variant="BX", match_length=0, time_limit=ONE_DAY)
        run_queued_notices()  # the your-turn notice
    mail.outbox.clear()
    assert game.deadline == game.updated_at + ONE_DAY
    with time_machine.travel(game.deadline - timedelta(hours=5), tick=False):  # 79% gone
        assert queue_periodic_notices() == 0
    with time_machine.travel(game.deadline - timedelta(hours=4, minutes=30), tick=False):  # 81%
        assert queue_periodic_notices() == 1
        assert queue_periodic_notices() == 1  # queued again until sent: the task decides
        assert run_queued_notices() == [True, False]
        assert queue_periodic_notices() == 0
        assert notify_time_warning(game.pk, game.action_count) is False
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "time is running out" in mail.outbox[0].subject
    assert "4 hours 30 minutes left" in mail.outbox[0].body
    with time_machine.travel(game.deadline + timedelta(minutes=1), tick=False):  # too late now
        SentNotice.objects.all().delete()
        assert queue_periodic_notices() == 0


@pytest.mark.django_db(transaction=True)
def test_two_workers_sending_the_same_warning_send_it_once(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BX", match_length=0, time_limit=ONE_DAY)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert game.deadline is not None
    at = game.deadline - timedelta(hours=1)

    outcomes = race(2, lambda: str(notify_time_warning(game.pk, game.action_count, now=at)))

    assert outcomes == ["False", "True"]
    assert len([m for m in mail.outbox if "time is running out" in m.subject]) == 1
    assert SentNotice.objects.filter(kind="time_warning").count() == 1


def test_the_time_warning_opt_out(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any) -> None:
    preferences_update(user=bob, delivery="immediate", time_warning=False)
    game = alice_opened(monkeypatch, alice, bob, on_commit, variant="BX", match_length=0, time_limit=ONE_DAY)
    assert game.deadline is not None
    assert notify_time_warning(game.pk, game.action_count, now=game.deadline - timedelta(hours=1)) is False


def test_the_daily_digest_lists_the_games_waiting_least_time_left_first_once_a_day(
    monkeypatch: pytest.MonkeyPatch, settings: Any, alice: Any, bob: Any, charlie: Any, on_commit: Any
) -> None:
    settings.NOTICE_DIGEST_HOUR = 7
    preferences_update(user=bob, delivery="digest")
    scripted_dice(monkeypatch).then((3, 1), (6, 5), (3, 1), (6, 5))
    with time_machine.travel("2026-03-02 06:00:00+00:00", tick=False):
        with on_commit():
            slow = start_game(alice, bob, variant="BX", match_length=0, time_limit=timedelta(days=3))
            act(slow, alice, Action.play([(8, 5), (6, 5)]))
            fast = start_game(charlie, bob, variant="BX", match_length=0, time_limit=ONE_DAY)
            act(fast, charlie, Action.play([(8, 5), (6, 5)]))
        assert True not in run_queued_notices()  # no immediate notices with the digest
        assert queue_periodic_notices() == 0  # before the digest hour
    with time_machine.travel("2026-03-02 07:00:30+00:00", tick=False):
        assert queue_periodic_notices() == 1
        assert run_queued_notices() == [True]
        assert queue_periodic_notices() == 0  # today's went
    digest = mail.outbox[0]
    assert digest.to == ["bob@example.com"] and "2 games waiting for you" in digest.subject
    body = digest.body
    assert body.index(f"#{fast.pk} against charlie") < body.index(f"#{slow.pk} against alice")
    assert "22 hours 59 minutes left" in body and "2 days 22 hours left" in body
    with time_machine.travel("2026-03-03 07:05:00+00:00", tick=False):
        assert queue_periodic_notices() == 1  # the next day's


def test_no_digest_for_players_who_chose_immediate_notices(alice: Any) -> None:
    NoticePreferences.objects.create(user=alice)
    with time_machine.travel("2026-03-02 12:00:00+00:00", tick=False):
        assert queue_periodic_notices() == 0


def test_unsubscribe_asks_first_then_works_without_login_or_csrf(bob: Any) -> None:
    url = unsubscribe_url(bob).removeprefix("http://testserver")
    client = Client(enforce_csrf_checks=True)

    page = client.get(url)
    assert page.status_code == 200 and b"Unsubscribe</button>" in page.content
    assert not NoticePreferences.objects.filter(delivery="none").exists()  # a GET changes nothing

    done = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and b"no more e-mail notices" in done.content
    assert NoticePreferences.objects.get(user=bob).delivery == "none"


@pytest.mark.parametrize("change", ["tamper", "cut", "forged"])
def test_a_bad_unsubscribe_link_is_refused_and_changes_nothing(bob: Any, alice: Any, change: str) -> None:
    preferences_update(user=bob, delivery="immediate")
    url = unsubscribe_url(bob).removeprefix("http://testserver")
    token = url.rstrip("/").rsplit("/", 1)[1]
    bad = {
        "tamper": token.replace(token.split(":")[0], str(alice.pk), 1),
        "cut": token[:-4],
        "forged": "1:bm90LWEtcmVhbC1zaWduYXR1cmU",
    }[change]
    client = Client(enforce_csrf_checks=True)
    for response in (
        client.get(reverse("notices:unsubscribe", args=[bad])),
        client.post(reverse("notices:unsubscribe", args=[bad])),
    ):
        assert response.status_code == 400
        assert b"Nothing was changed" in response.content
    assert set(NoticePreferences.objects.values_list("delivery", flat=True)) == {"immediate"}


def test_the_settings_page_needs_a_login(client: Client) -> None:
    response = client.get(reverse("notices:settings"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    assert client.post(reverse("notices:settings"), {"delivery": "none"}).status_code == 302
    assert not NoticePreferences.objects.exists()


def test_the_settings_page_saves_the_choice(alice: Any, alice_client: Client) -> None:
    page = alice_client.get(reverse("notices:settings"))
    assert page.status_code == 200 and b"alice@example.com" in page.content

    response = alice_client.post(reverse("notices:settings"), {"delivery": "immediate", "your_turn": "on"})

    assert response.status_code == 302
    saved = NoticePreferences.objects.get(user=alice)
    assert (saved.delivery, saved.your_turn, saved.new_challenge, saved.time_warning) == ("immediate", True, False, False)


@pytest.mark.parametrize("delivery", ["weekly", "", "x" * 5000])
def test_the_settings_page_refuses_a_bad_choice_and_changes_nothing(alice: Any, alice_client: Client, delivery: str) -> None:
    preferences_update(user=alice, delivery="digest")
    response = alice_client.post(reverse("notices:settings"), {"delivery": delivery})
    assert response.status_code == 400 and b"errorlist" in response.content
    saved = NoticePreferences.objects.get(user=alice)
    assert (saved.delivery, saved.your_turn, saved.new_message) == ("digest", True, True)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_the_notice_the_move_queued(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, start_worker: Any
) -> None:
    from django_tasks_db.models import DBTaskResult

    from tests.site.worker_process import wait_for

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BX", match_length=0)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))  # committed: the task is queued
    assert not SentNotice.objects.exists()
    start_worker(EMAIL_URL="dummy:")

    def sent() -> bool:
        """the worker to send Bob's your-turn notice"""
        return SentNotice.objects.filter(user=bob, kind="your_turn", game_id=game.pk).exists()

    wait_for(sent)
    turn_task = DBTaskResult.objects.filter(task_path="notices.tasks.send_your_turn_notice").latest("enqueued_at")
    wait_for(lambda: DBTaskResult.objects.get(pk=turn_task.pk).status == "SUCCESSFUL")
    assert not SentNotice.objects.filter(user=alice, kind="your_turn").exists()


def test_a_player_on_the_site_is_never_taken_for_away_by_the_kept_signed_in_user() -> None:
    # The queueing judges from the kept user, whose last_seen ages by up to the keeping time on
    # top of the marking interval: together they stay inside the "on the site" window.
    from django.conf import settings

    from accounts.backends import SIGNED_IN_USER_SECONDS
    from accounts.presence import SEEN_EVERY

    assert SEEN_EVERY.total_seconds() + SIGNED_IN_USER_SECONDS < settings.NOTICE_ONLINE_MINUTES * 60
