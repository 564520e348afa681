"""Messages between players: the one place they are sent, read, marked and deleted.

The pages and the JSON API call these functions; a refusal is a ``MessageRefused`` whose
message is shown to the player as it is, and nothing has changed. A message someone may not
see is "not found" (404), never "forbidden", so nobody learns that it exists.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django_ratelimit.core import is_ratelimited

from accounts.relations import either_ignores, walled_off_from
from backgammon.services import Refusal, Rejected
from gamesite.kept import forget, kept
from gamesite.text import text_refusal
from messaging.models import BODY_MAX, SUBJECT_MAX, Message
from messaging.signals import message_sent

__all__ = [
    "NOT_DELIVERED",
    "MessageRateLimited",
    "MessageRefused",
    "game_messages_mark_read",
    "inbox",
    "message_delete",
    "message_mark",
    "message_open",
    "message_report",
    "message_send",
    "message_visible",
    "messages_mark_all_read",
    "reply_draft",
    "sent_box",
    "unread_count",
    "unread_key",
]

NOT_DELIVERED = "That player cannot receive your messages."
"""The words for a recipient who ignores the sender, or whom the sender ignores: the same
either way, so an ignored player cannot tell that they are ignored rather than, say, blocked."""
TOO_MANY = "You have sent a lot of messages just now: please wait a while before sending more."
_QUOTE_LINES = 40


class MessageRefused(Rejected):
    """A message that cannot be sent, read or changed; the message says why."""


class MessageRateLimited(MessageRefused):
    """The sender has used their allowance of messages for now (the API answers 429)."""


def _refuse_control_characters(text: str, what: str) -> None:
    refusal = text_refusal(text, what)
    if refusal:
        raise MessageRefused(refusal)


def _recipient(sender: Any, name: str) -> Any:
    name = (name or "").strip()
    if not name:
        raise MessageRefused("Say whom the message is for (their userid).")
    recipient = get_user_model()._default_manager.filter(username__iexact=name, is_active=True).first()
    if recipient is None:
        shown = name if len(name) <= 40 else name[:40] + "…"
        raise MessageRefused(f"There is no player called “{shown}”.")
    if recipient.pk == sender.pk:
        raise MessageRefused("That is you: messages are for other players.")
    if either_ignores(sender, recipient):
        raise MessageRefused(NOT_DELIVERED)
    return recipient


def _over_rate(sender: Any) -> bool:
    """Count a send against the sender's hourly and daily allowance (django-ratelimit)."""
    over = False
    for group, rate in (
        ("messages-per-hour", settings.MESSAGE_RATE_PER_HOUR),
        ("messages-per-day", settings.MESSAGE_RATE_PER_DAY),
    ):
        # No request: the key is the sender, so the pages and the API share one allowance.
        over |= is_ratelimited(
            None, group=group, key=lambda _group, _request: str(sender.pk), rate=rate, increment=True
        )
    return over


def message_send(
    *, sender: Any, to: str, body: str, subject: str = "", reply_to_id: int | None = None
) -> Message:
    """Send ``body`` to the player whose userid is ``to``; ``reply_to_id`` threads it to a
    message ``sender`` can see (its game link is kept)."""
    subject = " ".join((subject or "").split())
    body = (body or "").strip()
    _refuse_control_characters(subject, "subject")
    _refuse_control_characters(body, "message")
    if len(subject) > SUBJECT_MAX:
        raise MessageRefused(f"A subject can be at most {SUBJECT_MAX} characters.")
    if not body:
        raise MessageRefused("Write something in the message.")
    if len(body) > BODY_MAX:
        raise MessageRefused(f"A message can be at most {BODY_MAX} characters.")
    original = message_visible(user=sender, message_id=reply_to_id) if reply_to_id is not None else None
    recipient = _recipient(sender, to)
    if original is not None and recipient.pk not in (original.sender_id, original.recipient_id):
        # A reply readdressed to a third player is a new message: the thread (its titles, its
        # game) stays between the two who wrote it.
        original = None
    if _over_rate(sender):
        raise MessageRateLimited(TOO_MANY)
    with transaction.atomic():
        message = Message.objects.create(
            sender=sender,
            recipient=recipient,
            subject=subject,
            body=body,
            reply_to=original,
            game_id=original.game_id if original is not None else None,
        )
        transaction.on_commit(partial(message_sent.send, sender=Message, message=message))
    return message


def message_record(
    *, sender_id: int, recipient_id: int, body: str, kind: str, game_id: int | None = None,
    game_action_id: int | None = None, challenge_id: int | None = None,
) -> Message:
    """A message that came with a move or a challenge, in the caller's transaction; the game's
    own limits applied to it already. Each move or challenge has one at most (unique columns):
    a second one raises IntegrityError."""
    if (game_action_id is None) == (challenge_id is None):
        raise ValueError("A recorded message comes with one move or one challenge.")
    message = Message.objects.create(
        sender_id=sender_id, recipient_id=recipient_id, kind=kind, body=body,
        game_id=game_id, game_action_id=game_action_id, challenge_id=challenge_id,
    )
    transaction.on_commit(partial(message_sent.send, sender=Message, message=message))
    return message


def _received_by(user: Any) -> Q:
    # An ignore hides the other player's messages from the inbox, those from before it too (new
    # ones are refused): messages, and those that came with moves and challenges alike.
    return Q(recipient=user, deleted_by_recipient=False) & ~walled_off_from(user, "sender")


