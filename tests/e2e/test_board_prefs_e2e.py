"""A player changes their board in the browser: a theme and the home board on the left, seen at
once in the live preview; then plays a move by clicking on the mirrored board, confirms it in the
review step, and keeps a private note beside the board (saved by htmx, no reload).

The server's dice are scripted (the live server runs in this process, so the patch reaches it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from backgammon.board_themes import THEMES
from backgammon.models import GameNote
from tests.e2e.conftest import TabMaker
from tests.site.gamebuilder import scripted_dice, start_game

Shot = Callable[[Page, str], Path]


@pytest.fixture
def players(transactional_db: None) -> tuple[Any, Any, Any]:
    users = get_user_model().objects
    return tuple(users.create_user(name, f"{name}@example.com", "correct-horse-battery")  # type: ignore[return-value]
                 for name in ("alice", "bob", "charlie"))


def point_fill(tab: Page, selector: str) -> str:
    return str(tab.locator(selector).first.get_attribute("fill"))


def test_a_player_changes_their_board_then_plays_on_it(tab_for: TabMaker, players: Any,
                                                       monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    alice_user, bob_user, charlie_user = players
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice_user, bob_user, variant="BX", match_length=0)
    alice = tab_for(1280, alice_user)

    alice.goto("/accounts/boards/")
    preview = alice.locator("#board-preview svg.board")
    expect(preview).to_have_attribute("data-theme", "classic")
    screenshot(alice, "boards-1-settings")
    alice.evaluate("window.stillTheSamePage = true")  # gone if anything reloaded the page

    alice.get_by_label("Ocean").check()
    expect(alice.locator("#board-preview svg.board")).to_have_attribute("data-theme", "ocean")
    assert point_fill(alice, "#board-preview polygon.point-dark") == THEMES["ocean"].point_dark
    alice.get_by_label("Home board on the left").check()
    expect(alice.locator("#board-preview svg.board")).to_have_attribute("data-home", "left")
    alice.get_by_label("Show point numbers").uncheck()
    expect(alice.locator("#board-preview .point-number")).to_have_count(0)
    alice.get_by_label("Ask before submitting a move").check()
    assert alice.evaluate("window.stillTheSamePage") is True
    screenshot(alice, "boards-2-preview-changed")
    alice.get_by_role("button", name="Save").click()
    expect(alice.locator(".messages")).to_contain_text("board settings are saved")

    # The game page draws her board the same way, and click-to-move works on it.
    alice.goto(f"/games/{game.pk}/")
    board = alice.locator(".game__board svg.board")
    expect(board).to_have_attribute("data-home", "left")
    expect(board).to_have_attribute("data-theme", "ocean")
    six = alice.get_by_role("link", name="move the checker on 6 by 3 to 3", exact=True).locator(".hit")
    box, frame = six.bounding_box(), board.bounding_box()
    assert box is not None and frame is not None and box["x"] < frame["x"] + frame["width"] / 2
    alice.get_by_role("link", name="move the checker on 8 by 3 to 5", exact=True).locator(".hit").click()
    expect(alice).to_have_url(re.compile(r"steps=8-5"))
    alice.get_by_role("link", name="move the checker on 6 by 1 to 5", exact=True).locator(".hit").click()
    expect(alice.locator(".game__prompt")).to_contain_text("Your move is complete")
    screenshot(alice, "boards-3-mirrored-complete")
    alice.get_by_role("link", name="Submit…").click()
    expect(alice.locator("#confirm-submit")).to_have_text("Submit 8/5 6/5?")
    screenshot(alice, "boards-4-confirm-submit")
    alice.get_by_role("button", name="Submit", exact=True).click()
    expect(alice.locator(".game__prompt")).to_contain_text("Waiting for bob")

    # A private note, saved in place.
    alice.evaluate("window.stillTheSamePage = true")
    alice.locator("#note-text").fill("double if the 5 point holds")
    alice.get_by_role("button", name="Save note").click()
    expect(alice.locator("#game-note")).to_contain_text("Saved.")
    assert alice.evaluate("window.stillTheSamePage") is True
    assert GameNote.objects.get().text == "double if the 5 point holds"
    screenshot(alice, "boards-5-note")

    # A phone shows her home board first (the board scrolls sideways there).
    phone = tab_for(390, alice_user)
    phone.goto(f"/games/{game.pk}/")
    screenshot(phone, "boards-6-phone-game")
    phone.goto("/accounts/boards/")
    screenshot(phone, "boards-7-phone-settings")

    # Charlie watches from the list, and never sees the note.
    charlie = tab_for(1280, charlie_user)
    charlie.goto("/games/watch/")
    screenshot(charlie, "boards-8-watch-list")
    charlie.get_by_role("link", name=f"Watch #{game.pk}").click()
    expect(charlie.locator(".game__rules")).to_contain_text("watching")
    expect(charlie.locator("body")).not_to_contain_text("5 point holds")
    expect(charlie.locator("#game-note")).to_have_count(0)
