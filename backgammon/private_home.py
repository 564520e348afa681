"""A private, empty ``HOME`` for a process that loads GNU Backgammon (backgammon/gnubg_home.py
says why); the test suite takes one before anything loads gnubg (tests/conftest.py). No Django."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

__all__ = ["HOME_MARK", "use_private_home"]

HOME_MARK = "GAMESITE_GNUBG_HOME"
"""The environment variable naming the private home a process made, for the processes it starts."""


def use_private_home() -> str:
    """Point ``HOME`` at this process's private, empty directory (made once, mode 0700 so nobody
    else can put a settings file there, removed when the process exits; inherited from the
    process that started this one when that one made it) and return it."""
    home = os.environ.get(HOME_MARK)
    if home and os.environ.get("HOME") == home and os.path.isdir(home):
        return home
    home = tempfile.mkdtemp(prefix="gnubg-home-")
    atexit.register(shutil.rmtree, home, True)
    os.environ["HOME"] = home
    os.environ[HOME_MARK] = home
    return home
