"""A match state set up in GNU Backgammon for a question through its text commands.

``ask_gnubg(state, plies, command)`` sets the state with ``set matchid`` (cube, owner, score,
length, Crawford, Jacoby, dice) and ``set board``, beavers with ``set beavers`` and the look-ahead
of both evaluations, then runs the command and returns what it printed. The bots' cube
(backgammon/gnubg_cube.py) and the analysis board's plays (backgammon/gnubg_plays.py) ask this way.
"""

from __future__ import annotations

import threading

from backgammon.engine import MatchState
from backgammon.gnubg_bridge import GNUBG_LOCK  # loads on the main thread only
from backgammon.gnubg_text import gnubg_commands

__all__ = ["ask_gnubg"]

# Before every question, as other code in the process (tests, tools) may change them: no user
# interface to wait for (with threads of its own gnubg's ``hint`` waits for ever), nobody playing
# for gnubg, nothing rolled, moved or sounded by itself. Each costs some 0.1 ms.
_SETTINGS = (
    "set threads 1",
    "set display off",
    "set sound enable off",
    "set player 0 human",
    "set player 1 human",
    "set automatic roll off",
    "set automatic move off",
    "set automatic bearoff off",
)
_started = False


def _settings() -> list[str]:
    global _started
    commands = list(_SETTINGS)
    if not _started:  # a match for ``set matchid`` to set up
        commands.append("new match 1")
        _started = True
    return commands


def _refuse_off_main_thread(plies: int) -> None:
    if plies and threading.current_thread() is not threading.main_thread():
        raise RuntimeError(
            f"gnubg evaluates at {plies}-ply only on the main thread (it crashes elsewhere)"
        )


def ask_gnubg(state: MatchState, plies: int, command: str) -> str:
    """Set ``state`` in gnubg, evaluating at ``plies``, and run ``command``: what it printed."""
    _refuse_off_main_thread(plies)
    with GNUBG_LOCK:
        printed = gnubg_commands(
            [
                *_settings(),
                f"set beavers {1 if state.rules.money and state.rules.beavers else 0}",
                f"set evaluation cubedecision eval plies {plies}",
                f"set evaluation chequerplay eval plies {plies}",
                f"set matchid {state.match_id()}",
                f"set board {state.position.id}",
                command,
            ]
        )
    return printed[-1]
