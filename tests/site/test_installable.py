"""The installable app's pieces as the server gives them: the manifest, the icons it names, the
service worker at /sw.js and the offline page (the browser's side: tests/e2e/test_installable_e2e.py)."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image

pytestmark = pytest.mark.django_db


def test_the_manifest_has_what_an_installable_app_needs(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert {key: manifest[key] for key in ("name", "short_name", "start_url", "scope", "display")} == {
        "name": "Gammon Turn", "short_name": "Gammon", "start_url": "/", "scope": "/", "display": "standalone"}
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    kinds = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= kinds
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        with Image.open(path) as image:
            assert image.format == "PNG"
            assert f"{image.width}x{image.height}" == icon["sizes"]
            if icon["purpose"] == "maskable":  # full bleed: no transparent corner for the mask to show
                assert image.convert("RGBA").getpixel((0, 0))[3] == 255


def test_the_worker_is_served_from_the_root_for_the_whole_site_and_never_kept(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    first_line, body = response.content.decode().split("\n", 1)
    config = json.loads(first_line.removeprefix("const GAMMON = ").removesuffix(";"))
    assert config["offline"] == "/offline/" and config["static"] == "/static/"
    assert "/static/css/site.css" in config["precache"]
    assert 'addEventListener("push"' in body and 'addEventListener("notificationclick"' in body


def test_the_offline_page_holds_nothing_of_the_player_who_asks(alice_client: Client, client: Client) -> None:
    theirs = alice_client.get("/offline/")
    anyone = client.get("/offline/")
    assert theirs.status_code == 200
    assert theirs.content == anyone.content  # the same for everyone: the worker may keep it
    page = theirs.content.decode()
    assert "You are offline" in page
    assert "alice" not in page and "<form" not in page and "csrf" not in page.lower()
    assert "Set-Cookie" not in theirs.headers


def test_every_page_links_the_manifest_and_registers_the_worker(alice_client: Client, client: Client) -> None:
    for who in (client, alice_client):
        page = who.get("/help/").content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page
        assert 'src="/static/js/pwa.js" data-worker="/sw.js"' in page


def test_the_content_security_policy_allows_the_manifest_and_the_worker(client: Client) -> None:
    policy = client.get("/help/")["Content-Security-Policy"]
    assert "manifest-src 'self'" in policy and "worker-src 'self'" in policy
