"""GNU Backgammon's text commands from Python, with what they print.

``gnubg.command`` prints through C stdio on file descriptor 1, not through ``sys.stdout``, so the
output is caught by pointing that descriptor at a temporary file, flushing C stdio on both sides
(see shared/notes/gnubg.md). Used by the bots' cube decisions (backgammon/gnubg_cube.py), the
fixture generators in tools/ and the engine's tests.
"""

from __future__ import annotations

import ctypes
import os
import tempfile
from collections.abc import Sequence

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

__all__ = ["gnubg_command", "gnubg_commands"]

_LIBC = ctypes.CDLL(None)


def gnubg_command(command: str) -> str:
    """Run one gnubg text command and return what it printed."""
    return gnubg_commands([command])[0]


def gnubg_commands(commands: Sequence[str]) -> list[str]:
    """Run gnubg text commands in turn and return what each printed (one capture for them all:
    about 0.1 ms a command instead of 1 ms)."""
    printed: list[str] = []
    with tempfile.TemporaryFile() as capture:
        _LIBC.fflush(None)
        saved = os.dup(1)
        os.dup2(capture.fileno(), 1)
        try:
            start = 0
            for command in commands:
                gnubg.command(command)
                _LIBC.fflush(None)
                end = os.lseek(capture.fileno(), 0, os.SEEK_CUR)
                os.lseek(capture.fileno(), start, os.SEEK_SET)
                printed.append(os.read(capture.fileno(), end - start).decode(errors="replace"))
                start = end
        finally:
            _LIBC.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
    return printed
