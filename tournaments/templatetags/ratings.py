"""A player's ratings card (every rated variant, with a history chart for those played), as an
inclusion tag so the profile and player pages show the same thing and their views stay as they are."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from backgammon.engine import VARIANTS
from tournaments.rating_chart import rating_chart
from tournaments.ratings import rating_history, ratings_of

register = template.Library()


@register.inclusion_tag("tournaments/_ratings_card.html")
def ratings_card(player: Any) -> dict[str, Any]:
    history = rating_history(player)
    rows = [
        {
            "code": code,
            "name": VARIANTS[code].name,
            "rating": f"{rating:.2f}",
            "experience": experience,
            "chart": rating_chart(history.get(code, ())),
        }
        for code, (rating, experience) in ratings_of(player).items()
    ]
    return {"player": player, "rows": rows}


@register.simple_tag
def rating_changes_note(game: Any) -> str:
    """What a finished rated match did to the ratings ("Rating changes: bob +10.00, alice -10.00."),
    empty when it changed none (money play, a draw, an abort)."""
    changes = game.rating_changes.select_related("player").order_by("-change")
    parts = [f"{change.player.get_username()} {change.change:+.2f}" for change in changes]
    if not parts:
        return ""
    return format_html('<p class="result__ratings">Rating changes: {}.</p>', ", ".join(parts))
