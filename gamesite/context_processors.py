"""Template context shared by every page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    """The site's name, so templates never spell it by hand.

    Upper case because Django's auth views put their own ``site_name`` (the host name, as the
    sites framework is not installed) into their pages' context, which would win.
    """
    return {"SITE_NAME": settings.SITE_NAME}
