"""Malformed requests get a 400 page that says what was wrong, before any view or the database
sees them.

PostgreSQL cannot store or even compare a string holding a NUL character, and the admin's list
filters, searches and actions pass what they are given straight to queries; a form body in a
charset other than UTF-8 cannot be read at all. Rather than teach every view and form about
these, one middleware refuses them at the door: a NUL anywhere in the address, the query
string or the form data, and a form body that does not decode.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render

__all__ = ["RefuseMalformedRequests", "bad_request"]

_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
NUL_IN_ADDRESS = "The address contains a NUL character (%00), which no page here accepts."
NUL_IN_FORM = "The form data contains a NUL character, which no field here accepts."
NOT_UTF8 = "Form data must be sent as UTF-8: this request declared the character set {charset!r}."
UNREADABLE_FORM = "The form data could not be read: send it again from the page."


def bad_request(request: HttpRequest, exception: Exception | None = None, message: str = "") -> HttpResponse:
    """The 400 page in the site's layout (also Django's handler400), naming the problem if known."""
    if not message and isinstance(exception, BadRequest) and exception.args:
        message = str(exception.args[0])  # Django's and ours are sentences meant for the sender
    return render(request, "400.html", {"message": message}, status=400)


def _has_nul(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in pairs)


def _form_problem(request: HttpRequest) -> str:
    content_type = request.content_type or ""
    if request.method != "POST" or content_type not in _FORM_TYPES:
        return ""
    charset = (request.content_params or {}).get("charset", "utf-8")
    try:
        known_utf8 = codecs.lookup(charset).name == "utf-8"
    except LookupError:
        known_utf8 = False
    if not known_utf8:
        return NOT_UTF8.format(charset=charset)
    try:
        form: QueryDict = request.POST
    except (BadRequest, MultiPartParserError, UnicodeDecodeError):
        return UNREADABLE_FORM
    if _has_nul(form.lists()):
        return NUL_IN_FORM
    return ""


class RefuseMalformedRequests:
    """Answer 400 to a NUL character or an unreadable form body; let everything else through.

    It sits after the authentication middleware (so the page knows who is logged in) and, since
    it works when the request arrives, before the CSRF check reads the form.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or _has_nul(request.GET.lists()):
            return bad_request(request, message=NUL_IN_ADDRESS)
        problem = _form_problem(request)
        if problem:
            return bad_request(request, message=problem)
        return self.get_response(request)
