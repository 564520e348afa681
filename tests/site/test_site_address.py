"""Every absolute link the site sends away (the worker's notices, password resets, invitations)
comes from the one setting SITE_URL, which ``make run`` sets from its RUN_PORT (issue 29, 16)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from gamebuilder import act, scripted_dice, start_game
from notice_tasks import run_queued_notices

from backgammon.engine.actions import Action

ROOT = Path(__file__).resolve().parents[2]
SITE = "http://127.0.0.1:8101"
LINK = re.compile(r"https?://[^\s\"'<>]+")


def links(message: Any) -> list[str]:
    bodies = [message.body, *(content for content, _ in getattr(message, "alternatives", []))]
    found = [link for body in bodies for link in LINK.findall(body)]
    return [link for link in found if not link.startswith("http://www.w3.org/")]


def make_run_commands(port: str) -> dict[str, dict[str, str]]:
    """What ``make run RUN_PORT=<port>`` would start, by program: the environment on its line."""
    printed = subprocess.run(
        ["make", "-n", "run", f"RUN_PORT={port}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    commands: dict[str, dict[str, str]] = {}
    for line in printed.splitlines():
        for program in ("db_worker", "uvicorn"):
            if program in line:
                before = line.split(program)[0].split(";")[-1]
                commands[program] = dict(re.findall(r"\b([A-Z_]+)=(\S+)", before))
                commands[program]["line"] = line
    return commands


def test_make_run_gives_its_port_to_the_workers_site_url(tmp_path: Path) -> None:
    commands = make_run_commands("8101")
    assert commands["db_worker"]["SITE_URL"] == SITE
    assert commands["uvicorn"]["SITE_URL"] == SITE and "--port 8101" in commands["uvicorn"]["line"]
    # The worker started that way takes its links from there (not the default 127.0.0.1:8000).
    unset = ("SITE_URL", "SECRET_KEY", "DICE_KEY", "CACHE_IN_PROCESS", "DATABASE_POOL_SIZE")
    env = {key: value for key, value in os.environ.items() if key not in unset}
    env.update({key: value for key, value in commands["db_worker"].items() if key != "line"})
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
               DEV_SECRETS_FILE=str(tmp_path / ".dev-secrets"), LOG_LEVEL="WARNING")
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c",
         "from notices.mail import absolute; print(absolute('/game/1/'))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert shown.stdout.strip().splitlines()[-1] == f"{SITE}/game/1/", shown.stderr


@pytest.mark.django_db
@override_settings(SITE_URL=SITE)
def test_every_link_sent_away_comes_from_site_url(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, alice_client: Client,
    django_capture_on_commit_callbacks: Any,
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob, variant="BX", match_length=0)
        act(game, alice, Action.play([(8, 5), (6, 5)]))
    run_queued_notices()  # Bob's your-turn mail, as the worker sends it
    # Pages asked under another of the allowed names still link to the site's one address.
    alice_client.post(reverse("accounts:email_confirm_send"), HTTP_HOST="localhost")
    confirmation = links(mail.outbox[-1])[0]
    alice_client.post(confirmation, HTTP_HOST="localhost")  # invitations go out from a confirmed address
    alice_client.post(reverse("messaging:tell_a_friend"), {"email": "sam@example.org", "note": "Hi"},
                      HTTP_HOST="localhost")
    Client().post(reverse("accounts:password_reset"), {"email": alice.email}, HTTP_HOST="localhost")
    kinds = [message.subject for message in mail.outbox]
    assert len(mail.outbox) == 4, kinds
    for message in mail.outbox:
        found = links(message)
        assert found, message.subject
        assert all(link.startswith(f"{SITE}/") for link in found), (message.subject, found)
