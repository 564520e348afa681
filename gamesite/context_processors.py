"""Template context shared by every page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    """The site's name, so templates and e-mails never spell it by hand."""
    return {"site_name": settings.SITE_NAME}
