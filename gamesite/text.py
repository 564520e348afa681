"""What free text players write may hold: the one check for every such field.

Messages (subject and body), the messages that come with a move or a challenge, bios, private
notes, API token names and Tell a friend notes all pass through ``text_refusal``. Refused:

- control characters other than line break, carriage return and tab (NUL cannot be stored by
  PostgreSQL; ESC, BEL and backspace drive terminals and mail readers; C1 controls likewise);
- the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which
  make text read in a different order from the one it is stored in (a "Trojan Source" name or
  link); the plain direction marks (U+200E, U+200F) that right-to-left writing needs stay;
- lone surrogates (U+D800-U+DFFF), which a JSON string can carry ("\\ud800") but which are no
  character at all and cannot be encoded as UTF-8 for the database.

Each service raises its own refusal with the sentence, so what is refused, and why, is the same
wherever the text is typed (a page or the API).

>>> text_refusal("Good game!\\nThanks", "message") is None
True
>>> text_refusal("ring \\x07", "message")
'The message contains characters that cannot be sent (control characters or text-direction overrides).'
>>> has_refused_characters("\\u202eevil")
True
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError

__all__ = ["has_refused_characters", "json_holds_refused_text", "text_refusal", "validate_free_text"]

_REFUSED = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # control characters but \t \n \r
    "\u202a-\u202e\u2066-\u2069"  # bidirectional embeddings, overrides and isolates
    "\ud800-\udfff]"  # lone surrogates
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_refused_characters(text: str) -> bool:
    """Whether ``text`` holds a character no free-text field accepts."""
    return _REFUSED.search(text) is not None


def text_refusal(text: str, what: str) -> str | None:
    """The sentence refusing ``text`` (``what`` names the field: "message", "note"), or None."""
    if has_refused_characters(text):
        return (
            f"The {what} contains characters that cannot be sent "
            "(control characters or text-direction overrides)."
        )
    return None


def validate_free_text(text: str) -> None:
    """``text_refusal`` as a Django validator, for form fields."""
    if has_refused_characters(text):
        raise ValidationError(
            "This text contains characters that cannot be kept "
            "(control characters or text-direction overrides).",
            code="refused_characters",
        )


def json_holds_refused_text(value: Any) -> str | None:
    """For a parsed JSON document: why one of its strings (key or value) cannot be taken, or None.

    Only NUL and lone surrogates count here, the characters no field can store at all; the
    fields that take free text refuse the rest themselves with their own words. A walk without
    recursion: a document nested as deep as the JSON parser allows is no problem here."""
    waiting: list[Any] = [value]
    while waiting:
        item = waiting.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "The request contains a NUL character, which no field here accepts."
            if _SURROGATE.search(item):
                return "The request contains a lone surrogate (such as \\ud800), which is not text."
        elif isinstance(item, dict):
            waiting.extend(item.keys())
            waiting.extend(item.values())
        elif isinstance(item, list):
            waiting.extend(item)
    return None

