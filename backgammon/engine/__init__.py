"""The backgammon rules engine: pure Python, no Django, no clock, no randomness it did not receive.

>>> from backgammon.engine import Position
>>> Position.from_id("4HPwATDgc/ABMA").pip_count()
(167, 167)

Every public name of the submodules is available here. They are imported on first use (PEP 562),
so that ``python -m backgammon.engine plays --batch``, which other engines are timed against,
starts without loading the match, dice and record modules it never uses.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # not typing's: importing typing would cost the command line's start-up
if TYPE_CHECKING:
    from typing import Any

    from .actions import *
    from .board import *
    from .clock import *
    from .dice import *
    from .errors import *
    from .game import *
    from .match import *
    from .match_id import *
    from .match_json import *
    from .matfile import *
    from .movegen import *
    from .notation import *
    from .plays import *
    from .position_id import *
    from .setup import *
    from .turn import *
    from .variants import *
    from .xgid import *

_SUBMODULES = (
    "board", "errors", "position_id", "variants", "movegen", "plays", "notation", "turn",
    "actions", "game", "match", "match_id", "match_json", "matfile", "dice", "xgid", "setup", "clock",
)


def __getattr__(name: str) -> Any:
    if name == "__all__":  # asked for by ``from backgammon.engine import *``
        return sorted({n for sub in _SUBMODULES for n in import_module(f".{sub}", __name__).__all__})
    for submodule in _SUBMODULES:
        module = import_module(f".{submodule}", __name__)
        if name in module.__all__:
            value = getattr(module, name)
            globals()[name] = value
            return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__getattr__("__all__")))
