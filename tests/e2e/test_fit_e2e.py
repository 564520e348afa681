"""The game fits every screen (issue 28, item 1): at each size a player uses, on first load and
with no scrolling in any direction, the whole board and the button for the next thing to do are
inside the window, in every phase of the game, in the replay, a watched game, the tutorial and the analysis board;
points are targets a finger can hit and buttons are at least 44 px square."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from backgammon.engine import Action, TimeControl
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import SCENES, Scene, cast, opening
from tests.e2e.test_replay_e2e import played_out_game
from tests.site.gamebuilder import act, scripted_dice, start_game

Shot = Callable[[Page, str], Path]
SHOTS = bool(os.environ.get("E2E_SCREENSHOTS"))  # forty-odd full-page pictures: only when asked for

SIZES = [(360, 640), (390, 844), (412, 915), (844, 390), (768, 1024), (1280, 720), (1366, 768), (1920, 1080)]
POINT_MIN_W, POINT_MIN_H = 24, 44  # WCAG 2.5.8's 24 px, and the platforms' 44 px for a finger's height
BUTTON_MIN = 44

# What a player is asked to do next, by phase: each must be on the first screen.
NEXT_BUTTONS = ".controls button.button:not(details button), .controls a.button, .controls__links a"

MEASURE = """(nextButtons) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right,
    bottom: r.bottom, width: r.width, height: r.height, name: (e.textContent || e.getAttribute('aria-label') || '').trim()}; };
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const board = document.querySelector('svg.board');
  return {
    width: window.innerWidth, height: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    board: board ? box(board) : null,
    frame: board ? box(board.querySelector('rect.frame')) : null,
    buttons: [...document.querySelectorAll(nextButtons)].filter(visible).map(box),
    points: [...document.querySelectorAll('svg.board a.move rect.hit')].map(box),
    smallestNumber: Math.min(...[...document.querySelectorAll('svg.board .point-number')]
      .map(t => t.getBoundingClientRect().height)),
    mainLeft: (() => { const m = document.querySelector('.site-main'); return m.getBoundingClientRect().left
      + parseFloat(getComputedStyle(m).paddingLeft); })(),
    headerLeft: (() => { const h = document.querySelector('.site-header__inner'); return h.getBoundingClientRect().left
      + parseFloat(getComputedStyle(h).paddingLeft); })(),
  };
}"""


def complete_move(who: Any, mp: pytest.MonkeyPatch) -> Scene:
    """Alice has built her whole opening 3-1 (8/5 6/5): Submit and undo are next."""
    scene = opening(who, mp)
    scene.query = "?steps=8-5,6-5"
    return scene


def check_fit(tab: Page, where: str, *, buttons_expected: bool, game_page: bool = True) -> dict[str, Any]:
    seen = tab.evaluate(MEASURE, NEXT_BUTTONS)
    width, height = seen["width"], seen["height"]
    assert seen["scrollWidth"] <= width, (where, "scrolls sideways", seen["scrollWidth"])
    board = seen["board"]
    assert board is not None, where
    assert board["left"] >= -0.5 and board["right"] <= width + 0.5, (where, "board", board)
    assert board["top"] >= -0.5 and board["bottom"] <= height + 0.5, (where, "board", board)
    if buttons_expected:
        assert seen["buttons"], (where, "no button for the next thing to do")
    for button in seen["buttons"]:
        assert button["left"] >= 0 and button["right"] <= width + 0.5, (where, button)
        assert button["top"] >= 0 and button["bottom"] <= height + 0.5, (where, "below the fold", button)
        assert button["width"] >= BUTTON_MIN - 0.5 and button["height"] >= BUTTON_MIN - 0.5, (where, button)
    for point in seen["points"]:
        assert point["width"] >= POINT_MIN_W and point["height"] >= POINT_MIN_H, (where, point)
    # Point numbers stay legible: at least 10 px tall even on a phone.
    assert seen["smallestNumber"] >= 10, (where, seen["smallestNumber"])
    if game_page:  # the game's content column starts where the header's does
        assert abs(seen["mainLeft"] - seen["headerLeft"]) <= 1, (where, seen["mainLeft"], seen["headerLeft"])
    return seen


def live_complete_move(who: Any, mp: pytest.MonkeyPatch) -> Scene:
    """A live match to 3 (60 s delay, 10 minutes' reserve): Alice has built her opening 3-1 with her
    turn's delay still counting, so the clocks' line, the opponent's presence and the delay are all
    shown above the board, and Submit is next."""
    scripted_dice(mp).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BP", match_length=3, time_control=TimeControl.live(60, 600))
    return Scene(game, who.alice, "?steps=8-5,6-5")


def live_roll_or_double(who: Any, mp: pytest.MonkeyPatch) -> Scene:
    """The same live match after a turn each: Alice to roll or double, her delay counting."""
    scene = live_complete_move(who, mp)
    dice = scripted_dice(mp).then((6, 4))
    game = act(scene.game, who.alice, Action.play(((8, 5), (6, 5))))
    game = act(game, who.bob, Action.roll(1, 1))
    game = act(game, who.bob, Action.play(((24, 18), (13, 9))))
    assert dice.queue == []
    return Scene(game, who.alice)


LIVE_SCENES = {"live-complete-move": live_complete_move, "live-roll-or-double": live_roll_or_double}
GAME_SCENES = {**SCENES, "complete-move": complete_move, **LIVE_SCENES}
WAITING = {"finished-game", "finished-match", "race-waiting", "spectator"}  # nothing for the viewer to press


@pytest.mark.parametrize("name", sorted(GAME_SCENES))
def test_each_phase_of_the_game_fits_every_screen(name: str, tab_for: TabMaker, transactional_db: None,
                                                  monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    scene = GAME_SCENES[name](cast(), monkeypatch)
    tab = tab_for(SIZES[0][0], scene.viewer, SIZES[0][1])
    for width, height in SIZES:
        tab.set_viewport_size({"width": width, "height": height})
        tab.goto(scene.url)
        expect(tab.locator("svg.board")).to_be_visible()
        if SHOTS:
            screenshot(tab, f"fit-{name}-{width}x{height}")
        if name in LIVE_SCENES:  # the clocks' line is there at its fullest, the delay counting
            expect(tab.locator(".match-clock__delay")).to_have_text(re.compile(r"delay \d+ s"))
            expect(tab.locator("#opponent-presence")).to_be_visible()
        check_fit(tab, f"{name} {width}x{height}", buttons_expected=name not in WAITING)


def test_the_replay_the_tutorial_and_the_analysis_board_fit_every_screen(tab_for: TabMaker, transactional_db: None,
                                                      screenshot: Shot) -> None:
    game = played_out_game()
    tab = tab_for(SIZES[0][0], cast().alice, SIZES[0][1])
    for width, height in SIZES:
        tab.set_viewport_size({"width": width, "height": height})
        for where, url in (("replay", f"/games/{game.pk}/replay/?step=3"), ("tutorial", "/help/tutorial/1/"),
                           ("analysis board", "/analysis/board/")):
            tab.goto(url)
            expect(tab.locator("svg.board")).to_be_visible()
            if SHOTS:
                screenshot(tab, f"fit-{where}-{width}x{height}")
            check_fit(tab, f"{where} {width}x{height}", buttons_expected=False, game_page=False)


def test_a_long_forms_button_is_on_the_first_screen(tab_for: TabMaker, transactional_db: None,
                                                   screenshot: Shot) -> None:
    """New game, Auto-Match, the notice settings, a new message and the board settings (below their
    preview on a phone) are long forms: their button stays in the window while the fields scroll
    by, at every size, and pressing it there sends the form."""
    alice = cast().alice
    tab = tab_for(SIZES[0][0], alice, SIZES[0][1])
    for width, height in SIZES:
        tab.set_viewport_size({"width": width, "height": height})
        for where, url, name in (("new game", "/games/new/", "Send challenge"),
                                 ("auto-match", "/games/auto-match/", "Find me games"),
                                 ("notice settings", "/notices/settings/", "Save"), ("message", "/messages/new/", "Send"),
                                 ("board settings", "/accounts/boards/", "Save")):
            tab.goto(url)
            button = tab.get_by_role("button", name=name)
            box = button.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (where, width, height, box)
            if SHOTS:
                screenshot(tab, f"fit-{where}-{width}x{height}")
    tab.set_viewport_size({"width": 360, "height": 640})
    tab.goto("/games/new/")
    tab.get_by_role("button", name="Send challenge").click()  # nothing covers it: the form is sent
    expect(tab.locator(".errorlist").first).to_be_visible()  # and says the opponent is missing
    tab.goto("/games/auto-match/")
    tab.get_by_role("button", name="Find me games").click()
    expect(tab.get_by_role("button", name="Cancel request")).to_be_visible()
    # The board settings' bar is fixed at the foot of a phone's screen: the page leaves room for
    # it, so the last choice scrolls clear of it, and Save pressed on the first screen saves.
    tab.goto("/accounts/boards/")
    tab.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = tab.locator(".boards__form input").last.bounding_box()
    bar = tab.locator(".boards__form .actions").bounding_box()
    assert last is not None and bar is not None and last["y"] + last["height"] <= bar["y"], (last, bar)
    tab.evaluate("window.scrollTo(0, 0)")
    tab.get_by_label("Tournament green").check()
    tab.get_by_role("button", name="Save").click()
    tab.goto("/accounts/boards/")
    expect(tab.get_by_label("Tournament green")).to_be_checked()


def test_the_phone_header_is_one_bar_and_its_menus_one_sheet(tab_for: TabMaker, transactional_db: None,
                                                             monkeypatch: pytest.MonkeyPatch, screenshot: Shot) -> None:
    scene = opening(cast(), monkeypatch)
    tab = tab_for(390, scene.viewer, 844)
    tab.goto(scene.url)
    header = tab.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 56, header
    play, talk = tab.locator("#play-chip"), tab.locator("#talk-chip")
    expect(play).to_be_visible()
    expect(play).to_contain_text("1")  # Alice's game waits for her
    expect(talk).to_be_visible()
    expect(tab.get_by_role("navigation", name="Main")).to_be_hidden()
    toggle = tab.get_by_role("button", name="Menu")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    sheet = tab.get_by_role("navigation", name="Main")
    expect(sheet).to_be_visible()
    # Every menu is open in the sheet: their items are all there at once.
    for item in ("Game status", "My messages", "Ladder area", "Edit user profile", "Rules"):
        expect(sheet.get_by_role("link", name=item, exact=False).first).to_be_visible()
    screenshot(tab, "phone-menu-sheet")
    tab.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    # On a desktop the bar keeps its five menus and no Menu button.
    tab.set_viewport_size({"width": 1280, "height": 720})
    expect(tab.get_by_role("navigation", name="Main")).to_be_visible()
    expect(toggle).to_be_hidden()
    expect(play).to_be_hidden()


@pytest.mark.parametrize("who", ["player", "visitor"])
def test_no_page_of_the_menu_scrolls_sideways_or_has_small_targets_on_a_360_px_phone(who: str, tab_for: TabMaker, transactional_db: None,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    user = opening(cast(), monkeypatch).viewer if who == "player" else None  # a game, so the lists have rows
    tab = tab_for(360, user, 640)
    tab.goto("/")
    links = tab.locator(".site-header a[href^='/']").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    wide, tiny = {}, {}
    for href in dict.fromkeys(["/", *links]):
        tab.goto(href)
        overflow = tab.evaluate("""() => { const w = window.innerWidth;
          return {scroll: document.documentElement.scrollWidth - w,
                  culprits: [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > w + 1)
                    .slice(0, 3).map(e => e.tagName + '.' + e.className)}; }""")
        if overflow["scroll"] > 0:
            wide[href] = overflow
        small = tab.evaluate(SMALL_TARGETS)
        if small:
            tiny[href] = small
    assert not wide, wide
    assert not tiny, tiny


# Buttons at least 44 x 44 px, check boxes and radio buttons at least 24 x 24 (WCAG 2.5.8), on the
# page's visible controls (the header's are measured where they show: the bar, or the open sheet).
SMALL_TARGETS = """() => {
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const small = (e, least) => { const r = e.getBoundingClientRect(); return r.width < least - .5 || r.height < least - .5; };
  const name = (e) => e.tagName + ' ' + (e.textContent || e.value || e.name || '').trim().slice(0, 30) + ' '
    + Math.round(e.getBoundingClientRect().width) + 'x' + Math.round(e.getBoundingClientRect().height);
  const buttons = [...document.querySelectorAll('main button, main .button, main input[type=submit]')]
    .filter(seen).filter(e => small(e, 44)).map(name);
  const boxes = [...document.querySelectorAll('main input[type=checkbox], main input[type=radio]')]
    .filter(seen).filter(e => small(e, 24)).map(name);
  return [...buttons, ...boxes].slice(0, 5);
}"""
