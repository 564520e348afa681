"""Messages in the JSON API: the inbox and sent box, read, send, mark read or unread, delete.

The same messaging.services as the pages: the same checks (ignore list, rate limit, lengths),
the same words. A message that is not the caller's is a 404.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Query, Router, Schema, Status
from ninja.errors import HttpError

from api import schemas
from messaging import services
from messaging.models import Message

__all__ = ["router"]

router = Router(tags=["messages"])

# Every call may also meet the API's own 400 (a malformed request or a NUL) and 503 (the
# database away for a moment): the shared list documents them all.
_ERRORS = schemas.ERRORS
PAGE_SIZE = 50


class MessageOut(Schema):
    id: int
    sender: str
    recipient: str
    kind: str
    subject: str
    text: str
    created_at: datetime
    read: bool
    reply_to: int | None
    game_id: int | None


class MessageList(Schema):
    box: str
    unread_count: int
    page: int
    pages: int
    messages: list[MessageOut]


class MessageIn(Schema):
    to: str
    subject: str = ""
    text: str
    reply_to: int | None = None


class ReadIn(Schema):
    read: bool = True


class BoxFilter(Schema):
    box: str = "inbox"
    page: int = 1


def message_json(message: Message) -> dict[str, Any]:
    return {
        "id": message.pk,
        "sender": message.sender.get_username(),
        "recipient": message.recipient.get_username(),
        "kind": message.kind,
        "subject": message.subject,
        "text": message.body,
        "created_at": message.created_at,
        "read": message.read_at is not None,
        "reply_to": message.reply_to_id,
        "game_id": message.game_id,
    }


@router.get("/messages", response={200: MessageList, **_ERRORS})
def messages(request: HttpRequest, filters: Query[BoxFilter]) -> Any:
    """My inbox (``box=sent``: my sent box), the newest first, 50 a page; with my unread count."""
    user = request.auth  # type: ignore[attr-defined]
    if filters.box not in ("inbox", "sent"):
        raise HttpError(422, f"Ask for box 'inbox' or 'sent', not {filters.box!r}.")
    listed = services.inbox(user) if filters.box == "inbox" else services.sent_box(user)
    paginator = Paginator(listed.select_related("sender", "recipient"), PAGE_SIZE)
    if not 1 <= filters.page <= paginator.num_pages:
        raise HttpError(404, f"There is no page {filters.page}: pages run from 1 to {paginator.num_pages}.")
    page = paginator.page(filters.page)
    return {
        "box": filters.box,
        "unread_count": services.unread_count(user),
        "page": page.number,
        "pages": paginator.num_pages,
        "messages": [message_json(message) for message in page],
    }


@router.get("/messages/{message_id}", response={200: MessageOut, **_ERRORS})
def message(request: HttpRequest, message_id: int) -> Any:
    """One message; reading it as its recipient marks it read."""
    return message_json(services.message_open(user=request.auth, message_id=message_id))  # type: ignore[attr-defined]


@router.post("/messages", response={201: MessageOut, **_ERRORS})
def message_new(request: HttpRequest, body: MessageIn) -> Any:
    """Send a message to the player ``to``; ``reply_to`` threads it to one of mine."""
    try:
        sent = services.message_send(sender=request.auth, to=body.to, subject=body.subject,  # type: ignore[attr-defined]
                                     body=body.text, reply_to_id=body.reply_to)
    except services.MessageRateLimited as refusal:
        raise HttpError(429, refusal.message) from None
    return Status(201, message_json(sent))


@router.post("/messages/{message_id}/read", response={200: MessageOut, **_ERRORS})
def message_read(request: HttpRequest, message_id: int, body: ReadIn | None = None) -> Any:
    """Mark a received message read (``{"read": false}``: unread again)."""
    read = True if body is None else body.read
    marked = services.message_mark(user=request.auth, message_id=message_id, read=read)  # type: ignore[attr-defined]
    return message_json(marked)


@router.delete("/messages/{message_id}", response={204: None, **_ERRORS})
def message_deleted(request: HttpRequest, message_id: int) -> Any:
    """Take a message out of my box; the other side keeps theirs."""
    services.message_delete(user=request.auth, message_id=message_id)  # type: ignore[attr-defined]
    return Status(204, None)
