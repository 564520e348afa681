"""Under the Content-Security-Policy a game page and the admin load without a single violation
in the browser's console, and click-to-move (htmx) still works."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.site.gamebuilder import scripted_dice, start_game

PASSWORD = "correct-horse-battery"


@pytest.fixture
def watched_tab(browser: Browser, live_server: Any) -> Iterator[tuple[Page, list[str]]]:
    """A tab that records every policy violation and page error; closed after the test, so its
    polling (the PLAY count) does not hold database connections past the test database."""
    problems: list[str] = []
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    tab = context.new_page()

    def on_console(message: ConsoleMessage) -> None:
        # (The admin asks for /favicon.ico, which the site does not serve: not a policy matter.)
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            problems.append(f"{tab.url}: {message.text}")

    tab.on("console", on_console)
    tab.on("pageerror", lambda error: problems.append(f"{tab.url}: {error}"))
    yield tab, problems
    context.close()


def log_in(tab: Page, path: str, username: str) -> None:
    tab.goto(path)
    tab.get_by_label(re.compile(r"^(Userid|Username):?$")).fill(username)
    tab.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    tab.get_by_role("button", name="Log in").click()


def test_a_game_page_plays_by_clicking_with_no_policy_violation(
    watched_tab: tuple[Page, list[str]], transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = get_user_model().objects
    alice = users.create_user("alice", "alice@example.com", PASSWORD)
    bob = users.create_user("bob", "bob@example.com", PASSWORD)
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BX")
    tab, problems = watched_tab

    log_in(tab, "/accounts/login/", "ALICE")
    tab.goto(f"/games/{game.pk}/")
    expect(tab.locator(".game__prompt")).to_contain_text("click a checker to move it by 3")
    tab.get_by_role("link", name="move the checker on 8 by 3 to 5", exact=True).locator(
        ".hit"
    ).click()
    expect(tab).to_have_url(re.compile(r"steps=8-5"))
    tab.locator("summary", has_text="Help").click()  # the menu script (a static file) runs
    tab.keyboard.press("Escape")
    expect(tab.locator("details.menu[open]")).to_have_count(0)

    assert problems == []


def test_the_admin_works_with_no_policy_violation(
    watched_tab: tuple[Page, list[str]], transactional_db: None
) -> None:
    users = get_user_model().objects
    users.create_superuser("boss", "boss@example.com", PASSWORD)
    player = users.create_user("alice", "alice@example.com", PASSWORD)
    tab, problems = watched_tab

    log_in(tab, "/admin/login/", "boss")
    expect(tab.locator("#site-name")).to_be_visible()
    tab.goto("/admin/auth/user/")
    expect(tab.locator("#result_list")).to_contain_text("alice")
    tab.goto(f"/admin/auth/user/{player.pk}/change/")
    expect(tab.locator("#id_username")).to_have_value("alice")
    tab.goto("/admin/backgammon/game/")

    assert problems == []
