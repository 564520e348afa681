"""A player's tournament record (tournaments won, recent final places), as an inclusion tag so the
profile and player pages show the same thing and their views stay as they are."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Tournament
from tournaments.tournaments import standings

register = template.Library()
RECENT = 10


@register.inclusion_tag("tournaments/_tournament_record.html")
def tournament_record(player: Any) -> dict[str, Any]:
    finished = Tournament.objects.filter(status=Tournament.Status.FINISHED, entries__player=player)
    won = list(finished.filter(winner=player).order_by("-finished_at", "-pk"))
    places = []
    for tournament in finished.order_by("-finished_at", "-pk")[:RECENT]:
        table = standings(tournament)
        place = next((row["place"] for row in table if row["username"] == player.get_username()), None)
        places.append({"tournament": tournament, "place": place, "of": len(table)})
    return {"player": player, "won": won, "places": places}
