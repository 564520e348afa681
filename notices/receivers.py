"""Notices listen to the game's signals (sent on commit) and only queue tasks: a page never
waits for a mail. Messaging's ``message_sent`` is connected when that app is installed."""

from __future__ import annotations

import importlib.util
from typing import Any

from django.urls import NoReverseMatch, reverse

from backgammon import signals

__all__ = ["connect", "on_message_sent"]


def _on_game_changed(*, game_id: int, action_number: int, actor_id: int | None, **_: Any) -> None:
    if actor_id is None:
        return  # the game ended: nobody is to act
    from notices.tasks import send_your_turn_notice

    send_your_turn_notice.enqueue(game_id, action_number)


def _on_challenge_created(*, challenge_id: int, **_: Any) -> None:
    from notices.tasks import send_new_challenge_notice

    send_new_challenge_notice.enqueue(challenge_id)


def _on_worker_tick(**_: Any) -> None:
    from notices.periodic import tick

    tick()


def _inbox_path() -> str:
    try:
        return reverse("messaging:inbox")
    except NoReverseMatch:
        return reverse("home")


def on_message_sent(*, message: Any, **_: Any) -> None:
    """messaging.signals.message_sent(message=...), sent on commit: queue the recipient's notice."""
    from notices.tasks import send_message_notice

    send_message_notice.enqueue(
        message.pk, message.recipient_id, message.sender_id,
        str(message.subject), str(message.body)[:2000], _inbox_path(),
    )


def connect() -> None:
    signals.game_changed.connect(_on_game_changed, dispatch_uid="notices-game-changed")
    signals.challenge_created.connect(_on_challenge_created, dispatch_uid="notices-challenge-created")
    signals.worker_tick.connect(_on_worker_tick, dispatch_uid="notices-worker-tick")
    # Messaging is built beside this app; once it is installed its signal is connected here.
    if importlib.util.find_spec("messaging") is not None:
        from django.apps import apps

        if apps.is_installed("messaging"):
            messaging_signals = importlib.import_module("messaging.signals")
            messaging_signals.message_sent.connect(on_message_sent, dispatch_uid="notices-message-sent")
