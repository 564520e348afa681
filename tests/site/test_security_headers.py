"""Every page carries a Content-Security-Policy (django-csp) that allows no inline script or
style without this response's nonce; HSTS covers subdomains whenever it is on."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import start_game

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"


def directives(response: Any) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    parsed = {}
    for part in policy.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


def test_a_page_forbids_inline_script_and_style_without_the_nonce(client: Client, db: None) -> None:
    response = client.get(reverse("home"))

    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    for kind in ("script-src", "style-src"):
        assert "'unsafe-inline'" not in policy[kind]
        assert "'unsafe-eval'" not in policy[kind]


@pytest.mark.parametrize(
    "url_name", ["accounts:login", "accounts:signup", "accounts:password_reset", "admin:login"]
)
def test_account_and_admin_pages_carry_the_policy(client: Client, db: None, url_name: str) -> None:
    response = client.get(reverse(url_name))

    assert "'unsafe-inline'" not in response["Content-Security-Policy"]


def test_a_game_page_has_no_inline_script_or_style(
    alice: Any, bob: Any, alice_client: Client
) -> None:
    game = start_game(alice, bob)

    page = alice_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()

    assert "Content-Security-Policy" not in page  # (the header, not a meta tag)
    # Data for the page's own scripts comes as JSON (Django's json_script), which no browser runs.
    assert not re.search(r'<script(?![^>]*\bsrc=)(?![^>]*type="application/json")', page), "an inline <script>"
    assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", page), "inline style or handler"


def test_no_template_keeps_inline_script_style_or_handlers() -> None:
    offenders = []
    for path in TEMPLATES.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            if re.search(r"<script(?![^>]*\bsrc=)|<style\b|\sstyle=|\son[a-z]+=|hx-on", text):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def hsts_settings(**env: str) -> str:
    code = "import gamesite.settings as s; print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS)"
    clean = {
        "PATH": os.environ.get("PATH", ""),
        "SECRET_KEY": "s" * 50,
        "DICE_KEY": "00ff" * 8,
        "EMAIL_URL": "console:",
        **env,
    }
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip()


def test_hsts_includes_subdomains_when_on() -> None:
    assert hsts_settings() == "2592000 True"
    assert hsts_settings(SECURE_HSTS_SECONDS="3600") == "3600 True"
    assert hsts_settings(SECURE_HSTS_SECONDS="0") == "0 False"
    assert (
        hsts_settings(SECURE_HSTS_SECONDS="3600", SECURE_HSTS_INCLUDE_SUBDOMAINS="0")
        == "3600 False"
    )


def test_the_hsts_header_names_subdomains(client: Client, db: None, settings: Any) -> None:
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True

    response = client.get(reverse("home"), secure=True)

    assert response["Strict-Transport-Security"] == "max-age=3600; includeSubDomains"
