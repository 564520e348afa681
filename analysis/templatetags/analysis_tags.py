"""``{% analysis_panel game %}``: the analysis box on a finished game's page."""

from __future__ import annotations

from typing import Any

from django import template

from analysis.views import panel_context

register = template.Library()


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def analysis_panel(context: Any, game: Any) -> dict[str, object]:
    return {**panel_context(game), "csrf_token": context.get("csrf_token")}
