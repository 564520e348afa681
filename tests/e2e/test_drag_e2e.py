"""Moving checkers the other ways players know (static/js/drag.js), in a real Chromium: dragging with
the mouse and with a finger (touch emulation, real touch input through the DevTools protocol),
double-click for the higher die, right-click for the lower one with no context menu on the board,
the dice submitting a complete move, and the same by keys.

Every move is drawn in the page without asking the server; after each, the page's board, prompt,
links and Submit are compared with what the server draws for the page's own address (the steps
it keeps there), as tests/e2e/test_turn_e2e.py does for clicks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, CDPSession, Locator, Page, expect

from accounts.models import Profile
from backgammon.models import Game
from tests.e2e.conftest import DEFAULT_TIMEOUT_MS, TabMaker
from tests.e2e.scenes import cast, doubles, forced_pass, session_cookie
from tests.e2e.test_turn_e2e import SNAPSHOT, normalized, same_as_the_server
from tests.site.gamebuilder import position, scripted_dice, start_game, starting_from

# The centre of a place (a point 1-24, 0 the viewer's tray, 25 the bar) on the screen, from the
# turn's own map and the board's transform.
CENTRE = """(place) => {
  const map = JSON.parse(document.getElementById("turn-map").textContent);
  const area = map.geometry.places[String(place)];
  const matrix = document.querySelector("#game-main svg.board").getScreenCTM();
  const point = new DOMPoint(area[0] + area[2] / 2, area[1] + area[3] / 2).matrixTransform(matrix);
  return [point.x, point.y];
}"""

Shot = Callable[[Page, str], Path]

MARKS = "() => [...document.querySelectorAll('#board-drag .drag-target')].map(m => Number(m.dataset.place))"
OVER = "() => [...document.querySelectorAll('#board-drag .drag-target--over')].map(m => Number(m.dataset.place))"


def centre(tab: Page, place: int) -> tuple[float, float]:
    x, y = tab.evaluate(CENTRE, place)
    return x, y


def opening(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Game]:
    """Alice won the opening roll 3-1 (shown 3 then 1) in plain backgammon and must move."""
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    return who, start_game(who.alice, who.bob, variant="BX", match_length=0)


def game_tab(tab: Page, game: Game) -> list[str]:
    """Opens the game; returns the list of the page's own requests made from then on (a move the
    page draws itself asks nothing). Scrolling is instant, as for a player who asks for less
    motion: the site scrolls smoothly otherwise (site.css), and a press aimed at a checker while
    the page still glides lands beside it."""
    tab.emulate_media(reduced_motion="reduce")
    tab.goto(f"/games/{game.pk}/")
    expect(tab.locator("#turn-map")).to_have_count(1)
    asked: list[str] = []
    address = re.compile(rf"/games/{game.pk}/(\?.*)?$")
    tab.on("request", lambda request: asked.append(request.url) if address.search(request.url) else None)
    return asked


def mouse_drag(tab: Page, origin: int, to: tuple[float, float], *, while_held: Any = None) -> None:
    tab.mouse.move(*centre(tab, origin))
    tab.mouse.down()
    tab.mouse.move(to[0], to[1], steps=6)
    if while_held is not None:
        while_held()
    tab.mouse.up()


def steps_in(tab: Page) -> str:
    """The steps the page keeps in its address, ``8-5,6-5``, and ``swap`` when the dice are swapped."""
    # From the page itself: Playwright's tab.url learns of history.replaceState a moment later.
    query = parse_qs(urlsplit(tab.evaluate("location.href")).query)
    return ",".join(query.get("steps", [])) + (" swap" if query.get("swap") == ["1"] else "")


def test_dragging_with_the_mouse(tab_for: TabMaker, transactional_db: None,
                                 monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    who, game = opening(monkeypatch)
    tab, server = tab_for(1280, who.alice), tab_for(1280, who.alice)
    tab.set_viewport_size({"width": 1280, "height": 1300})
    asked = game_tab(tab, game)

    # While the checker on 8 is held, its places are marked: 5 (the 3), 7 (the 1), 4 (both).
    def held_over_5() -> None:
        assert sorted(tab.evaluate(MARKS)) == [4, 5, 7]
        assert tab.evaluate(OVER) == [5]
        expect(tab.locator("#board-drag .drag-ghost")).to_have_count(1)
        screenshot(tab, "drag-mouse-held")

    mouse_drag(tab, 8, centre(tab, 5), while_held=held_over_5)
    assert steps_in(tab) == "8-5"
    expect(tab.locator("#board-drag")).to_have_count(0)
    same_as_the_server(tab, server)

    # Dropped anywhere but a marked place (the opponent's 1 point, then off the board), it goes back.
    before = normalized(tab.evaluate(SNAPSHOT))
    mouse_drag(tab, 6, centre(tab, 1))
    box = tab.locator("#game-main svg.board").bounding_box()
    assert box is not None
    mouse_drag(tab, 6, (box["x"] + box["width"] / 2, box["y"] + box["height"] + 60))
    assert normalized(tab.evaluate(SNAPSHOT)) == before
    expect(tab.locator("#board-drag")).to_have_count(0)
    assert steps_in(tab) == "8-5"
    # Escape while the mouse holds it puts it back: releasing it on a marked place then plays nothing.
    tab.mouse.move(*centre(tab, 6))
    tab.mouse.down()
    tab.mouse.move(*centre(tab, 5), steps=6)
    tab.keyboard.press("Escape")
    expect(tab.locator("#board-drag")).to_have_count(0)
    tab.mouse.up()
    assert normalized(tab.evaluate(SNAPSHOT)) == before

    # Saving the private note (another region swapped) leaves the turn built in the page as it is.
    tab.get_by_label(re.compile("Only you can see this")).fill("Hold the 5 point")
    tab.get_by_role("button", name="Save note").click()
    expect(tab.locator("#game-note")).to_contain_text("Saved.")

    # A press that barely moves is a click: the 1 on the 6 completes the move. (The note's Save
    # left the page scrolled down to it: back up to the board first, as the player would.)
    tab.evaluate("window.scrollTo(0, 0)")
    x, y = centre(tab, 6)
    tab.mouse.move(x, y)
    tab.mouse.down()
    tab.mouse.move(x + 3, y + 2)
    tab.mouse.up()
    expect(tab.locator(".game__prompt")).to_have_text("Your move is complete: Submit it, or undo a step.")
    assert steps_in(tab) == "8-5,6-5"
    same_as_the_server(tab, server)
    assert [url for url in asked if "/note" not in url] == [], asked


def test_a_drop_that_needs_both_dice_or_the_other_order(tab_for: TabMaker, transactional_db: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    who, game = opening(monkeypatch)
    tab, server = tab_for(1280, who.alice), tab_for(1280, who.alice)
    tab.set_viewport_size({"width": 1280, "height": 1300})
    asked = game_tab(tab, game)

    # 8 to 7 is the 1, the second die shown: the dice are swapped for it, as "swap dice" would.
    mouse_drag(tab, 8, centre(tab, 7))
    assert steps_in(tab) == "8-7 swap"
    same_as_the_server(tab, server)
    tab.locator(".controls__links").get_by_role("link", name="start the turn again").click()

    # 24 to 20 only by both dice: both are played, and the move is complete.
    mouse_drag(tab, 24, centre(tab, 20))
    expect(tab.locator(".game__prompt")).to_have_text("Your move is complete: Submit it, or undo a step.")
    # (The dice stay swapped after "start the turn again": the 1 first, so 24/23/20.)
    assert steps_in(tab) == "24-23,23-20 swap"
    same_as_the_server(tab, server)
    assert asked == [], asked

    # Submit posts those steps: the server plays them.
    tab.get_by_role("button", name="Submit", exact=True).click()
    expect(tab.locator(".game__prompt")).to_contain_text("Waiting for bob")
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play").get().notation == "24/20"


def test_a_drop_on_doubles_uses_as_many_fives_as_it_needs(tab_for: TabMaker, transactional_db: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    scene = doubles(cast(), monkeypatch)  # Bob's 5-5, two fives played (13/8 13/8), two to go
    tab, server = tab_for(1280, scene.viewer), tab_for(1280, scene.viewer)
    tab.set_viewport_size({"width": 1280, "height": 1300})
    tab.goto(scene.url)
    expect(tab.locator("#turn-map")).to_have_count(1)

    def held() -> None:
        assert tab.evaluate(MARKS) == [8, 3]

    mouse_drag(tab, 13, centre(tab, 3), while_held=held)
    expect(tab.locator(".game__prompt")).to_have_text("Your move is complete: Submit it, or undo a step.")
    assert steps_in(tab) == "13-8,13-8,13-8,8-3"
    same_as_the_server(tab, server)


@pytest.fixture
def touch_tab(browser: Browser, live_server: Any) -> Iterator[Any]:
    """touch_tab(user) -> a tablet's page (touch, mobile, 768 x 1024) logged in as ``user``."""
    contexts = []

    def make(user: Any) -> Page:
        context = browser.new_context(base_url=live_server.url, viewport={"width": 768, "height": 1024},
                                      has_touch=True, is_mobile=True, device_scale_factor=2)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        name, value = session_cookie(user)
        context.add_cookies([{"name": name, "value": value, "url": live_server.url}])
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    live_server.wait_until_idle()


