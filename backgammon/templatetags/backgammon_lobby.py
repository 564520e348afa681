"""Small template helpers for the lobby's game lists, from the viewing player's side."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from accounts.templatetags.players import player_link
from backgammon.engine import Side
from backgammon.models import Game
from backgammon.views.lobby import game_url

register = template.Library()


@register.simple_tag
def game_link(game: Game) -> str:
    return game_url(game)


@register.simple_tag
def opponent_name(game: Game, user: Any) -> str:
    """The other player's name, a link to their profile; for someone outside the game, both names."""
    side = game.side_of(user)
    if side is None:
        return format_html("{} v {}", player_link(game.black), player_link(game.white))
    return player_link(game.player(side.other))


@register.simple_tag
def score_for(game: Game, user: Any) -> str:
    """The score with the viewer's first, e.g. "3-1 to 5"; "single game" outside matches."""
    if not game.match_length:
        return "single game"
    mine, theirs = game.score_black, game.score_white
    if game.side_of(user) is Side.WHITE:
        mine, theirs = theirs, mine
    return f"{mine}-{theirs} to {game.match_length}"
