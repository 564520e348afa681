"""Web Push notices through a push service stand-in on loopback (tests/site/push_service.py):
the real pywebpush client, from the worker's task code, posts over HTTPS to a service that checks
the VAPID JWT and decrypts each aes128gcm payload with the browser's keys. One push per event
(the e-mails' unique claim), the same switches, no "your turn" while a page listens, 404/410
remove the device."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from gamebuilder import act, scripted_dice, start_game

from backgammon.engine.actions import Action
from backgammon.live import listening_key
from backgammon.models import Game
from backgammon.services import challenge_create
from gamesite.vapid import generate_private_key, public_key_for
from messaging.services import message_send
from notices.models import PushSubscription, SentNotice
from notices.periodic import queue_periodic_notices
from notices.preferences import preferences_update
from notices.push.notify import push_your_turn
from notices.push.subscriptions import push_subscription_from_json
from tests.site.push_service import queued_pushes, run_queued_pushes

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Any:
    return lambda: django_capture_on_commit_callbacks(execute=True)


def device(user: Any, service: Any, name: str) -> PushSubscription:
    return push_subscription_from_json(user=user, data={**service.subscription(name), "name": f"{name} phone"})


def alice_opened(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, on_commit: Any, **options: Any) -> Game:
    """Alice wins the opening 3-1 and plays it: the turn comes to Bob."""
    scripted_dice(monkeypatch).then((3, 1), (6, 5), (4, 2), (5, 5))
    with on_commit():
        game = start_game(alice, bob, **options)
        game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert game.actor == bob
    return game


def test_your_turn_goes_to_each_device_once_signed_and_encrypted(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    device(bob, push_service, "bob-phone")
    device(bob, push_service, "bob-laptop")
    device(alice, push_service, "alice-phone")

    game = alice_opened(monkeypatch, alice, bob, on_commit)

    # The challenge (accepted since) and Alice's turn (played since) decide nothing any more.
    assert queued_pushes()[-1] == "notices.push.tasks.push_your_turn_notice"
    assert push_service.received == []  # the pages pushed nothing themselves
    assert run_queued_pushes()[-1] == 2
    assert len(push_service.received) == 2
    expected = {
        "title": "Your turn against alice",
        "url": f"http://testserver{reverse('backgammon:game', args=[game.pk])}",
        "tag": f"game-{game.pk}",
    }
    for name in ("bob-phone", "bob-laptop"):
        [payload] = push_service.delivered(name)
        assert {key: payload[key] for key in expected} == expected
        assert payload["body"].startswith(f"Game #{game.pk}, ")
    assert push_service.delivered("alice-phone") == []  # she just moved
    accepted = [r for r in push_service.received if r.status == 201]
    assert {r.claims["aud"] for r in accepted} == {push_service.origin}
    assert all(r.headers["urgency"] == "normal" and int(r.headers["ttl"]) > 0 for r in accepted)
    assert all(d.last_used_at is not None for d in PushSubscription.objects.filter(user=bob))

    # The task again, or a second worker: the claim is taken, nothing goes twice.
    assert push_your_turn(game.pk, game.action_count) == 0
    assert len(push_service.delivered()) == 2
    assert SentNotice.objects.filter(channel=SentNotice.Channel.PUSH, user=bob).count() == 1


def test_no_your_turn_push_while_a_page_of_the_player_listens(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    device(bob, push_service, "bob-phone")
    cache.set(listening_key(bob.pk), 1, 60)  # what an open page's live stream marks
    alice_opened(monkeypatch, alice, bob, on_commit)

    assert run_queued_pushes()[-1] == 0
    assert push_service.received == []
    assert not SentNotice.objects.filter(channel=SentNotice.Channel.PUSH).exists()


def test_the_switches_of_the_e_mails_hold_for_push_and_e_mail_delivery_does_not(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    device(bob, push_service, "bob-phone")
    preferences_update(user=bob, delivery="none", your_turn=False)
    alice_opened(monkeypatch, alice, bob, on_commit)
    assert set(run_queued_pushes()) == {0}

    preferences_update(user=bob, delivery="none", your_turn=True)  # no e-mail, but push
    with on_commit():
        challenge_create(challenger=alice, opponent="bob", variant="BX", time_limit=timedelta(days=3))
    preferences_update(user=bob, delivery="none", new_challenge=False)
    with on_commit():
        challenge_create(challenger=alice, opponent="bob", variant="BN", time_limit=timedelta(days=3))
    assert run_queued_pushes() == [0, 0]
    assert push_service.received == []


def test_a_device_its_service_calls_gone_is_removed_and_others_kept(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    for name in ("gone-410", "gone-404", "busy-503", "fine"):
        device(bob, push_service, name)
    push_service.answers.update({"gone-410": 410, "gone-404": 404, "busy-503": 503})

    alice_opened(monkeypatch, alice, bob, on_commit)
    assert run_queued_pushes()[-1] == 1

    assert sorted(PushSubscription.objects.filter(user=bob).values_list("name", flat=True)) == [
        "busy-503 phone", "fine phone"]
    assert len(push_service.delivered("fine")) == 1


def test_a_challenge_a_message_and_a_finished_game_each_push_once(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    device(bob, push_service, "bob-phone")
    device(alice, push_service, "alice-phone")
    with on_commit():
        challenge = challenge_create(challenger=alice, opponent="bob", variant="BN", time_limit=timedelta(days=3))
    with on_commit():
        message = message_send(sender=alice, to="bob", subject="Hello", body="A game?")
    run_queued_pushes()
    run_queued_pushes()  # nothing left to run twice

    challenge_push, message_push = push_service.delivered("bob-phone")
    assert challenge_push == {"title": "alice challenges you", "body": "Accept or decline it on your Game status page.",
                              "url": f"http://testserver{reverse('backgammon:status')}",
                              "tag": f"challenge-{challenge.pk}"}
    assert message_push == {"title": "A message from alice", "body": "Hello",
                            "url": f"http://testserver{reverse('messaging:message', args=[message.pk])}",
                            "tag": f"message-{message.pk}"}

    game = alice_opened(monkeypatch, alice, bob, on_commit, variant="BX", match_length=0)
    run_queued_pushes()
    with on_commit():
        act(game, bob, Action.resign(1))
    with on_commit():
        game = act(Game.objects.get(pk=game.pk), alice, Action.accept_resign())
    assert game.status == Game.Status.FINISHED
    run_queued_pushes()
    finished = push_service.delivered("bob-phone")[-1]
    assert finished["title"] == f"Game #{game.pk} is over" and finished["body"].startswith("alice won.")
    # Alice accepted the resignation herself: she knows the game is over.
    assert [p["title"] for p in push_service.delivered("alice-phone")] == []


def test_the_time_warning_is_pushed_once(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    device(bob, push_service, "bob-phone")
    game = alice_opened(monkeypatch, alice, bob, on_commit)
    run_queued_pushes()
    warn_at = game.deadline - timedelta(hours=1)
    with time_machine.travel(warn_at, tick=False):
        assert queue_periodic_notices(warn_at) >= 1
        run_queued_pushes()
        queue_periodic_notices(warn_at)
        assert queued_pushes() == []  # claimed: the next sweep queues nothing
    warning = push_service.delivered("bob-phone")[-1]
    assert warning["title"] == f"Time is running out in game #{game.pk}"
    assert [r.headers["urgency"] for r in push_service.received][-1] == "high"


def test_a_push_signed_with_another_key_is_refused_by_the_service(
    monkeypatch: pytest.MonkeyPatch, settings: Any, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    """The stand-in checks the signature: a key that is not the site's is refused (403), the
    device stays and is not marked used."""
    device(bob, push_service, "bob-phone")
    settings.VAPID_PRIVATE_KEY = generate_private_key()
    assert public_key_for(settings.VAPID_PRIVATE_KEY) != push_service.site_public_key
    alice_opened(monkeypatch, alice, bob, on_commit)
    assert set(run_queued_pushes()) == {0}
    [refused] = push_service.received
    assert refused.status == 403 and "k is not the site's public key" in refused.problem
    assert PushSubscription.objects.get(user=bob).last_used_at is None


def test_outgoing_https_trusts_only_known_certificates(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    device(bob, push_service, "bob-phone")
    monkeypatch.delenv("REQUESTS_CA_BUNDLE")  # the system's certificates know no such service
    alice_opened(monkeypatch, alice, bob, on_commit)
    assert set(run_queued_pushes()) == {0}
    assert push_service.received == []
    assert PushSubscription.objects.filter(user=bob).exists()


def test_send_a_test_is_queued_for_the_worker_and_limited(
    settings: Any, push_service: Any, bob: Any, bob_client: Client
) -> None:
    settings.PUSH_TEST_RATE = "2/h"
    phone = device(bob, push_service, "bob-phone")
    url = reverse("notices:push_device_test", args=[phone.pk])

    for _ in range(3):
        response = bob_client.post(url, follow=True)
        assert response.status_code == 200
    assert "That is enough tests for now" in response.content.decode()
    assert push_service.received == []  # the page only queued
    assert run_queued_pushes() == [1, 1]
    assert [p["tag"] for p in push_service.delivered("bob-phone")] == ["test", "test"]


def test_someone_elses_device_cannot_be_tested_or_removed(
    push_service: Any, bob: Any, charlie_client: Client
) -> None:
    phone = device(bob, push_service, "bob-phone")
    for name in ("notices:push_device_test", "notices:push_device_remove"):
        assert charlie_client.post(reverse(name, args=[phone.pk])).status_code == 404
    assert queued_pushes() == []
    assert PushSubscription.objects.filter(pk=phone.pk).exists()


def test_no_push_to_a_closed_account(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, on_commit: Any
) -> None:
    device(bob, push_service, "bob-phone")
    alice_opened(monkeypatch, alice, bob, on_commit)
    bob.is_active = False  # closed before the worker runs the task
    bob.save(update_fields=["is_active"])
    assert set(run_queued_pushes()) == {0}
    assert push_service.received == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_real_worker_process_pushes_the_turn(
    monkeypatch: pytest.MonkeyPatch, push_service: Any, alice: Any, bob: Any, start_worker: Any
) -> None:
    """``manage.py db_worker``, a process of its own, sends what the pages queued."""
    from contextlib import nullcontext

    from tests.site.worker_process import wait_for

    device(bob, push_service, "bob-phone")
    start_worker(PUSH_SERVICE_HOSTS="localhost", REQUESTS_CA_BUNDLE=str(push_service.cert_path))
    game = alice_opened(monkeypatch, alice, bob, nullcontext)  # each action commits at once

    def pushed() -> bool:
        """bob's your-turn push at the stand-in"""
        return bool(push_service.delivered("bob-phone"))

    wait_for(pushed, seconds=30)
    assert push_service.delivered("bob-phone")[0]["tag"] == f"game-{game.pk}"


def test_operators_see_and_remove_devices_in_the_admin_but_add_none(
    admin_client: Client, push_service: Any, bob: Any
) -> None:
    phone = device(bob, push_service, "bob-phone")
    listing = admin_client.get(reverse("admin:notices_pushsubscription_changelist"))
    assert listing.status_code == 200 and "bob-phone phone" in listing.content.decode()
    assert admin_client.get(reverse("admin:notices_pushsubscription_add")).status_code == 403
    removed = admin_client.post(reverse("admin:notices_pushsubscription_delete", args=[phone.pk]), {"post": "yes"})
    assert removed.status_code == 302
    assert not PushSubscription.objects.exists()
