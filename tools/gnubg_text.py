"""The fixture generators' and the engine tests' name for backgammon/gnubg_text.py."""

from __future__ import annotations

from backgammon.gnubg_text import gnubg_command

__all__ = ["gnubg_command"]
