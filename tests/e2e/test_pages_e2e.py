"""The pages as a player sees them, at phone (390 px) and desktop (1280 px) widths: the lobby with
cards on a phone, the error pages, and the board by keyboard (the game page in every phase at
every size: test_fit_e2e.py).

Screenshots go to $E2E_SCREENSHOTS when set (see conftest.py), so a person can look at them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from backgammon.services import challenge_create
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import SCENES, cast, opening
from tests.site.gamebuilder import THREE_DAYS

Shot = Callable[[Page, str], Path]
PHONE, DESKTOP = 390, 1280


def sideways_overflow(tab: Page) -> int:
    """How many pixels the page is wider than the screen (0: no sideways scrolling)."""
    return int(tab.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_the_lobby_lists_become_cards_on_a_phone(tab_for: TabMaker, transactional_db: None,
                                                 monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    who = cast()
    for build in (SCENES["opening"], SCENES["resign-offer"], SCENES["finished-game"]):
        with monkeypatch.context() as patches:
            build(who, patches)
    challenge_create(challenger=who.bob, opponent="alice", variant="MP", time_limit=THREE_DAYS, stake=3,
                     jacoby=True, beavers=True, message="Money game?")
    tab = tab_for(PHONE, who.alice)
    tab.goto("/games/")
    expect(tab.get_by_role("heading", name=re.compile("Your turn"))).to_be_visible()
    screenshot(tab, "status-phone")
    assert sideways_overflow(tab) <= 0
    # Each value carries its column's name, and the table is still a table for screen readers.
    first_game = tab.get_by_role("row").nth(1)
    first_cell = first_game.get_by_role("cell").first
    expect(first_cell).to_have_attribute("data-label", "Game")
    # Shown before it as "Game", read where the cell is at that moment: live.js asks for the
    # lists once when its stream says hello, and a cell held across that swap is no longer there.
    tab.wait_for_function("""() => {
        const cell = document.querySelector('td[data-label="Game"]');
        return cell !== null && getComputedStyle(cell, '::before').content === '"Game"';
    }""")
    expect(tab.locator("table.games thead").first).to_have_css("position", "absolute")  # read, not shown
    expect(tab.get_by_role("columnheader", name="Time left").first).to_be_attached()
    expect(tab.locator(".challenge")).to_contain_text("Sent just now.")
    tab.goto("/games/new/")
    screenshot(tab, "new-game-phone")
    assert sideways_overflow(tab) <= 0
    # A checkbox comes before its label, on the same line.
    box = tab.get_by_label("Jacoby rule").bounding_box()
    label = tab.locator("label[for=id_jacoby]").bounding_box()
    assert box and label and box["x"] < label["x"] and abs(box["y"] - label["y"]) < label["height"]


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_error_pages_keep_the_layout(tab_for: TabMaker, transactional_db: None,
                                         screenshot: Shot, width: int) -> None:
    tab = tab_for(width)
    response = tab.goto("/no-such-page/")
    assert response is not None and response.status == 404
    expect(tab.get_by_role("heading", level=1)).to_have_text("Page not found")
    if width == PHONE:  # the phone's bar: the menus behind its Menu button
        expect(tab.get_by_role("button", name="Menu")).to_be_visible()
    else:
        expect(tab.get_by_role("navigation", name="Main")).to_be_visible()
    screenshot(tab, f"404-{width}")
    assert sideways_overflow(tab) <= 0
    tab.get_by_role("link", name="Home page").click()
    expect(tab).to_have_url(re.compile(r"/$"))


def test_the_board_works_from_the_keyboard(tab_for: TabMaker, transactional_db: None,
                                           monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    scene = opening(cast(), monkeypatch)
    tab = tab_for(DESKTOP, scene.viewer)
    tab.goto(scene.url)
    checkers = tab.locator("svg.board a.move")
    expect(checkers.first).to_have_attribute("aria-label", re.compile(r"^move the checker on \d+ by 3 to \d+$"))
    # Tab from the top of the page reaches every clickable checker, in order, each visibly marked.
    labels = []
    for _ in range(60):
        tab.keyboard.press("Tab")
        focused = tab.evaluate("document.activeElement.getAttribute('aria-label') || ''")
        if focused.startswith("move the checker"):
            labels.append(focused)
            # The focused checker's destination lights up (it fades in over a tenth of a second).
            expect(tab.locator("svg.board a.move:focus .target")).to_have_css("opacity", "1")
            if len(labels) == checkers.count():
                break
    assert labels == checkers.evaluate_all("links => links.map(a => a.getAttribute('aria-label'))")
    screenshot(tab, "keyboard-focus-on-a-checker")
    # Enter on the focused checker makes the step.
    tab.keyboard.press("Enter")
    expect(tab).to_have_url(re.compile(r"steps=\d+-\d+"))
    expect(tab.locator(".game__prompt")).to_contain_text("move it by 1")
