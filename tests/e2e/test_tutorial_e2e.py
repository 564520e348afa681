"""A visitor takes lesson 1 of the tutorial in a real browser: from the home page, by clicking
checkers on the board, to the verdict and the next lesson; with JavaScript on (htmx swaps the
lesson) and off (plain links)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DEFAULT_TIMEOUT_MS

Shot = Callable[[Page, str], Path]


def checker(tab: Page, label: str) -> Any:
    """The clickable column of a movable checker (its link also holds the hidden destination mark)."""
    return tab.get_by_role("link", name=label, exact=True).locator(".hit")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_visitor_does_lesson_one(browser: Browser, live_server: Any, transactional_db: None,
                                   screenshot: Shot, javascript: bool) -> None:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900},
                                  java_script_enabled=javascript)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        tab = context.new_page()
        tab.goto("/")
        tab.get_by_role("link", name="Learn on a real board in 8 short lessons").click()
        tab.get_by_role("link", name="Start with lesson 1").click()
        expect(tab.get_by_role("heading", level=1)).to_contain_text("The board and your first move")

        if javascript:
            tab.evaluate("window.stillTheSamePage = true")  # gone if a click reloaded the page
        # A wrong first click is not possible: only movable checkers are links. The lesson's move:
        checker(tab, "move the checker on 8 by 3 to 5").click()
        expect(tab.get_by_role("link", name="undo")).to_be_visible()
        checker(tab, "move the checker on 6 by 1 to 5").click()
        verdict = tab.get_by_role("status")
        expect(verdict).to_contain_text("Well done!")
        expect(verdict).to_contain_text("makes your 5-point")
        screenshot(tab, f"tutorial-lesson-1-done-{'js' if javascript else 'no-js'}")
        if javascript:  # htmx swapped the lesson in place and pushed each step's URL
            assert tab.evaluate("window.stillTheSamePage") is True
            assert tab.url.endswith("/help/tutorial/1/?steps=8-5%2C6-5")

        tab.get_by_role("link", name="Try again").click()
        expect(tab.get_by_role("status")).to_have_count(0)
        checker(tab, "move the checker on 24 by 3 to 21").click()
        checker(tab, "move the checker on 24 by 1 to 23").click()
        expect(tab.get_by_role("status")).to_contain_text("Not quite.")

        tab.goto("/help/tutorial/1/?steps=8-5,6-5")
        tab.get_by_role("link", name="Next lesson: One checker or two").click()
        expect(tab.get_by_role("heading", level=1)).to_contain_text("One checker or two")
    finally:
        context.close()
