"""Keyed dice, as ItsYourTurn rolls them: one table of 3,600,000 rolls per UTC hour.

Design. Every UTC hour (counted from the Unix epoch) has a table with one roll per millisecond;
a roll is the entry for the millisecond at which the server handles the request. The table is
never stored: entry ``i`` of hour ``h`` is computed from the secret key, ``h`` and ``i`` alone,
with keyed BLAKE2b, a cryptographic pseudo-random function. So

- every app server holding the key computes the same roll for the same instant, with no shared
  state and no database row;
- nobody without the key can predict a roll, even knowing every earlier roll;
- any recorded roll can be audited later: given the key and the instant the site recorded,
  ``roll_at`` must give back the recorded dice, and ``hour_table`` lets an auditor recompute a
  whole hour (a few seconds) and check its distribution.

Entries come in blocks of 16: block ``b`` of hour ``h`` is the 64-byte keyed BLAKE2b digest of
(``h``, ``b``, counter 0). Bytes below 252 are accepted and give the outcome ``byte % 36``;
bytes 252..255 are rejected, since 256 is not a multiple of 36 and keeping them would favour
outcomes 0..3. Each outcome is therefore exactly equally likely. The first 16 accepted bytes are
the block's entries; if a digest ever held fewer than 16 accepted bytes (odds about 1e-40) the
block's stream continues with counter 1, 2, ... Outcome ``o`` is the dice ``(o // 6 + 1,
o % 6 + 1)``.

>>> from datetime import UTC, datetime
>>> key = b"an example key, never a real one"
>>> instant = datetime(2024, 5, 1, 12, 34, 56, 789000, tzinfo=UTC)
>>> hour, millisecond = table_entry(instant)
>>> roll_at(key, instant) == outcome_to_dice(hour_table(key, hour)[millisecond])
True
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from .errors import DiceTableError

__all__ = [
    "ROLLS_PER_HOUR",
    "hour_table",
    "outcome_to_dice",
    "roll_at",
    "table_entry",
]

ROLLS_PER_HOUR = 3_600_000
_BLOCK = 16
_DIGEST_SIZE = 64
_ACCEPT_BELOW = 252  # the largest multiple of 36 not above 256
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_HOUR = timedelta(hours=1)
_MILLISECOND = timedelta(milliseconds=1)
_OUTCOMES = bytes(byte % 36 for byte in range(_ACCEPT_BELOW)) + bytes(256 - _ACCEPT_BELOW)
_REJECTED = bytes(range(_ACCEPT_BELOW, 256))


def outcome_to_dice(outcome: int) -> tuple[int, int]:
    """The dice of a table entry 0..35.

    >>> outcome_to_dice(0), outcome_to_dice(7), outcome_to_dice(35)
    ((1, 1), (2, 2), (6, 6))
    """
    if not 0 <= outcome < 36:
        raise DiceTableError(f"{outcome} is not a dice outcome (0 to 35)")
    return outcome // 6 + 1, outcome % 6 + 1


def table_entry(instant: datetime) -> tuple[int, int]:
    """(hour since the epoch, millisecond within that hour) of a timezone-aware instant.

    >>> table_entry(datetime(1970, 1, 1, 1, 0, 0, 1999, tzinfo=UTC))
    (1, 1)
    """
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise DiceTableError("A roll needs a timezone-aware instant, not a naive datetime")
    elapsed = instant - _EPOCH
    hour, rest = divmod(elapsed, _HOUR)
    return hour, rest // _MILLISECOND


def roll_at(key: bytes, instant: datetime) -> tuple[int, int]:
    """The roll for the millisecond of ``instant`` (timezone-aware) under ``key``."""
    hour, millisecond = table_entry(instant)
    block, offset = divmod(millisecond, _BLOCK)
    return outcome_to_dice(_block(_hasher(key), hour, block)[offset])


def hour_table(key: bytes, hour: int) -> bytes:
    """All 3,600,000 outcomes (0..35) of ``hour`` (hours since the Unix epoch, UTC), for audits."""
    base = _hasher(key)
    return b"".join(_block(base, hour, block) for block in range(ROLLS_PER_HOUR // _BLOCK))


def _hasher(key: bytes) -> hashlib.blake2b:
    if not isinstance(key, bytes) or len(key) < 16:
        raise DiceTableError("The dice key must be at least 16 bytes")
    if len(key) > 64:
        # BLAKE2b takes keys of up to 64 bytes; a longer secret is condensed, not truncated.
        key = hashlib.blake2b(key, person=b"dice-key").digest()
    return hashlib.blake2b(key=key, digest_size=_DIGEST_SIZE, person=b"iyt-dice-table")


def _block(base: hashlib.blake2b, hour: int, block: int) -> bytes:
    entries = b""
    counter = 0
    while len(entries) < _BLOCK:
        hasher = base.copy()
        hasher.update(
            hour.to_bytes(8, "big", signed=True)
            + block.to_bytes(4, "big")
            + counter.to_bytes(4, "big")
        )
        entries += hasher.digest().translate(_OUTCOMES, _REJECTED)
        counter += 1
    return entries[:_BLOCK]
