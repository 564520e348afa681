"""The profile page's list of API tokens, as an inclusion tag so the profile view stays as it is."""

from __future__ import annotations

from typing import Any

from django import template

from api.tokens import TOKEN_NAME_MAX, tokens_of

register = template.Library()


@register.inclusion_tag("api/_tokens.html", takes_context=True)
def api_tokens_card(context: dict[str, Any]) -> dict[str, Any]:
    return {
        "tokens": list(tokens_of(context["user"])),
        "name_max": TOKEN_NAME_MAX,
        "csrf_token": context.get("csrf_token"),
    }
