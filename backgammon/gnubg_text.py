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

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

__all__ = ["gnubg_command"]

_LIBC = ctypes.CDLL(None)


def gnubg_command(command: str) -> str:
    """Run one gnubg text command and return what it printed."""
    with tempfile.TemporaryFile() as capture:
        _LIBC.fflush(None)
        saved = os.dup(1)
        os.dup2(capture.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            _LIBC.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        capture.seek(0)
        return capture.read().decode(errors="replace")
