"""One log line per request (logger ``gamesite.requests``): request id, user id, method, path,
status and duration in milliseconds, as fields of the record, so the JSON formatter
(LOG_FORMAT=json) makes them keys of one JSON object a log collector can search.

The request id is the proxy's X-Request-ID when it sends a sane one (nginx: $request_id), so
the proxy's and the app's lines can be joined; otherwise a new one. It is sent back in the
response's X-Request-ID header, and the duration in its Server-Timing header (``app;dur=4.2``):
what a browser's developer tools show as the server's part of the wait, and what `make
bench-web` reports as each request's server time.

Under the ASGI server the request first waits for one of its process's page threads
(gamesite/page_threads.py): that wait is logged apart (``queued_ms``) and comes first in the
header (``queue;dur=0.3, app;dur=4.2``). A busy server shows it there before anywhere else:
Django's own time stays short while requests queue for a thread.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

from gamesite.page_threads import ARRIVED

__all__ = ["RequestLog", "request_id_of"]

logger = logging.getLogger("gamesite.requests")
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def request_id_of(request: HttpRequest) -> str:
    offered = request.headers.get("X-Request-ID", "")
    return offered if _SANE_ID.fullmatch(offered) else uuid.uuid4().hex


def _user_id(request: HttpRequest) -> int | None:
    # Only a user already loaded by the request (a page, a token): looking one up here would
    # cost a query per request, and fail with the database.
    user: Any = getattr(request, "user", None)
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.pk if getattr(user, "is_authenticated", False) else None


class RequestLog:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        request_id = request_id_of(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        response["X-Request-ID"] = request_id
        fields = {
            "request_id": request_id,
            "user_id": _user_id(request),
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": duration_ms,
        }
        arrived = request.META.get(ARRIVED)
        if isinstance(arrived, float):
            fields["queued_ms"] = queued_ms = round(max(0.0, started - arrived) * 1000, 1)
            response["Server-Timing"] = f"queue;dur={queued_ms}, app;dur={duration_ms}"
        else:
            response["Server-Timing"] = f"app;dur={duration_ms}"
        logger.info(
            "%s %s %s %.1fms", request.method, request.path, response.status_code, duration_ms,
            extra=fields,
        )
        return response
