"""gamesite/json_markup.json_script writes what Django's json_script writes, faster: the same
element, the same escapes, the same data when read back."""

from __future__ import annotations

import datetime
import decimal
import json
import re

from django.utils.html import json_script as django_json_script
from django.utils.translation import gettext_lazy

from gamesite.json_markup import json_script

SCRIPT = re.compile(r'^<script id="turn-map" type="application/json">(.*)</script>$', re.DOTALL)


def _text(markup: str) -> str:
    found = SCRIPT.match(markup)
    assert found, markup
    return found.group(1)


def test_the_same_data_as_djangos() -> None:
    value = {
        "nodes": [[1, [6, 5], 0, {"24": [6, 18, 1]}], [0, [], 1, {}]],
        "prompts": ["You rolled 6-5: click a checker", "Done: Submit"],
        "places": {25: [1, 2, 3, 4], 0: [5, 6, 7, 8]},  # integer keys, as the standard encoder allows
        "names": ["Zoë (Red, you)", "李 (Blue)"],
        "ok": True, "none": None, "ratio": 0.5,
        "when": datetime.datetime(2026, 12, 7, 5, 30, 15, 123456, tzinfo=datetime.UTC),
        "stake": decimal.Decimal("1.50"),
        "lazy": gettext_lazy("Cube"),
    }
    ours, django = json_script(value, "turn-map"), django_json_script(value, "turn-map")
    assert json.loads(_text(ours)) == json.loads(_text(django))
    assert json.loads(_text(ours))["when"] == "2026-12-07T05:30:15.123Z"  # as DjangoJSONEncoder writes it


def test_text_cannot_end_the_script_or_start_a_tag() -> None:
    value = {"name": "</script><script>alert('x')</script> & <!--"}
    markup = json_script(value, "turn-map")
    inner = _text(markup)
    assert "<" not in inner and ">" not in inner and "&" not in inner
    assert inner == _text(django_json_script(value, "turn-map")).replace(", ", ",").replace(": ", ":")
    assert json.loads(inner) == value


def test_without_an_id() -> None:
    assert str(json_script([1, 2])) == '<script type="application/json">[1,2]</script>'
