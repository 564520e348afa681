"""Reading request bodies: JSON only, and no NUL character or lone surrogate anywhere.

PostgreSQL can neither store nor compare a string holding NUL, and a lone surrogate ("\\ud800",
which JSON allows) cannot even be encoded for it: such a body would fail deep in a query, after
some of the call's work was done. It is refused at the door instead, for every call (as
gamesite.bad_requests does for forms).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from ninja.errors import HttpError
from ninja.parser import Parser

from gamesite.text import json_holds_refused_text

__all__ = ["NoNulJsonParser"]


class NoNulJsonParser(Parser):
    def parse_body(self, request: HttpRequest) -> Any:
        try:
            data = json.loads(request.body or b"null")
        except (ValueError, UnicodeDecodeError):
            raise HttpError(400, "The request body is not valid JSON.") from None
        except RecursionError:  # arrays or objects nested thousands deep
            raise HttpError(400, "The request body is nested too deeply.") from None
        problem = json_holds_refused_text(data)
        if problem:
            raise HttpError(400, problem)
        return data
