"""The board and the moves box as a player meets them: on a phone the whole board is on the
screen and the cube sits on it; a long game's moves box opens at the latest moves."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from backgammon.engine.actions import Action
from backgammon.engine.plays import legal_plays
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast, money_game
from tests.e2e.test_pages_e2e import DESKTOP, PHONE, sideways_overflow
from tests.site.gamebuilder import act, scripted_dice, start_game

MIN_TARGET_PX = 24  # WCAG 2.5.8


def box(tab: Page, selector: str) -> dict[str, float]:
    found = tab.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def test_on_a_phone_the_cube_is_on_the_board_and_the_home_board_in_view(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = money_game(cast(), monkeypatch)  # Alice to move 6-5, the cube in the middle
    tab = tab_for(PHONE, scene.viewer)
    tab.goto(scene.url)
    expect(tab.locator("svg.board a.move").first).to_be_attached()
    frame, cube = box(tab, "svg.board rect.frame"), box(tab, "svg.board g.cube rect")
    assert frame["x"] <= cube["x"] and cube["x"] + cube["width"] <= frame["x"] + frame["width"]
    assert frame["y"] <= cube["y"] and cube["y"] + cube["height"] <= frame["y"] + frame["height"]
    # The whole board is on the screen: nothing scrolls, the home board's points included
    # (tests/e2e/test_fit_e2e.py checks every size and phase).
    assert sideways_overflow(tab) <= 0
    targets = tab.locator("svg.board a.move rect.hit").evaluate_all(
        "rects => rects.map(r => r.getBoundingClientRect()).map(b => [b.left, b.right, b.width])")
    assert targets and all(0 <= left and right <= PHONE and width >= MIN_TARGET_PX for left, right, width in targets)


def _long_game(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A plain game 32 turns long, each turn the first legal play of a scripted roll."""
    who = cast()
    rolls = [(3, 1), (6, 4), (5, 2), (4, 1), (6, 3), (2, 1), (6, 5), (4, 2)] * 5
    dice = scripted_dice(monkeypatch).then(*rolls)
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    for _ in range(32):
        state = game.state()
        assert state.dice is not None and game.status == "active"
        play = legal_plays(state.position, state.dice)[0]
        player = game.black if state.turn.name == "BLACK" else game.white
        game = act(game, player, Action.play(tuple((m.origin, m.destination) for m in play.moves)))
    assert dice.queue  # every roll was scripted
    return game, who.alice


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_moves_box_opens_at_the_latest_moves(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    game, viewer = _long_game(monkeypatch)
    tab = tab_for(width, viewer)
    tab.goto(f"/games/{game.pk}/")
    scroller = box(tab, ".moves__scroll")
    rows = tab.locator(".moves__scroll tbody tr")
    first, last = rows.first.bounding_box(), rows.last.bounding_box()
    assert first is not None and last is not None
    assert tab.locator(".moves__scroll").evaluate("e => e.scrollHeight > e.clientHeight")  # it does scroll
    assert scroller["y"] <= last["y"] and last["y"] + last["height"] <= scroller["y"] + scroller["height"] + 1
    assert first["y"] < scroller["y"]  # game 1's first moves are above, scrolled out of view
