"""Errors under /api/ are JSON whoever produced them: an unknown address, a method the address
does not take, a malformed request refused before any view, or a server error."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

__all__ = ["API_PREFIX", "JsonErrorsUnderApi", "unknown_api_address"]

API_PREFIX = "/api/"
_SENTENCES = {
    400: "The request is malformed.",
    403: "This request is not allowed.",
    404: "There is nothing at this address: see /api/v1/docs for the API's calls.",
    405: "This address does not take {method} requests.",
    500: "Something went wrong on the server; nothing was changed. Please try again later.",
    503: "The database is out of reach for a moment; nothing was changed. Try again after "
    "Retry-After seconds.",
}


def unknown_api_address(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"detail": _SENTENCES[404]}, status=404)


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


class JsonErrorsUnderApi:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX) or response.status_code < 400 or _is_json(response):
            return response
        status = response.status_code
        sentence = _SENTENCES.get(status, "The request could not be answered.")
        if status == 405:
            sentence = sentence.format(method=request.method)
        replacement = JsonResponse({"detail": sentence}, status=status)
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                replacement[header] = response[header]
        return replacement


