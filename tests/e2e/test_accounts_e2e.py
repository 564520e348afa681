"""A visitor creates a userid in the browser, lands logged in, logs out and logs back in."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

PASSWORD = "correct-horse-battery"


def open_menu(page: Page, name: str) -> None:
    page.locator("summary", has_text=re.compile(f"^{name}$", re.IGNORECASE)).click()


def test_a_visitor_signs_up_logs_out_and_logs_in_again(
    page: Page, screenshot: Callable[[Page, str], Path]
) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Backgammon at your own pace")
    screenshot(page, "home")

    page.get_by_role("link", name="Create new userid").first.click()
    page.get_by_label(re.compile(r"^Userid:?$")).fill("Erin_e2e")
    page.get_by_label(re.compile(r"^E-mail:?$")).fill("erin@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label(re.compile(r"^Password again:?$")).fill(PASSWORD)
    screenshot(page, "signup")
    page.get_by_role("button", name="Create userid").click()

    expect(page.locator(".whoami")).to_contain_text("Erin_e2e")
    expect(page.locator(".messages")).to_contain_text("Welcome, Erin_e2e")
    screenshot(page, "after-signup")

    open_menu(page, "Account")
    page.get_by_role("button", name="Log out").click()
    expect(page.locator(".messages")).to_contain_text("You are logged out")
    expect(page.locator(".whoami")).to_have_count(0)

    open_menu(page, "Account")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Log in").click()
    page.get_by_label(re.compile(r"^Userid:?$")).fill("erin_e2e_wrong")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("do not match")
    screenshot(page, "login-error")

    page.get_by_label(re.compile(r"^Userid:?$")).fill("Erin_e2e")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".whoami")).to_contain_text("Erin_e2e")


def test_the_help_pages_read_well_on_a_phone(
    page: Page, screenshot: Callable[[Page, str], Path]
) -> None:
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto("/help/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("rules of backgammon")
    # Nothing wider than the screen: no sideways scrolling on a phone.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    screenshot(page, "rules-phone")

    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.goto("/help/dice/")
    screenshot(page, "dice-phone")


def test_the_menus_open_one_at_a_time_and_close_on_escape(page: Page) -> None:
    page.goto("/help/features/")
    account = page.locator("details.menu", has=page.locator("summary", has_text="Account"))
    help_menu = page.locator("details.menu", has=page.locator("summary", has_text="Help"))

    open_menu(page, "Account")
    expect(account).to_have_attribute("open", "")
    open_menu(page, "Help")
    expect(help_menu).to_have_attribute("open", "")
    expect(account).not_to_have_attribute("open", "")

    page.keyboard.press("Escape")
    expect(help_menu).not_to_have_attribute("open", "")
    expect(page.locator("details.menu > summary", has_text="Help")).to_be_focused()

    open_menu(page, "Account")
    page.locator("h1").click()
    expect(account).not_to_have_attribute("open", "")
