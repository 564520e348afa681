"""Two players in two browsers: a challenge, click-to-move with swap and undo, Submit, the other
page updating by itself, and a game played to its end through the page.

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

from backgammon.models import Game
from tests.e2e.conftest import TabMaker
from tests.site.gamebuilder import position, scripted_dice, starting_from

PASSWORD = "correct-horse-battery"
Shot = Callable[[Page, str], Path]


@pytest.fixture
def players(transactional_db: None) -> tuple[Any, Any]:
    users = get_user_model().objects
    return (users.create_user("alice", "alice@example.com", PASSWORD),
            users.create_user("bob", "bob@example.com", PASSWORD))


def logged_in(tab_for: TabMaker, username: str, width: int = 1280) -> Page:
    """A tab logged in through the log-in form (closed after the test, with its polling)."""
    tab = tab_for(width)
    tab.goto("/accounts/login/")
    tab.get_by_label(re.compile(r"^Userid:?$")).fill(username)
    tab.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    tab.get_by_role("button", name="Log in").click()
    expect(tab.locator(".whoami")).to_contain_text(username)
    return tab


def checker(tab: Page, label: str) -> Any:
    """The clickable column of a movable checker (its link also holds the hidden destination mark)."""
    return tab.get_by_role("link", name=label, exact=True).locator(".hit")


def test_two_players_challenge_and_play_by_clicking(tab_for: TabMaker, players: Any,
                                                     monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    dice = scripted_dice(monkeypatch).then((3, 1), (6, 4))
    alice = logged_in(tab_for, "alice")
    bob = logged_in(tab_for, "bob")

    alice.goto("/games/new/")
    alice.get_by_label(re.compile(r"^Opponent:?$")).fill("bob")
    alice.get_by_label(re.compile(r"Backgammon \(BX\)")).check()
    alice.get_by_role("button", name="Send challenge").click()
    bob.goto("/games/")
    bob.get_by_role("button", name="Accept").click()
    game = Game.objects.get()
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator(".game__prompt")).to_contain_text("Waiting for alice to move.")

    alice.goto(f"/games/{game.pk}/")
    expect(alice.locator(".game__prompt")).to_contain_text("You rolled 3-1: click a checker to move it by 3.")
    screenshot(alice, "play-1-opening")
    alice.evaluate("window.stillTheSamePage = true")  # gone if a click reloaded the page
    # The turn is built in the page (static/js/turn.js): no click asks the server, and the side
    # panel is never swapped while the turn is built.
    alice.evaluate("document.querySelector('.game__side').dataset.mark = 'before the clicks'")
    clicks_asked: list[str] = []
    alice.on("request", lambda request: clicks_asked.append(request.url) if "steps=" in request.url
             or "swap=" in request.url else None)

    alice.get_by_role("link", name="swap dice").click()
    expect(alice.locator(".game__prompt")).to_contain_text("move it by 1")
    expect(alice).to_have_url(re.compile(r"swap=1"))
    checker(alice, "move the checker on 6 by 1 to 5").click()
    expect(alice).to_have_url(re.compile(r"steps=6-5"))
    alice.get_by_role("link", name="undo").click()
    expect(alice).not_to_have_url(re.compile(r"steps="))
    checker(alice, "move the checker on 6 by 1 to 5").click()
    expect(alice).to_have_url(re.compile(r"steps=6-5"))
    alice.get_by_role("link", name="move the checker on 8 by 3 to 5").focus()
    screenshot(alice, "play-2-one-step-and-focus")
    alice.keyboard.press("Enter")  # the checker links work from the keyboard
    expect(alice.locator(".game__prompt")).to_contain_text("Your move is complete")
    assert alice.evaluate("window.stillTheSamePage") is True
    assert alice.evaluate("document.querySelector('.game__side').dataset.mark") == "before the clicks"
    assert clicks_asked == [], clicks_asked
    screenshot(alice, "play-3-complete")
    alice.get_by_label(re.compile("Message")).first.fill("have fun")
    asked: list[str] = []
    bob.on("request", lambda request: asked.append(request.url))
    alice.get_by_role("button", name="Submit", exact=True).click()
    expect(alice.locator(".game__prompt")).to_contain_text("Waiting for bob to move.")
    # The address is the game's own again (HX-Replace-Url): a reload shows the game, not a turn.
    expect(alice).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    # The move's answer is the whole region: the moves list has it.
    expect(alice.locator(".moves")).to_contain_text("31: 8/5 6/5")
    assert alice.evaluate("document.querySelector('.game__side').dataset.mark") is None

    # Bob's open page notices within three seconds, without a reload by him.
    expect(bob.locator(".game__prompt")).to_contain_text("You rolled 6-4", timeout=3_500)
    expect(bob.locator(".moves")).to_contain_text("31: 8/5 6/5")
    expect(bob.locator(".moves")).to_contain_text("have fun")
    # Pushed with the event, the region needed no request of his page.
    assert not any(f"/games/{game.pk}/poll/" in url for url in asked), asked
    screenshot(bob, "play-4-bob-updated")
    assert not dice.queue


def test_a_nearly_finished_game_is_played_to_its_end(tab_for: TabMaker, players: Any,
                                                      monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    from backgammon.services import challenge_accept, challenge_create
    from tests.site.gamebuilder import THREE_DAYS

    starting_from(monkeypatch, position=position({2: 1, 1: 1}, {13: 15}))
    scripted_dice(monkeypatch).then((6, 1))
    alice_user, bob_user = players
    challenge = challenge_create(challenger=alice_user, opponent="bob", variant="BX", time_limit=THREE_DAYS)
    game = challenge_accept(challenge_id=challenge.pk, actor=bob_user)

    alice = logged_in(tab_for, "alice", width=390)
    alice.goto(f"/games/{game.pk}/")
    screenshot(alice, "end-1-phone")
    checker(alice, "bear off the checker on 2 with the 6").click()
    expect(alice).to_have_url(re.compile(r"steps=2-off$"))
    checker(alice, "bear off the checker on 1 with the 1").click()
    screenshot(alice, "end-2-complete-phone")
    alice.get_by_role("button", name="Submit", exact=True).click()
    expect(alice.locator(".game__prompt")).to_have_text("alice won (1 point)")
    expect(alice.locator(".moves")).to_contain_text("61: 2/off 1/off")
    screenshot(alice, "end-2-over-phone")
    assert Game.objects.get().status == "finished"
