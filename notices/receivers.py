"""Notices listen to the game's and messaging's signals (sent on commit) and only queue tasks:
a page never waits for a mail or a push. A push task is queued only for a player with a push
device (``has_push_devices``, a kept answer: no query on most turns)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse

from backgammon import signals
from messaging.models import Message
from messaging.signals import message_sent

__all__ = ["connect", "on_match_finished", "on_message_sent"]


def _on_game_changed(*, game_id: int, action_number: int, actor_id: int | None, turn_passed: bool,
                     **_: Any) -> None:
    if actor_id is None or not turn_passed:
        return  # the game ended, or the player to act chose the last action (rolled) themselves
    from notices.push.subscriptions import has_push_devices
    from notices.push.tasks import push_your_turn_notice
    from notices.sending import may_get_your_turn_mail
    from notices.tasks import send_your_turn_notice

    if may_get_your_turn_mail(actor_id):
        send_your_turn_notice.enqueue(game_id, action_number)
    if has_push_devices(actor_id):
        push_your_turn_notice.enqueue(game_id, action_number)


def _on_challenge_created(*, challenge_id: int, challenged_id: int | None = None, **_: Any) -> None:
    from notices.push.subscriptions import has_push_devices
    from notices.push.tasks import push_new_challenge_notice
    from notices.tasks import send_new_challenge_notice

    send_new_challenge_notice.enqueue(challenge_id)
    if challenged_id is not None and has_push_devices(challenged_id):
        push_new_challenge_notice.enqueue(challenge_id)


def _on_worker_tick(**_: Any) -> None:
    from notices import outbox
    from notices.periodic import tick

    tick()
    outbox.tick()  # every tick (a few seconds): mails and tasks cut off by a killed worker


def on_message_sent(*, message: Any, **_: Any) -> None:
    """messaging.signals.message_sent(message=...), sent on commit: queue the recipient's notice.

    A message that came with a move or a challenge is left to the "your turn" and "new
    challenge" notices, which already carry it: one event, one mail.
    """
    from notices.push.subscriptions import has_push_devices
    from notices.push.tasks import push_message_notice
    from notices.tasks import send_message_notice

    if message.kind != Message.Kind.MESSAGE:
        return
    arguments = (message.pk, message.recipient_id, message.sender_id, str(message.subject),
                 str(message.body)[:2000], reverse("messaging:message", args=[message.pk]))
    send_message_notice.enqueue(*arguments)
    if has_push_devices(message.recipient_id):
        push_message_notice.enqueue(*arguments)


def on_match_finished(*, game: Any, **_: Any) -> None:
    """backgammon's match_finished, sent inside the transaction that ends the game: once it
    commits, queue each player's "game over" push."""
    game_id, player_ids = game.pk, [game.black_id, game.white_id]

    def queue() -> None:
        from notices.push.subscriptions import has_push_devices
        from notices.push.tasks import push_game_finished_notice

        for user_id in player_ids:
            if user_id is not None and has_push_devices(user_id):
                push_game_finished_notice.enqueue(game_id, user_id)

    transaction.on_commit(queue)


def _push_devices_keys(player_ids: list[int]) -> list[str]:
    from notices.push.subscriptions import push_devices_key

    return [push_devices_key(player_id) for player_id in player_ids]


def connect() -> None:
    from backgammon.live import ask_with_the_news

    # _on_game_changed asks has_push_devices after the news: its answer comes in the news's trip.
    ask_with_the_news(_push_devices_keys)
    signals.game_changed.connect(_on_game_changed, dispatch_uid="notices-game-changed")
    signals.challenge_created.connect(_on_challenge_created, dispatch_uid="notices-challenge-created")
    signals.match_finished.connect(on_match_finished, dispatch_uid="notices-match-finished")
    signals.worker_tick.connect(_on_worker_tick, dispatch_uid="notices-worker-tick")
    message_sent.connect(on_message_sent, dispatch_uid="notices-message-sent")
