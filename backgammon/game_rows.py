"""What a row of the lobby's game tables says, from the viewing player's side (Jinja globals,
gamesite/jinja_env.py)."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.templatetags.players import player_link
from backgammon.engine import Side
from backgammon.models import Game

__all__ = ["opponent_name", "score_for"]


def opponent_name(game: Game, user: Any) -> SafeString:
    """The other player's name, a link to their profile; for someone outside the game, both names."""
    side = game.side_of(user)
    if side is None:
        return format_html("{} v {}", player_link(game.black), player_link(game.white))
    return SafeString(player_link(game.player(side.other)))


def score_for(game: Game, user: Any) -> str:
    """The score with the viewer's first, e.g. "3-1 to 5"; "single game" outside matches."""
    if not game.match_length:
        return "single game"
    mine, theirs = game.score_black, game.score_white
    if game.side_of(user) is Side.WHITE:
        mine, theirs = theirs, mine
    return f"{mine}-{theirs} to {game.match_length}"
