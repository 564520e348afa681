"""A newcomer's first minute: sign up, find the main screen's offer (the tutorial, and the
computer at once), press "Play the computer now" and land on the new game's page, the computer
opponent marked as such."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from accounts.models import Profile
from backgammon.models import Game
from bots.accounts import create_bot_accounts
from bots.models import Bot

PASSWORD = "correct-horse-battery"


def test_sign_up_then_play_the_computer_now(page: Page, screenshot: Callable[[Page, str], Path]) -> None:
    create_bot_accounts(get_user_model(), Profile, Bot)  # the browser tests' flush took the migration's
    page.goto("/")
    page.get_by_role("link", name="Create new userid").first.click()
    page.get_by_label(re.compile(r"^Userid:?$")).fill("Nina_new")
    page.get_by_label(re.compile(r"^E-mail:?$")).fill("nina@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label(re.compile(r"^Password again:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Create userid").click()

    offer = page.get_by_role("region", name="Start playing")
    expect(offer).to_be_visible()
    expect(offer.get_by_role("link", name="tutorial")).to_have_attribute("href", "/help/tutorial/")
    expect(offer.get_by_label("Opponent")).to_have_value("gnubg-medium")
    expect(offer.get_by_label("Match to")).to_have_value("3")
    expect(offer).to_contain_text("Pro Backgammon (BP), unrated, 3 days a move for you")
    screenshot(page, "newcomer-main-screen")

    offer.get_by_role("button", name="Play the computer now").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert page.url.endswith(f"/games/{game.pk}/")
    assert (game.black.username, game.white.username) == ("Nina_new", "gnubg-medium")
    heading = page.locator("#game-heading")
    expect(heading).to_contain_text("Nina_new")
    expect(heading.locator(".computer-tag")).to_have_text("computer player")  # its accessible text
    expect(page.locator(".messages")).to_contain_text("Your game against gnubg-medium has started.")
    screenshot(page, "newcomer-first-game")

    page.goto("/")  # with a game, the offer gives way to the game
    expect(page.get_by_role("region", name="Start playing")).to_have_count(0)
