"""A roll in the browser: its answer is the region's main column and the few parts beside it that a
roll changes (backgammon/views/game.py, _rolled.html), and the page goes on as if it had the whole
region: the turn is built by clicks from the answer's click map, the moves list and the players'
panel stay as they were, the match ID and the region's class follow the roll.

The server's dice are scripted (the live server runs in this process, so the patch reaches it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.e2e.test_play_e2e import checker
from tests.site.gamebuilder import act, scripted_dice, start_game

Shot = Callable[[Page, str], Path]


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 720)])
def test_a_roll_changes_the_main_column_and_the_turn_is_built_from_it(
        tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Shot,
        width: int, height: int) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1), (4, 2))  # alice opens with 3-1; bob rolls 4-2
    game = start_game(who.alice, who.bob, "BP", match_length=5)
    game = act(game, who.alice, Action.play(((8, 5), (6, 5))))
    bob = tab_for(width, who.bob, height=height)
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("#game")).to_have_class(re.compile("game--roll"))
    bob.evaluate("window.stillTheSamePage = true")
    bob.evaluate("document.querySelector('.game__side').dataset.mark = 'before the roll'")

    bob.get_by_role("button", name="Roll", exact=True).click()

    expect(bob.locator(".game__prompt")).to_contain_text("You rolled 4-2")
    expect(bob.locator("#game")).to_have_class(re.compile("game--move"))
    rolled = Game.objects.get(pk=game.pk)
    expect(bob.locator("#match-id")).to_have_text(rolled.match_id)
    expect(bob.locator("#game-poll")).to_have_attribute("data-number", str(rolled.action_count))
    # The players' panel and the moves list were not sent again: the page kept its own.
    assert bob.evaluate("document.querySelector('.game__side').dataset.mark") == "before the roll"
    expect(bob.locator(".moves")).to_contain_text("31: 8/5 6/5")
    expect(bob.locator("#game-main")).to_have_count(1)
    screenshot(bob, f"roll-answer-{width}")

    checker(bob, "move the checker on 8 by 4 to 4").click()
    checker(bob, "move the checker on 6 by 2 to 4").click()
    expect(bob.locator(".game__prompt")).to_contain_text("Your move is complete")
    bob.get_by_role("button", name="Submit", exact=True).click()
    expect(bob.locator(".game__prompt")).to_contain_text("Waiting for alice")
    expect(bob.locator(".moves")).to_contain_text("42: 8/4 6/4")
    assert bob.evaluate("window.stillTheSamePage") is True
    played = Game.objects.get(pk=game.pk).actions.filter(kind="play", side=1).get()
    assert played.notation == "8/4 6/4"


def test_a_poll_asked_for_as_the_rolls_answer_comes_leaves_one_game_region(
        tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's stream says hello (static/js/live.js then polls every region) just as the roll's
    answer comes in, before it is put in: the poll waits for the action, then goes from the
    #game-poll the answer put in anew. Sent from the one the answer replaced, it came back as a
    second game region (CI, 2026-12-07)."""
    who = cast()
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(who.alice, who.bob, "BP", match_length=5)
    game = act(game, who.alice, Action.play(((8, 5), (6, 5))))
    bob = tab_for(1280, who.bob, height=720)
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("#game")).to_have_class(re.compile("game--roll"))
    expect(bob.locator("body[data-live=push]")).to_have_count(1)  # the stream's hello has come
    bob.evaluate("""() => {
      var once = false;
      document.body.addEventListener("htmx:beforeSwap", function (event) {
        if (once || event.detail.requestConfig.verb !== "post") return;
        once = true;
        window.polledFrom = document.getElementById("game-poll").dataset.number;
        htmx.trigger(document.getElementById("game-poll"), "live:poll");
      });
    }""")
    polls: list[str] = []
    bob.on("request", lambda request: polls.append(request.url) if "/poll/" in request.url else None)

    bob.get_by_role("button", name="Roll", exact=True).click()

    expect(bob.locator(".game__prompt")).to_contain_text("You rolled 4-2")
    rolled = Game.objects.get(pk=game.pk)
    assert bob.evaluate("window.polledFrom") == str(rolled.action_count - 1)  # the region before the answer
    expect(bob.locator("#game-poll")).to_have_attribute("data-number", str(rolled.action_count))
    bob.wait_for_timeout(300)  # the poll, asked again once the roll was answered, has been answered
    assert polls and all(f"n={rolled.action_count}" in url for url in polls), polls
    expect(bob.locator("#game")).to_have_count(1)
    expect(bob.locator("#game-main")).to_have_count(1)
    checker(bob, "move the checker on 8 by 4 to 4").click()
    checker(bob, "move the checker on 6 by 2 to 4").click()
    expect(bob.locator(".game__prompt")).to_contain_text("Your move is complete")
