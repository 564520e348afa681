"""Click-to-move built in the page (static/js/turn.js): every click, "swap dice", "undo" and "start
the turn again" draws the board, the prompt, the links and the Submit form in the browser, asking
the server nothing, exactly as the server draws the same steps; Submit then plays the move.

Each scene walks a turn; at every step the page's parts are compared with what the server
renders for the page's own address (the steps it keeps there) in a second tab of the same player.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Profile
from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.views.game import STALE_PAGE_REDRAWN
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.site.gamebuilder import act, position, scripted_dice, start_game, starting_from

Shot = Callable[[Page, str], Path]

# What a click changes, read as the browser holds it (the same parser for both tabs' markup).
SNAPSHOT = """() => {
  const main = document.getElementById("game-main");
  const html = (selector) => { const found = main.querySelector(selector); return found ? found.innerHTML : null; };
  return {
    steps: html("#board-steps"), slabs: html("#board-slabs"), checkers: html("#board-checkers"),
    texts: html("#board-texts"), dice: html("#board-dice-mine"), moves: html("#board-moves"),
    desc: main.querySelector("#board-desc").textContent, prompt: main.querySelector(".game__prompt").textContent,
    links: html(".controls__links"), submit: html("#turn-submit-slot"),
    refresh: main.querySelector("a[data-turn=self]").getAttribute("href"),
  };
}"""


def normalized(snapshot: dict[str, Any]) -> dict[str, Any]:
    def tidy(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        value = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken"', value)
        return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", value)).strip()

    return {key: tidy(value) for key, value in snapshot.items()}


def same_as_the_server(tab: Page, server: Page) -> None:
    """The tab's turn, drawn in the page, is what the server draws for the tab's address."""
    built = normalized(tab.evaluate(SNAPSHOT))
    server.goto(tab.url)
    fetched = normalized(server.evaluate(SNAPSHOT))
    assert built == fetched, {key: (built[key], fetched[key]) for key in built if built[key] != fetched[key]}


def click(tab: Page, what: str) -> None:
    if what in ("swap dice", "undo", "start the turn again"):
        tab.locator(".controls__links").get_by_role("link", name=what, exact=True).click()
    else:
        tab.get_by_role("link", name=what, exact=True).locator(".hit").click()


def walk(tab_for: TabMaker, player: Any, game: Game, clicks: list[str], screenshot: Shot, name: str) -> Page:
    tab, server = tab_for(1280, player), tab_for(1280, player)
    tab.goto(f"/games/{game.pk}/")
    expect(tab.locator("#turn-map")).to_have_count(1)
    asked: list[str] = []
    page_address = re.compile(rf"/games/{game.pk}/(\?.*)?$")  # the page itself, or a click the server answers
    tab.on("request", lambda request: asked.append(request.url) if page_address.search(request.url) else None)
    for what in clicks:
        click(tab, what)
        same_as_the_server(tab, server)
    assert asked == [], asked  # every click was drawn in the page
    screenshot(tab, f"turn-{name}")
    return tab


def test_the_opening_with_swap_undo_and_start_again(tab_for: TabMaker, transactional_db: None,
                                                    monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    tab = walk(tab_for, who.alice, game, [
        "swap dice", "move the checker on 6 by 1 to 5", "undo", "swap dice", "move the checker on 8 by 3 to 5",
        "start the turn again", "move the checker on 8 by 3 to 5", "move the checker on 6 by 1 to 5",
    ], screenshot, "opening")
    expect(tab.locator(".game__prompt")).to_have_text("Your move is complete: Submit it, or undo a step.")
    tab.get_by_role("button", name="Submit", exact=True).click()
    expect(tab.locator(".game__prompt")).to_contain_text("Waiting for bob")
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play").get().notation == "8/5 6/5"


def test_a_hit_sends_the_blot_to_the_bar(tab_for: TabMaker, transactional_db: None,
                                         monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    who = cast()
    # Alice's 13, 8 and 6 points; Bob's blot on her 5 point (his 20) and the rest on her 24.
    starting_from(monkeypatch, position=position({13: 2, 8: 1, 6: 12}, {20: 1, 1: 14}))
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    tab = walk(tab_for, who.alice, game, ["move the checker on 8 by 3 to 5", "move the checker on 6 by 1 to 5"],
               screenshot, "hit")
    tab.get_by_role("button", name="Submit", exact=True).click()
    expect(tab.locator(".game__prompt")).to_contain_text("Waiting for bob")
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play").get().notation == "8/5* 6/5"


def test_bearing_off_doubles_on_a_mirrored_board_with_a_confirming_step(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Shot
) -> None:
    who = cast()
    Profile.objects.filter(user=who.alice).update(home_board_left=True, confirm_submit=True,
                                                   checker_colours="red-blue")
    starting_from(monkeypatch, position=position({6: 7, 5: 4, 4: 4}, {1: 15}))
    scripted_dice(monkeypatch).then((1, 2), (5, 5))  # Bob starts, bears off two; Alice rolls 5-5
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    game = act(game, who.bob, Action.play(((1, 0), (1, 0))))
    tab = walk(tab_for, who.alice, game, [
        "bear off the checker on 5 with the 5", "bear off the checker on 5 with the 5", "undo",
        "move the checker on 6 by 5 to 1", "bear off the checker on 5 with the 5",
        "bear off the checker on 5 with the 5",
    ], screenshot, "bear-off-mirrored")
    # Alice asked to confirm a move first: the page's Submit… asks the server for that step.
    tab.get_by_role("link", name="Submit…").click()
    expect(tab.locator("#confirm-submit")).to_contain_text("Submit 6/1 5/off")
    tab.get_by_role("button", name="Submit", exact=True).click()
    expect(tab.locator(".game__prompt")).to_contain_text("Waiting for bob")
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play", side=0).get().notation == "6/1 5/off(3)"


def test_a_refused_moves_reason_goes_with_the_next_click_as_on_the_page_the_server_draws(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    tab = tab_for(1280, who.alice)
    tab.goto(f"/games/{game.pk}/")
    click(tab, "move the checker on 8 by 3 to 5")
    click(tab, "move the checker on 6 by 1 to 5")
    # The page was a move behind (another of her pages played, say): the server refuses the move.
    tab.locator("#turn-submit-slot input[name=expected_number]").evaluate("(field) => { field.value = '0'; }")
    tab.get_by_role("button", name="Submit", exact=True).click()
    alert = tab.locator("#game-alerts .game__alert")
    expect(alert).to_have_text(STALE_PAGE_REDRAWN)
    click(tab, "move the checker on 8 by 3 to 5")
    expect(alert).to_have_count(0)
    server = tab_for(1280, who.alice)
    same_as_the_server(tab, server)
    expect(server.locator("#game-alerts .game__alert")).to_have_count(0)
    assert not Game.objects.get(pk=game.pk).actions.filter(kind="play").exists()
