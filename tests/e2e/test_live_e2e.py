"""Issue 6's player-facing items in two browsers: Game status and the PLAY count updating by
themselves (item 15), a confirmed double with a message the opponent reads (item 16), and
Submit & next game (item 18).

The server's dice are scripted (the live server runs in this process, so the patch reaches it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.db.models import F
from playwright.sync_api import Page, expect

from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import challenge_create, roll_request
from messaging.services import message_send
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast, roll_or_double
from tests.site.gamebuilder import THREE_DAYS, act, scripted_dice, start_game

Shot = Callable[[Page, str], Path]
# The status lists and the PLAY count are pushed a "status" event (within a second); a generous
# wait all the same, as this test checks what arrives, tests/e2e/test_push_e2e.py how fast.
POLLED = 13_000


def test_status_and_the_play_count_update_without_a_reload(tab_for: TabMaker, transactional_db: None,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           screenshot: Shot) -> None:
    who = cast()
    bob = tab_for(1280, who.bob)
    bob.goto("/games/")
    expect(bob.locator("#play-badge .badge")).to_have_count(0)
    # The stream says hello only after it has joined bob's groups: a change made before that
    # would reach the page only by the next poll, and under load that can be after the wait.
    expect(bob.locator("body")).to_have_attribute("data-live", "push", timeout=POLLED)
    bob.evaluate("window.stillTheSamePage = true")  # gone if anything reloaded the page

    challenge = challenge_create(challenger=who.alice, opponent="bob", variant="BP", time_limit=THREE_DAYS)
    expect(bob.locator(f"#challenge-{challenge.pk}")).to_contain_text("alice challenges you to", timeout=POLLED)

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)  # alice moves first
    act(game, who.alice, Action.play(((8, 5), (6, 5))))  # now bob's turn
    your_turn = bob.locator("section[aria-labelledby=my-turn]")
    expect(your_turn).to_contain_text(f"#{game.pk}", timeout=POLLED)
    expect(bob.locator("summary #play-badge .badge")).to_have_text("1 waiting for you", timeout=POLLED)
    assert bob.evaluate("window.stillTheSamePage") is True
    screenshot(bob, "live-1-status-updated")

    bob.locator("summary", has_text="Play").click()
    expect(bob.locator("#play-menu-count")).to_have_text("(1)")
    screenshot(bob, "live-2-play-menu-open")

    # A message: the same one request for the menu counts brings the TALK badges out of band.
    message_send(sender=who.alice, to="bob", body="Your move!")
    expect(bob.locator("summary #talk-badge .badge")).to_have_text("1 unread message", timeout=POLLED)
    expect(bob.locator("#talk-menu-count .badge")).to_have_text("1 unread message")
    expect(bob.locator("summary #play-badge .badge")).to_have_text("1 waiting for you")
    assert bob.evaluate("window.stillTheSamePage") is True


def test_a_confirmed_double_with_a_message_reaches_the_opponent(tab_for: TabMaker, transactional_db: None,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                screenshot: Shot) -> None:
    who = cast()
    scene = roll_or_double(who, monkeypatch)
    alice, bob = tab_for(1280, who.alice), tab_for(390, who.bob)
    bob.goto(scene.url)
    alice.goto(scene.url)

    alice.get_by_role("link", name="Double").click()
    panel = alice.locator(".controls__confirm")
    expect(panel).to_contain_text("Double to 2?")
    assert Game.objects.get(pk=scene.game.pk).cube_value == 1  # nothing happens before Confirm
    panel.get_by_label(re.compile("Message")).fill("Feeling brave, Bob?")
    screenshot(alice, "double-1-confirm")
    panel.get_by_role("button", name="Confirm: double to 2").click()
    expect(alice.locator(".game__prompt")).to_contain_text("Waiting for bob to take or pass the double.")

    # Bob's open page updates by itself, with Alice's message and a message field of his own.
    expect(bob.locator(".game__prompt")).to_contain_text("alice doubles to 2", timeout=5_000)
    expect(bob.locator(".moves")).to_contain_text("Feeling brave, Bob?")
    bob.get_by_label(re.compile("Message")).first.fill("Always!")
    screenshot(bob, "double-2-take-or-pass-phone")
    bob.get_by_role("button", name="Take").click()
    expect(alice.locator(".moves")).to_contain_text("Always!", timeout=5_000)
    assert Game.objects.get(pk=scene.game.pk).cube_value == 2


def test_cancelling_the_double_changes_nothing(tab_for: TabMaker, transactional_db: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    who = cast()
    scene = roll_or_double(who, monkeypatch)
    alice = tab_for(1280, who.alice)
    alice.goto(scene.url)
    alice.get_by_role("link", name="Double").click()
    alice.locator(".controls__confirm").get_by_role("link", name="Cancel").click()
    expect(alice.get_by_role("button", name="Roll")).to_be_visible()
    expect(alice.locator(".controls__confirm")).to_have_count(0)
    assert Game.objects.get(pk=scene.game.pk).action_count == scene.game.action_count


def test_submit_and_next_game_goes_from_game_to_game(tab_for: TabMaker, transactional_db: None,
                                                     monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    first = start_game(who.alice, who.bob, variant="BX", match_length=0)
    second = start_game(who.alice, who.charlie, variant="BX", match_length=0)
    alice = tab_for(1280, who.alice)

    alice.goto(f"/games/{first.pk}/?steps=8-5,6-5")
    screenshot(alice, "next-1-submit-buttons")
    alice.get_by_role("button", name="Submit & next game").click()
    expect(alice).to_have_url(re.compile(rf"/games/{second.pk}/$"))
    expect(alice.locator(".game__prompt")).to_contain_text("You rolled 4-2")

    alice.get_by_text("Type the move instead").click()
    alice.get_by_label(re.compile("^Move")).fill("8/4 6/4")
    alice.locator(".controls__typed").get_by_role("button", name="Submit & next game").click()
    expect(alice).to_have_url(re.compile(r"/games/$"))
    expect(alice.locator(".messages")).to_contain_text("No game is waiting for you.")
    assert Game.objects.get(pk=second.pk).actions.filter(kind="play").get().notation == "8/4 6/4"


def test_a_correspondence_roll_reaches_the_waiting_page_with_the_time_left_afresh(
        tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    """The opponent's roll in a correspondence game comes as its parts (the dice, the prompt, the
    match ID and the time left, which the roll started afresh: backgammon/game_region.pushed_roll),
    put in by static/js/live.js without a request."""
    who = cast()
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(who.alice, who.bob, "BP", match_length=5)  # alice won the opening roll
    game = act(game, who.alice, Action.play(((8, 5), (6, 5))))  # bob to roll, or to double
    # Bob rolls five hours into the three days her move gave him.
    Game.objects.filter(pk=game.pk).update(deadline=F("deadline") - timedelta(hours=5))
    alice = tab_for(390, who.alice, height=844)
    alice.goto(f"/games/{game.pk}/")
    expect(alice.locator("body")).to_have_attribute("data-live", "push", timeout=POLLED)
    expect(alice.locator("#time-left")).to_have_text("2 days 18 hours left")
    alice.evaluate("window.stillTheSamePage = true")
    asked: list[str] = []
    alice.on("request", lambda request: asked.append(request.url))

    act(game, who.bob, roll_request())
    expect(alice.locator(".game__prompt")).to_have_text("Waiting for bob to move.", timeout=POLLED)
    expect(alice.locator("#board-dice-theirs use.die-theirs")).to_have_count(2)
    expect(alice.locator("#game")).to_have_class(re.compile("game--move"))
    expect(alice.locator("#time-left")).to_have_text("2 days 23 hours left")
    assert [url for url in asked if f"/games/{game.pk}/" in url] == []
    assert alice.evaluate("window.stillTheSamePage") is True
    screenshot(alice, "live-5-correspondence-roll-pushed")
