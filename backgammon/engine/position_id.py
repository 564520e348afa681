"""GNU Backgammon Position IDs: 80 bits, base64, 14 characters.

For each side in turn (first the side NOT on roll, then the player on roll), for each of its 25 places
(points 1..24, then the bar) in its own numbering: as many 1 bits as checkers, then a 0 bit. Bits fill
each byte from its least significant end.

>>> encode_position_id(STANDARD_LAYOUT, STANDARD_LAYOUT)
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import base64
import binascii

from .board import CHECKERS, STANDARD_LAYOUT, Layout
from .errors import InvalidIdError

__all__ = ["decode_position_id", "encode_position_id"]


def encode_position_id(first: Layout, second: Layout) -> str:
    """The ID of a board whose side not on roll is ``first`` and player on roll is ``second``."""
    bits = 0
    position = 0
    for layout in (first, second):
        for count in layout:
            bits |= ((1 << count) - 1) << position
            position += count + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii").rstrip("=")


def decode_position_id(position_id: str) -> tuple[Layout, Layout]:
    """The two layouts (side not on roll, player on roll) of a Position ID.

    Raises InvalidIdError, naming the ID, when it is malformed or holds more than 15 checkers a side.
    """
    text = position_id.strip()
    if len(text) != 14:
        raise InvalidIdError(f"{position_id!r} is not a Position ID: it must have 14 characters")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidIdError(f"{position_id!r} is not a Position ID: it is not base64") from None
    bits = int.from_bytes(raw, "little")
    layouts: list[Layout] = []
    for side in range(2):
        counts = [0] * 25
        place = 0
        while place < 25:
            if bits & 1:
                counts[place] += 1
            else:
                place += 1
            bits >>= 1
        if sum(counts) > CHECKERS:
            which = "player on roll" if side else "side not on roll"
            raise InvalidIdError(f"{position_id!r} gives the {which} {sum(counts)} checkers; a side has 15")
        layouts.append(tuple(counts))
    return layouts[0], layouts[1]


_ = STANDARD_LAYOUT  # used by the module doctest
