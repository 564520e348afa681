"""A database out of reach is a 503 "back in a moment", never a 500 with a trace.

Django turns an exception raised anywhere in a request (a view, a middleware, the session
saved at the end) into a response through ``handler500``, inside the ``except`` block, so this
handler sees the exception: a lost or refused database connection (django.db's OperationalError
or InterfaceError, which also cover a deadlock or a serialisation failure: transient too) gets
the 503 page with Retry-After; anything else is the ordinary 500 page. Under /api/ the 503
becomes JSON in api.middleware.JsonErrorsUnderApi, Retry-After kept.

Nothing is left half done: every change of game state is one transaction, which PostgreSQL
rolls back when the connection dies, and CONN_HEALTH_CHECKS replaces the dead connection on the
next request, so service comes back by itself when the database does.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.views import defaults

__all__ = ["RETRY_AFTER_SECONDS", "database_unreachable", "server_error", "service_unavailable"]

RETRY_AFTER_SECONDS = 5


def database_unreachable(exception: BaseException | None) -> bool:
    return isinstance(exception, (OperationalError, InterfaceError))


def service_unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 page, rendered without the request's context (no user, no session, no query)."""
    retry_path = request.get_full_path()
    if request.method not in ("GET", "HEAD") or retry_path.startswith("//"):
        retry_path = "/"  # never repeat a form by a link, nor link off-site ("//host/...")
    body = loader.get_template("503.html").render({"retry_path": retry_path})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: 503 when the database is out of reach, Django's 500 page otherwise."""
    if database_unreachable(sys.exc_info()[1]):
        return service_unavailable(request)
    return defaults.server_error(request)
