"""Composing and sending one notice: a plain-text and an HTML body from templates (user text
escaped by the HTML template's autoescaping), absolute links, RFC 8058 one-click unsubscribe."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from gamesite.site_address import absolute_url as absolute
from notices.unsubscribe import unsubscribe_url

__all__ = ["absolute", "compose_notice", "send_composed"]


def compose_notice(*, user: Any, template: str, subject: str, context: dict[str, Any]) -> dict[str, Any]:
    """templates/notices/email/<template>.txt and .html for the player, as data that can wait in
    the database (notices/outbox.py) until the mail server takes it."""
    unsubscribe = unsubscribe_url(user)
    context = {
        **context,
        "user": user,
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "settings_url": absolute(reverse("notices:settings")),
        "unsubscribe_url": unsubscribe,
    }
    return {
        # A subject is one line: a newline in a user's text must not start a header.
        "subject": " ".join(f"{settings.SITE_NAME}: {subject}".split()),
        "body": render_to_string(f"notices/email/{template}.txt", context),
        "html": render_to_string(f"notices/email/{template}.html", context),
        "to": [user.email],
        "headers": {
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    }


def send_composed(composed: dict[str, Any]) -> None:
    """Hand a composed notice to the mail server (raises on failure)."""
    message = EmailMultiAlternatives(
        subject=composed["subject"], body=composed["body"], to=composed["to"], headers=composed["headers"]
    )
    message.attach_alternative(composed["html"], "text/html")
    message.send()
