"""The replay page as a player meets it: the arrow keys step through the match, the board
follows, the chart of winning chances is there, and the page fits a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from analysis.services import analysis_request, analysis_run
from backgammon.engine.actions import Action
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.e2e.test_pages_e2e import DESKTOP, PHONE, sideways_overflow
from tests.site.gamebuilder import act, start_game


def played_out_game() -> Any:
    """A whole game of plain backgammon, each turn the first legal play, analysed."""
    who = cast()
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    while game.status == "active":
        state = game.state()
        play = state.legal_plays()[0]
        player = game.black if state.turn.name == "BLACK" else game.white
        game = act(game, player, Action.play(tuple((m.origin, m.destination) for m in play.moves)))
    analysis = analysis_request(game_id=game.pk, user=who.alice)
    assert analysis_run(analysis.pk)
    return game


def press(tab: Page, key: str) -> None:
    tab.wait_for_load_state("load")  # the step's own script listens for keys once loaded
    tab.keyboard.press(key)


def board_words(tab: Page) -> str:
    return str(tab.locator("svg.board desc").first.text_content())


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_arrow_keys_step_through_the_match_with_the_board_and_chart(
    tab_for: TabMaker, transactional_db: None, screenshot: Any, width: int
) -> None:
    game = played_out_game()
    tab = tab_for(width, cast().alice)
    tab.goto(f"/games/{game.pk}/replay/")
    expect(tab.locator("#replay-step")).to_have_text("0")
    expect(tab.locator("svg.replay__chart polyline.chart__line")).to_have_count(1)
    assert tab.locator("svg.replay__chart circle.chart__point").count() > 10
    start_board = board_words(tab)
    press(tab, "ArrowRight")
    expect(tab).to_have_url(re.compile(r"\?step=1$"))
    expect(tab.locator("#replay-step")).to_have_text("1")
    assert board_words(tab) != start_board
    press(tab, "ArrowRight")
    expect(tab.locator("#replay-step")).to_have_text("2")
    press(tab, "ArrowLeft")
    expect(tab.locator("#replay-step")).to_have_text("1")
    expect(tab.locator(".replay__verdict")).to_contain_text("Equity lost")
    screenshot(tab, f"replay-{width}")
    assert sideways_overflow(tab) <= 0
    press(tab, "End")
    expect(tab.locator(".replay__doing")).to_have_text("The final position.")
    press(tab, "Home")
    expect(tab.locator("#replay-step")).to_have_text("0")
