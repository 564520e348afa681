"""Requests through the app servers' page door (gamesite/asgi.py ``page_door``): Django's WSGI
handler with the request's kept answers and the work left for after its answer, as a2wsgi runs
it in a page thread. Run these in a thread of their own (tests/site/test_live_push.in_own_thread):
the door marks the thread it runs in as a page thread."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.test import RequestFactory

__all__ = ["Answered", "get_environ", "post_environ", "through_the_door"]


@dataclass
class Answered:
    status: str
    body: str
    before_close: Any  # what the caller's look before the server closed the answer saw


def get_environ(path: str, session: str, **headers: str) -> dict[str, Any]:
    return RequestFactory().get(path, HTTP_COOKIE=f"sessionid={session}", **headers).environ


def post_environ(path: str, session: str, form: dict[str, Any], **headers: str) -> dict[str, Any]:
    """A form post as a page's forms send it (urlencoded, as htmx and browsers do), with a valid
    CSRF secret in its cookie and its field."""
    csrf = secrets.token_hex(16)
    return RequestFactory().post(path, urlencode({**form, "csrfmiddlewaretoken": csrf}),
                                 content_type="application/x-www-form-urlencoded",
                                 HTTP_COOKIE=f"sessionid={session}; csrftoken={csrf}", **headers).environ


def through_the_door(environ: dict[str, Any], before_close: Callable[[], Any] = lambda: None) -> Answered:
    """The door's answer read whole, then closed as the server closes it after its last byte."""
    from gamesite.asgi import page_door

    statuses: list[str] = []
    answer = page_door(environ, lambda status, headers, exc_info=None: statuses.append(status))
    body = b"".join(answer).decode()
    seen = before_close()
    answer.close()
    return Answered(statuses[0], body, seen)
