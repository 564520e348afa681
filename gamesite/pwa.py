"""The installable app: the web app manifest, the service worker at /sw.js and the offline page.

The worker (static/js/sw.js) is served from the site's root so its scope can be "/" (a script
under /static/ could only control /static/), never cached by the browser's HTTP cache so a new
release reaches players at once, with a first line naming the static files it keeps: their
URLs as this release's static storage spells them (hashed in production), so a release changes
the worker's bytes and browsers install the new one. The offline page is built without the
request: no player's data, no form, nothing that differs between players, so the worker may
keep it.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

__all__ = ["THEME_COLOUR", "manifest", "offline", "service_worker"]

THEME_COLOUR = "#1f4d3a"  # the header's felt green (static/css/site.css --felt)
BACKGROUND_COLOUR = "#f7f3e8"  # the page's cream (--cream)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-192.png", "192x192", "maskable"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)
# What the worker keeps at install, besides the static files pages ask for later: what the
# offline page and the first page need.
PRECACHED_STATIC = ("css/site.css", "js/menus.js", "js/pwa.js", "favicon.svg", "icons/icon-192.png")


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    data: dict[str, Any] = {
        "id": "/",
        "name": settings.SITE_NAME,
        "short_name": "Gammon",
        "description": "Play backgammon by the web, one move at a time.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
                  for path, sizes, purpose in ICONS],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@lru_cache(maxsize=1)
def _worker_source() -> str:
    found = finders.find("js/sw.js")
    if not found:
        raise FileNotFoundError("static/js/sw.js is missing")
    with open(found, encoding="utf-8") as source:
        return source.read()


def _worker_script() -> str:
    config = {
        "precache": [static(path) for path in PRECACHED_STATIC],
        "offline": reverse("offline"),
        "renew": reverse("notices:push_device_renew"),
        "static": static(""),
        "icon": static("icons/icon-192.png"),
    }
    if settings.DEBUG:
        _worker_source.cache_clear()  # development: an edit of sw.js is served at once
    body = _worker_source()
    version = hashlib.sha256((json.dumps(config) + body).encode()).hexdigest()[:16]
    config["version"] = version
    return f"const GAMMON = {json.dumps(config)};\n{body}"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_worker_script(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows when the network is gone (rendered without the request, see above)."""
    html = render_to_string("offline.html", {"SITE_NAME": settings.SITE_NAME,
                                             "theme_colour": THEME_COLOUR})
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"
    return response
