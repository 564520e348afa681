"""A player's ratings card (every rated variant, with a history chart for those played), as an
inclusion tag so the profile and player pages show the same thing and their views stay as they are."""

from __future__ import annotations

from typing import Any

from django import template

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