def touch(cdp: CDPSession, kind: str, point: tuple[float, float] | None = None) -> None:
    points = [] if point is None else [{"x": point[0], "y": point[1], "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def finger_drag(tab: Page, cdp: CDPSession, origin: int, to: tuple[float, float], while_held: Any = None) -> None:
    start = centre(tab, origin)
    touch(cdp, "touchStart", start)
    for i in range(1, 9):
        touch(cdp, "touchMove", (start[0] + (to[0] - start[0]) * i / 8, start[1] + (to[1] - start[1]) * i / 8))
    if while_held is not None:
        while_held()
    touch(cdp, "touchEnd")


def test_dragging_with_a_finger(touch_tab: Any, tab_for: TabMaker, transactional_db: None,
                                monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    who = cast()
    # Alice bears off soon: fourteen checkers on her 2 point, one on 8; she rolls 6-5 (shown 6, 5).
    # Her home board is on the left: the drop places are the mirrored board's.
    Profile.objects.filter(user=who.alice).update(home_board_left=True)
    starting_from(monkeypatch, position=position({8: 1, 2: 14}, {1: 15}))
    scripted_dice(monkeypatch).then((6, 5))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    tab, server = touch_tab(who.alice), tab_for(1280, who.alice)
    asked = game_tab(tab, game)
    tab.evaluate("""() => { window.pointerTypes = [];
      document.addEventListener("pointerdown", (e) => window.pointerTypes.push(e.pointerType)); }""")
    cdp = tab.context.new_cdp_session(tab)
    # Only the checkers take a finger for themselves; elsewhere it scrolls the page.
    actions = tab.evaluate("""() => [getComputedStyle(document.querySelector("svg.board a.move")).touchAction,
      getComputedStyle(document.querySelector("svg.board")).touchAction]""")
    assert actions == ["none", "auto"]

    # The checker on 8 to the tray: 8/2 by the 6, then off by the 5.
    def held() -> None:
        assert sorted(tab.evaluate(MARKS)) == [0, 2, 3]
        assert tab.evaluate(OVER) == [0]
        screenshot(tab, "drag-touch-held")

    finger_drag(tab, cdp, 8, centre(tab, 0), held)
    expect(tab.locator(".game__prompt")).to_have_text("Your move is complete: Submit it, or undo a step.")
    assert steps_in(tab) == "8-2,2-off"
    assert set(tab.evaluate("window.pointerTypes")) == {"touch"}
    same_as_the_server(tab, server)
    tab.locator(".controls__links").get_by_role("link", name="undo").click()
    tab.locator(".controls__links").get_by_role("link", name="undo").click()
    expect(tab.locator(".controls__links")).to_contain_text("swap dice")

    # A finger dropping the checker off its places puts it back; a tap is still a click.
    before = normalized(tab.evaluate(SNAPSHOT))
    finger_drag(tab, cdp, 8, centre(tab, 9))
    assert normalized(tab.evaluate(SNAPSHOT)) == before
    tab.locator("svg.board a.move[data-origin='8'] .hit").tap()
    assert steps_in(tab) == "8-2"
    same_as_the_server(tab, server)
    assert asked == [], asked

    # A finger on the board away from the checkers scrolls the page.
    tab.evaluate("window.scrollTo(0, 0)")
    field = tab.locator("svg.board rect.frame").bounding_box()
    assert field is not None
    low = (field["x"] + 12, min(field["y"] + field["height"] - 10, 1000))
    touch(cdp, "touchStart", low)
    for i in range(1, 9):
        touch(cdp, "touchMove", (low[0], low[1] - 40 * i))
    touch(cdp, "touchEnd")
    tab.wait_for_function("window.scrollY > 0")


def test_double_click_plays_the_higher_die_and_right_click_the_lower(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    who, game = opening(monkeypatch)
    tab, server = tab_for(1280, who.alice), tab_for(1280, who.alice)
    tab.set_viewport_size({"width": 1280, "height": 1300})
    asked = game_tab(tab, game)
    tab.evaluate("""() => { window.menus = [];
      window.addEventListener("contextmenu", (e) => window.menus.push(e.defaultPrevented)); }""")
    # With the 1 shown first a click plays the 1: a double-click plays the 3 all the same.
    tab.locator(".controls__links").get_by_role("link", name="swap dice").click()
    assert steps_in(tab) == " swap"
    tab.mouse.dblclick(*centre(tab, 8))
    assert steps_in(tab) == "8-5"
    same_as_the_server(tab, server)

    # Right-click plays the lower die, with no context menu.
    tab.mouse.click(*centre(tab, 6), button="right")
    expect(tab.locator(".game__prompt")).to_have_text("Your move is complete: Submit it, or undo a step.")
    assert steps_in(tab) == "8-5,6-5"
    same_as_the_server(tab, server)
    assert tab.evaluate("window.menus") == [True]
    # Off the board the page keeps its context menu.
    tab.locator(".game__prompt").click(button="right")
    assert tab.evaluate("window.menus") == [True, False]
    assert asked == [], asked


def test_the_dice_submit_a_complete_move_and_only_then(tab_for: TabMaker, transactional_db: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    who, game = opening(monkeypatch)
    tab = tab_for(1280, who.alice)
    tab.set_viewport_size({"width": 1280, "height": 1300})
    asked = game_tab(tab, game)
    dice = tab.locator("#board-dice-mine")
    before = normalized(tab.evaluate(SNAPSHOT))
    dice.locator("use").first.click()
    assert normalized(tab.evaluate(SNAPSHOT)) == before
    expect(dice).not_to_have_attribute("role", "button")
    tab.get_by_role("link", name="move the checker on 8 by 3 to 5", exact=True).locator(".hit").click()
    dice.locator("use").last.click()  # the 1 still to play: nothing
    assert asked == [], asked
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play").count() == 0
    tab.get_by_role("link", name="move the checker on 6 by 1 to 5", exact=True).locator(".hit").click()
    expect(dice).to_have_attribute("role", "button")
    dice.locator("use").first.click()
    expect(tab.locator(".game__prompt")).to_contain_text("Waiting for bob")
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play").get().notation == "8/5 6/5"


def test_the_dice_pass_a_turn_that_cannot_move(tab_for: TabMaker, transactional_db: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    scene = forced_pass(cast(), monkeypatch)  # two on the bar against a closed board: Submit passes
    tab = tab_for(1280, scene.viewer)
    tab.set_viewport_size({"width": 1280, "height": 1300})
    tab.goto(scene.url)
    dice = tab.locator("#board-dice-mine")
    expect(dice).to_have_attribute("aria-label", "Submit the move (the dice)")
    dice.locator("use").first.click()
    expect(tab.locator(".game__prompt")).to_contain_text("Waiting for bob")
    assert Game.objects.get(pk=scene.game.pk).actions.filter(kind="play").get().notation == ""


def test_every_way_by_keys(tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch,
                          screenshot: Shot) -> None:
    who, game = opening(monkeypatch)
    tab, server = tab_for(1280, who.alice), tab_for(1280, who.alice)
    asked = game_tab(tab, game)

    def checker(origin: int) -> Locator:
        return tab.locator(f"svg.board a.move[data-origin='{origin}']")

    expect(checker(8)).to_have_attribute("aria-describedby", "turn-keys")
    expect(tab.locator("#turn-keys")).to_contain_text("H by the higher die")

    # L: the lower die (the 1, so the dice swap); the moved checker keeps the focus; H: the 3.
    checker(8).focus()
    tab.keyboard.press("l")
    assert steps_in(tab) == "8-7 swap"
    same_as_the_server(tab, server)
    expect(checker(7)).to_be_focused()
    tab.keyboard.press("h")
    assert steps_in(tab) == "8-7,7-4 swap"
    same_as_the_server(tab, server)
    tab.locator(".controls__links").get_by_role("link", name="start the turn again").click()

    # Space picks the checker up, its places marked; Escape puts it back.
    checker(13).focus()
    tab.keyboard.press(" ")
    assert tab.evaluate(MARKS) == [10, 9]  # (Bob holds Alice's 12 point)
    assert tab.evaluate(OVER) == [10]
    tab.keyboard.press("ArrowRight")
    assert tab.evaluate(OVER) == [9]
    tab.keyboard.press("Escape")
    expect(tab.locator("#board-drag")).to_have_count(0)
    expect(checker(13)).to_be_focused()
    assert steps_in(tab) == " swap"

    # Space, the arrows to 20, Enter: both dice; the dice then have the focus and submit.
    checker(24).focus()
    tab.keyboard.press(" ")
    assert tab.evaluate(MARKS) == [23, 21, 20]
    tab.keyboard.press("ArrowLeft")
    assert tab.evaluate(OVER) == [20]
    screenshot(tab, "drag-keys-held")
    tab.keyboard.press("Enter")
    expect(tab.locator(".game__prompt")).to_have_text("Your move is complete: Submit it, or undo a step.")
    same_as_the_server(tab, server)
    assert asked == [], asked
    expect(tab.locator("#board-dice-mine")).to_be_focused()
    screenshot(tab, "drag-keys-dice-focused")
    tab.keyboard.press("Enter")
    expect(tab.locator(".game__prompt")).to_contain_text("Waiting for bob")
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play").get().notation == "24/20"