def inbox(user: Any) -> QuerySet[Message]:
    """The messages to ``user`` they have not deleted, the newest first."""
    return Message.objects.filter(_received_by(user)).select_related("sender")


def sent_box(user: Any) -> QuerySet[Message]:
    """The messages from ``user`` they have not deleted, the newest first."""
    return Message.objects.filter(sender=user, deleted_by_sender=False).select_related("recipient")


def latest_unread(user: Any, count: int = 3) -> list[Message]:
    """The newest ``count`` unread messages in ``user``'s inbox (the main screen shows them)."""
    return list(inbox(user).filter(read_at__isnull=True).order_by("-created_at")[:count])


def unread_key(user_id: Any) -> str:
    return f"messaging:unread:{user_id}"


def unread_count(user: Any) -> int:
    """How many messages in ``user``'s inbox are unread: the header's badge, on every page and
    every pushed status update. Kept (gamesite.kept): a new or deleted message forgets it
    (messaging/receivers.py), and so does every reading here."""
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    return kept(unread_key(user.pk), lambda: Message.objects.filter(
        _received_by(user), read_at__isnull=True).count(), 600)


def _visible_to(user: Any) -> Q:
    return _received_by(user) | Q(sender=user, deleted_by_sender=False)


def message_visible(*, user: Any, message_id: int | None) -> Message:
    """The message if ``user`` sent or received it and has not deleted it; "not found" otherwise."""
    found = (
        Message.objects.filter(_visible_to(user), pk=message_id)
        .select_related("sender", "recipient", "reply_to", "game")
        .first()
        if isinstance(message_id, int)
        else None
    )
    if found is None:
        raise MessageRefused("There is no such message.", Refusal.NOT_FOUND)
    return found


def message_open(*, user: Any, message_id: int) -> Message:
    """The message, marked read when ``user`` is its recipient (opening it is reading it)."""
    message = message_visible(user=user, message_id=message_id)
    if message.recipient_id == user.pk and message.read_at is None:
        # Conditional, so two tabs opening it at once keep the first reading time.
        now = timezone.now()
        Message.objects.filter(pk=message.pk, read_at__isnull=True).update(read_at=now)
        forget(unread_key(user.pk))
        message.read_at = now
    return message


def _received(user: Any, message_id: int) -> Message:
    message = message_visible(user=user, message_id=message_id)
    if message.recipient_id != user.pk:
        # One's own sent message has no read state to change (only its recipient's reading).
        raise MessageRefused("Only the recipient of a message can mark or report it.")
    return message


def message_mark(*, user: Any, message_id: int, read: bool) -> Message:
    """Mark a message in ``user``'s inbox read or unread again."""
    message = _received(user, message_id)
    message.read_at = (message.read_at or timezone.now()) if read else None
    message.save(update_fields=["read_at"])
    return message


def messages_mark_all_read(*, user: Any) -> int:
    """Mark every unread message in ``user``'s inbox read; how many were."""
    marked = Message.objects.filter(recipient=user, read_at__isnull=True, deleted_by_recipient=False).update(
        read_at=timezone.now()
    )
    forget(unread_key(user.pk))
    return marked


def message_delete(*, user: Any, message_id: int) -> None:
    """Take the message out of ``user``'s box (inbox or sent box); the other side keeps theirs.

    A message to oneself cannot exist (sending refuses it), so a user is one side only.
    """
    message = message_visible(user=user, message_id=message_id)
    if message.recipient_id == user.pk:
        Message.objects.filter(pk=message.pk).update(deleted_by_recipient=True)
        forget(unread_key(user.pk))
    else:
        Message.objects.filter(pk=message.pk).update(deleted_by_sender=True)


def message_report(*, user: Any, message_id: int) -> Message:
    """The recipient reports a message to the operators (Django admin lists the reported ones)."""
    message = _received(user, message_id)
    if message.reported_at is None:
        message.reported_at = timezone.now()
        message.save(update_fields=["reported_at"])
    return message


def game_messages_mark_read(*, user: Any, game_id: int) -> int:
    """The game page shows its moves' messages: reading it reads them in the inbox too."""
    if unread_count(user) == 0:
        return 0  # the usual case, answered by the kept count: nothing unread anywhere
    unread = Message.objects.filter(
        recipient=user, game_id=game_id, read_at__isnull=True, deleted_by_recipient=False
    ).exclude(kind=Message.Kind.MESSAGE)
    # Every view of a game page comes here: read first, so the usual case (nothing unread)
    # writes nothing (on SQLite even an UPDATE of no rows takes the database's write lock).
    ids = list(unread.values_list("pk", flat=True)[:100])
    if not ids:
        return 0
    marked = Message.objects.filter(pk__in=ids, read_at__isnull=True).update(read_at=timezone.now())
    forget(unread_key(user.pk))
    return marked


def reply_draft(*, user: Any, message_id: int) -> dict[str, Any]:
    """The Send form's starting values for a reply: to the other side, "Re:" subject, the
    original quoted."""
    original = message_visible(user=user, message_id=message_id)
    other = original.sender if original.recipient_id == user.pk else original.recipient
    subject = original.subject or original.title
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    lines = original.body.splitlines()[:_QUOTE_LINES]
    quoted = "\n".join(f"> {line}" if line else ">" for line in lines)
    return {
        "to": other.get_username(),
        "subject": subject[:SUBJECT_MAX],
        "body": f"{original.sender.get_username()} wrote:\n{quoted}\n\n"[:BODY_MAX],
        "reply_to": original.pk,
    }
