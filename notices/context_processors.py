"""What every page may need of notices: the site's VAPID public key (push offers; "" when push
is not configured). No query."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def push(request: HttpRequest) -> dict[str, Any]:
    return {"PUSH_PUBLIC_KEY": settings.VAPID_PUBLIC_KEY}
