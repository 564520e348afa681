"""A player's ratings card (every rated variant, with a history chart for those played), as an
inclusion tag so the profile and player pages show the same thing and their views stay as they are."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from accounts.rating_choices import hidden_variants
from backgammon.engine import VARIANTS
from tournaments.rating_chart import rating_chart
from tournaments.ratings import is_provisional, rating_history, ratings_of

register = template.Library()


@register.inclusion_tag("tournaments/_ratings_card.html", takes_context=True)
def ratings_card(context: Any, player: Any) -> dict[str, Any]:
    """The player's ratings as the viewer may see them: all of them for the player themselves
    (the hidden ones marked), only the shown ones for anyone else (Edit ratings)."""
    request = context.get("request")
    viewer = getattr(request, "user", None)
    own = viewer is not None and viewer.is_authenticated and viewer.pk == player.pk
    hidden = hidden_variants(player)
    history = rating_history(player)
    rows = [
        {
            "code": code,
            "name": VARIANTS[code].name,
            "rating": f"{rating:.2f}",
            "experience": experience,
            "provisional": 0 < experience and is_provisional(experience),
            "hidden": code in hidden,
            "chart": rating_chart(history.get(code, ())),
        }
        for code, (rating, experience) in ratings_of(player).items()
        if own or code not in hidden
    ]
    return {"player": player, "rows": rows, "own": own, "some_hidden": bool(hidden) and not own}


@register.simple_tag
def rating_changes_note(game: Any) -> str:
    """What a finished rated match did to the ratings ("Rating changes: bob +10.00, alice -10.00."),
    empty when it changed none (money play, a draw, an abort)."""
    changes = game.rating_changes.select_related("player").order_by("-change")
    parts = [f"{change.player.get_username()} {change.change:+.2f}" for change in changes]
    if not parts:
        return ""
    return format_html('<p class="result__ratings">Rating changes: {}.</p>', ", ".join(parts))
