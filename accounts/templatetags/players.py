"""Every player's name on the site is a link to their profile: ``{{ user|player_link }}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.filter
def player_link(user: Any) -> str:
    """The player's userid, escaped, as a link to their public profile (empty for no player)."""
    if user is None or user == "":
        return ""
    username = user.get_username() if hasattr(user, "get_username") else str(user)
    url = reverse("tournaments:player", args=[username])
    return format_html('<a class="player-link" href="{}">{}</a>', url, username)
