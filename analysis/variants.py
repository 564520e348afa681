"""Which variants can be analysed: kept apart from the gnubg modules, so that the web processes
that only ask this never load gnubg (the worker loads it on its main thread)."""

from __future__ import annotations

__all__ = ["UNSUPPORTED_VARIANTS"]

UNSUPPORTED_VARIANTS = {
    "BA": "GNU Backgammon does not play Anti-Backgammon, where the first to bear off loses",
    "BR": "GNU Backgammon cannot tell the race variants' waiting checkers from hit ones",
    "BS": "GNU Backgammon cannot tell the race variants' waiting checkers from hit ones",
}
"""Variants gnubg does not model, with the reason shown to players: no numbers rather than wrong ones."""
