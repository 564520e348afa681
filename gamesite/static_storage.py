"""The static files' storage in production: whitenoise's compressed manifest storage, with each
file's URL kept per process.

Every full page asks for about a dozen static URLs (``{% static %}`` in base.html and in the
page's own head), and each answer was worked out afresh: the manifest looked up, the URL joined,
split for a fragment and unquoted, 20-45 µs each, as much as half a page's menus. For a name the
answer cannot change while the process runs: the manifest is read once, when the storage is
made, and a new deploy starts new processes (and a new storage: Django makes it again when the
STORAGES setting changes, as tests do).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from whitenoise.storage import CompressedManifestStaticFilesStorage

__all__ = ["KeptManifestStaticFilesStorage"]


class KeptManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept_urls: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        # DEBUG answers the unhashed name (Django's rule), and may be switched on by a test.
        if force or settings.DEBUG or name is None:
            return str(super().url(name, force))
        try:
            return self._kept_urls[name]
        except KeyError:
            url = str(super().url(name))  # a name missing from the manifest raises, and is not kept
            self._kept_urls[name] = url
            return url
