"""Messages that come with a move or a challenge reach the inbox; reading the game reads them.

backgammon never imports messaging: it sends signals and these receivers listen.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from backgammon import signals
from backgammon.engine import Side
from messaging.signals import message_sent

__all__ = ["connect"]


def _on_actions_logged(*, game: Any, actions: list[Any], **_: Any) -> None:
    """Inside the transaction that appends the actions: the inbox copy commits with the move.

    The actions were appended in this very transaction, so none has its message recorded yet.
    """
    from messaging.models import Message
    from messaging.services import message_record

    for action in actions:
        if not action.message or action.side is None:
            continue
        black_moved = action.side == int(Side.BLACK)
        sender = game.black_id if black_moved else game.white_id
        recipient = game.white_id if black_moved else game.black_id
        message_record(
            sender_id=sender, recipient_id=recipient, body=action.message, kind=Message.Kind.MOVE,
            game_id=game.pk, game_action_id=action.pk,
        )


def _on_challenge_created(*, challenge_id: int, **_: Any) -> None:
    """After the challenge commits (the signal comes then): its message, once."""
    from backgammon.models import Challenge
    from messaging.models import Message
    from messaging.services import message_record

    challenge = Challenge.objects.filter(pk=challenge_id).first()
    if challenge is None or not challenge.message or challenge.challenged_id is None:
        return
    if Message.objects.filter(challenge=challenge).exists():
        return  # the same signal delivered again
    try:
        with transaction.atomic():
            message_record(
                sender_id=challenge.challenger_id, recipient_id=challenge.challenged_id,
                body=challenge.message, kind=Message.Kind.CHALLENGE, challenge_id=challenge.pk,
            )
    except IntegrityError:
        pass  # the same signal delivered twice at once: the first one recorded it


def _on_game_viewed(*, game_id: int, user: Any, **_: Any) -> None:
    from messaging.services import game_messages_mark_read

    game_messages_mark_read(user=user, game_id=game_id)


def _on_message_sent(*, message: Any, **_: Any) -> None:
    # The recipient's open pages hear a "status" event and their TALK count asks again.
    from backgammon.live import publish_status

    publish_status(message.recipient_id)


def connect() -> None:
    signals.actions_logged.connect(_on_actions_logged, dispatch_uid="messaging-actions-logged")
    signals.challenge_created.connect(_on_challenge_created, dispatch_uid="messaging-challenge-created")
    signals.game_viewed.connect(_on_game_viewed, dispatch_uid="messaging-game-viewed")
    message_sent.connect(_on_message_sent, dispatch_uid="messaging-live-status")

    from accounts.models import Relation
    from gamesite.kept import forget_when_changed
    from messaging.models import Message
    from messaging.services import unread_key

    forget_when_changed(Message, lambda message: [unread_key(message.recipient_id)], "unread-counts")
    # An ignore hides messages from both players' inboxes (messaging.services._received_by).
    forget_when_changed(
        Relation, lambda relation: [unread_key(relation.owner_id), unread_key(relation.other_id)], "unread-walls"
    )
