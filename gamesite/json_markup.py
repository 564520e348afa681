"""``json_script`` as Django's (``django.utils.html.json_script``), written with orjson.

The turn's click map (backgammon/game_page.py, for static/js/turn.js) is the largest thing a
mover's answer writes as JSON: about 6 KB, hundreds of nodes for doubles. Django's json_script
took 0.21 ms for it through the standard library's encoder, orjson 0.015 ms; every roll's
answer, every click the server answers and every game page with a move to make writes one.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

__all__ = ["json_script"]

# What Django's json_script escapes, so that the text cannot close or open a tag of the page.
_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}

# Integer keys become strings, as the standard library's encoder makes them; what orjson does not
# write itself (a lazy string, a decimal, a moment) is written as DjangoJSONEncoder writes it.
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


def json_script(value: Any, element_id: str | None = None) -> SafeString:
    """``value`` as JSON in a ``<script type="application/json">`` element, safe in a page."""
    text = orjson.dumps(value, default=DjangoJSONEncoder().default, option=_OPTIONS).decode().translate(_ESCAPES)
    if element_id:
        return format_html('<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text))
    return format_html('<script type="application/json">{}</script>', mark_safe(text))
