"""The non-members' game limit on a profile: ``{% load game_limit %}{% game_limit_line player %}``
says "12 of 30 (members have no limit)" (under a "Games" label), or that members have none."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from accounts.membership import is_member
from backgammon.services import counted_games, game_limit

register = template.Library()


@register.simple_tag
def game_limit_line(player: Any) -> str:
    """One line for the profile page: how many of the limited games ``player`` has going."""
    if is_member(player):
        return format_html('<span class="game-limit">{}</span>', "No limit (member)")
    return format_html(
        '<span class="game-limit">{} of {} (members have no limit)</span>',
        counted_games(player),
        game_limit(),
    )
