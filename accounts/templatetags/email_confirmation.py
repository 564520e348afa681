"""{% email_confirmation_card back %}: whether the player's address is confirmed, and a button
that mails a confirmation link (back: "profile" or "invite", the page to return to)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.email_confirmation import email_is_confirmed

register = template.Library()


@register.inclusion_tag("accounts/_email_confirmation.html", takes_context=True)
def email_confirmation_card(context: dict[str, Any], back: str) -> dict[str, Any]:
    user = context["user"]
    return {"user": user, "back": back, "email_confirmed": email_is_confirmed(user),
            "csrf_token": context.get("csrf_token")}
