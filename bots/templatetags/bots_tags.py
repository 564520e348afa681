"""``{% computer_opponents %}``: the bots as links that fill in the New game form's opponent."""

from __future__ import annotations

from typing import Any

from django import template

from bots.models import Bot

register = template.Library()


@register.inclusion_tag("bots/_computer_opponents.html")
def computer_opponents() -> dict[str, Any]:
    bots = Bot.objects.select_related("user").order_by("user__username")
    order = {choice: index for index, choice in enumerate(Bot.Strength.values)}
    return {"bots": sorted(bots, key=lambda bot: order[bot.strength])}
