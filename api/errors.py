"""Every refusal of the API as JSON ``{"detail": "..."}`` with the contract's status code."""

from __future__ import annotations

import math
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from backgammon.services import Refusal, Rejected

__all__ = ["REFUSAL_STATUS", "STALE", "UNAUTHORISED", "install_error_handlers", "validation_sentence"]

REFUSAL_STATUS = {
    Refusal.NOT_FOUND: 404,
    Refusal.NOT_PLAYER: 403,
    Refusal.NOT_YOUR_TURN: 403,
    Refusal.STALE: 409,
    Refusal.ILLEGAL: 422,
}
STALE = (
    "This game has moved on since you read it: read it again and send its current "
    "action_number as expected_action_number."
)
"""The API's words for a stale action (the pages' own sentence asks a person to reload)."""
UNAUTHORISED = (
    "Send a valid API token in the header 'Authorization: Bearer TOKEN' "
    "(POST /api/v1/token or your profile page gives you one)."
)


def _field(location: tuple[Any, ...]) -> str:
    # ninja prefixes the place (body, query, path) and the parameter's own name; the last parts
    # are the names a client wrote.
    names = [str(part) for part in location[1:] if part not in ("payload", "body")]
    return ".".join(names) or "the request body"


def validation_sentence(errors: list[dict[str, Any]]) -> str:
    """pydantic's complaints as one sentence, e.g. "The field 'action' is missing."."""
    sentences = []
    for error in errors:
        where = _field(tuple(error.get("loc", ())))
        kind = error.get("type", "")
        if kind == "missing":
            sentences.append(f"The field '{where}' is missing.")
        elif kind == "json_invalid":
            sentences.append("The request body is not valid JSON.")
        else:
            message = str(error.get("msg", "is not valid"))
            sentences.append(f"The field '{where}' is not valid: {message[:1].lower()}{message[1:]}.")
    return " ".join(sentences) or "The request is not valid."


def install_error_handlers(api: NinjaAPI) -> None:
    def detail(request: HttpRequest, message: str, status: int) -> HttpResponse:
        return api.create_response(request, {"detail": message}, status=status)

    def rejected(request: HttpRequest, exc: Rejected) -> HttpResponse:
        message = STALE if exc.kind is Refusal.STALE else exc.message
        return detail(request, message, REFUSAL_STATUS[exc.kind])

    def invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        return detail(request, validation_sentence(exc.errors), 422)

    def unauthorised(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        response = detail(request, UNAUTHORISED, 401)
        response["WWW-Authenticate"] = "Bearer"
        return response

    def throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
        wait = math.ceil(exc.wait) if exc.wait else 1
        plural = "" if wait == 1 else "s"
        response = detail(request, f"Too many requests: wait {wait} second{plural} and try again.", 429)
        response["Retry-After"] = str(wait)
        return response

    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        # ninja wraps whatever the body parser raised in its own "Cannot parse request body";
        # our parser's refusal (api.bodies) says more.
        if isinstance(exc.__cause__, HttpError):
            exc = exc.__cause__
        return detail(request, exc.message, exc.status_code)

    api.add_exception_handler(Rejected, rejected)
    api.add_exception_handler(ValidationError, invalid)
    api.add_exception_handler(AuthenticationError, unauthorised)
    api.add_exception_handler(Throttled, throttled)
    api.add_exception_handler(HttpError, http_error)
