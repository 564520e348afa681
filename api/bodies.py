"""Reading request bodies: JSON only, and no NUL character anywhere.

PostgreSQL can neither store nor compare a string holding NUL, so such a body would fail deep
in a query; it is refused at the door instead (as gamesite.bad_requests does for forms).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from ninja.errors import HttpError
from ninja.parser import Parser

__all__ = ["NoNulJsonParser"]


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(key) or _has_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


class NoNulJsonParser(Parser):
    def parse_body(self, request: HttpRequest) -> Any:
        try:
            data = json.loads(request.body or b"null")
        except (ValueError, UnicodeDecodeError):
            raise HttpError(400, "The request body is not valid JSON.") from None
        if _has_nul(data):
            raise HttpError(400, "The request contains a NUL character, which no field here accepts.")
        return data
