"""The profile page's vacation card, as an inclusion tag so the profile view stays as it is."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import template
from django.conf import settings
from django.utils import timezone

from accounts.vacations import days_left, upcoming

register = template.Library()


@register.inclusion_tag("accounts/_vacations.html", takes_context=True)
def vacations_card(context: dict[str, Any]) -> dict[str, Any]:
    user = context["user"]
    today = timezone.localdate()
    return {
        "vacations": [
            {"vacation": v, "last_day": v.start + timedelta(days=v.days - 1), "started": v.start <= today}
            for v in upcoming(user, today)
        ],
        "days_left": days_left(user, today.year),
        "allowance": settings.VACATION_DAYS_PER_YEAR,
        "year": today.year,
        "tomorrow": today + timedelta(days=1),
        "vacation_error": context.get("vacation_error", ""),
        "csrf_token": context.get("csrf_token"),
    }
