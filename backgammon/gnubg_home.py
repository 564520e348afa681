"""GNU Backgammon's module, loaded with a private, empty home of its own.

At start-up gnubg reads ``~/.gnubg/gnubgautorc``, the settings a user saved from gnubg itself;
players who run gnubg have one. Such a file changes the bots' and the analysis's settings, and one
saved by gnubg 1.1.0a16 aborts the process (SIGABRT) at its first ``gnubg.command``
(shared/notes/gnubg.md). So every process of ours that loads gnubg (the worker, the analysis
processes, the tests, the tools) points ``HOME``, which gnubg's configuration directory follows,
at a directory of its own first: made for the process (mode 0700, so nobody else can put a
settings file there), removed when it exits, and passed on to the processes it starts.

``from backgammon.gnubg_home import gnubg`` loads the module that way. No Django here.
"""

from __future__ import annotations

from backgammon.private_home import use_private_home

__all__ = ["gnubg"]

use_private_home()

import gnubg  # only once HOME is private
