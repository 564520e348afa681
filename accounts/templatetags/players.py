"""Every player's name on the site is a link to their profile: ``{{ user|player_link }}``."""

from __future__ import annotations

import zlib
from typing import Any

from django import template
from django.utils.html import format_html

from accounts.computer_players import is_computer_player
from accounts.people import is_online as seen_lately
from gamesite.kept_urls import kept_reverse

register = template.Library()


COMPUTER_MARK = format_html(
    ' <span class="computer-tag" title="{}">computer<span class="visually-hidden"> player</span></span>',
    "A computer player (GNU Backgammon), always available",
)
"""After a computer player's name, wherever a player is named: bots are not people who went away."""


@register.filter
def player_link(user: Any) -> str:
    """The player's userid, escaped, as a link to their public profile (empty for no player),
    marked "computer" for a computer player."""
    if user is None or user == "":
        return ""
    username = user.get_username() if hasattr(user, "get_username") else str(user)
    url = kept_reverse("people:profile", username)
    link = format_html('<a class="player-link" href="{}">{}</a>', url, username)
    return link + COMPUTER_MARK if is_computer_player(user) else link


@register.filter
def is_computer(user: Any) -> bool:
    """Whether the player is a computer player (never "not seen yet": always available)."""
    return is_computer_player(user)


# Background colours for the default avatar, picked by the userid so each player keeps theirs;
# all dark enough for the white initial to read (contrast above 4.5:1).
_AVATAR_COLOURS = ("#1f4d3a", "#843e1f", "#1f3f66", "#5a2d6b", "#6b4a12", "#2d5f63", "#7a2436")


@register.simple_tag
def avatar(user: Any, size: int = 64) -> str:
    """The player's avatar picture, or their initial on a coloured square (SVG) when they have none.

    ``user`` needs its profile loaded (select_related("profile")) to keep list pages to one query.
    """
    username = user.get_username()
    label = f"{username}'s avatar"
    picture = getattr(getattr(user, "profile", None), "avatar", None)
    if picture:
        return format_html(
            '<img class="avatar" src="{}" width="{}" height="{}" alt="{}">', picture.url, size, size, label
        )
    colour = _AVATAR_COLOURS[zlib.crc32(username.lower().encode()) % len(_AVATAR_COLOURS)]
    return format_html(
        '<svg class="avatar" viewBox="0 0 64 64" width="{}" height="{}" role="img" aria-label="{}">'
        '<rect width="64" height="64" rx="8" fill="{}"/>'
        '<text x="32" y="43" text-anchor="middle" font-size="30" font-weight="700" '
        'font-family="system-ui, sans-serif" fill="#ffffff">{}</text></svg>',
        size, size, label, colour, username[:1].upper(),
    )


@register.filter
def is_online(profile: Any) -> bool:
    """Whether the player was seen within the presence window."""
    return seen_lately(profile)


@register.filter
def membership_end(user: Any) -> Any:
    """When the player's membership ends, or None when they are not a member now."""
    from accounts.membership import member_until

    return member_until(user)
