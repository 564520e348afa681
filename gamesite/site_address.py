"""Absolute links to the site, for what is read away from it (mails, pushes, invitations).

Every absolute link comes from the one setting SITE_URL: a worker has no request to take the
address from, and a request's Host header is the client's to choose. ``make run`` sets SITE_URL
from its RUN_PORT.
"""

from __future__ import annotations

from django.conf import settings

__all__ = ["absolute_url"]


def absolute_url(path: str) -> str:
    """``path`` (a site path, from ``reverse``) made absolute with SITE_URL."""
    return settings.SITE_URL + path
