"""The analysis board in a browser: from a replay step to gnubg's answer (the page polls until
the worker has answered), and a position set up by clicking the points."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from analysis.board_setup import BoardSetup, Tool
from analysis.models import PositionAnalysis
from analysis.position_services import position_analysis_run
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.e2e.test_pages_e2e import PHONE
from tests.e2e.test_replay_e2e import played_out_game
from tests.site.worker_process import wait_for


def test_a_replay_step_opens_on_the_board_and_the_answer_arrives(tab_for: TabMaker, transactional_db: None,
                                                                 screenshot: Any) -> None:
    game = played_out_game()
    tab = tab_for(PHONE, cast().alice)
    tab.goto(f"/games/{game.pk}/replay/?step=2")  # the first play's roll: dice to play
    xgid = tab.locator(".replay__xgid").text_content()
    tab.get_by_role("link", name="Analyse this position").click()
    expect(tab.locator("#board-xgid")).to_have_text(str(xgid))
    expect(tab.get_by_text("Thinking")).to_be_visible()

    def asked() -> bool:
        """the page's request for the analysis"""
        return PositionAnalysis.objects.filter(status="queued").exists()

    wait_for(asked)
    position_analysis_run(PositionAnalysis.objects.get().pk)  # as the worker does
    expect(tab.locator(".board-answer__plays tbody tr").first).to_be_visible(timeout=10_000)
    expect(tab.get_by_text("Thinking")).to_have_count(0)
    expect(tab.get_by_role("link", name="Look deeper: 2-ply")).to_be_visible()
    screenshot(tab, "analysis-board-answer-phone")


def test_a_position_is_set_up_by_clicking_the_points(tab_for: TabMaker, transactional_db: None) -> None:
    tab = tab_for(PHONE, None)
    empty = BoardSetup.empty()
    tab.goto(f"/analysis/board/?xgid={empty.xgid}&tool=black")
    expect(tab.get_by_role("heading", name="Not a position to analyse yet")).to_be_visible()
    for _ in range(2):
        before = tab.locator("#board-xgid").text_content()
        tab.locator('a.move[data-origin="6"]').click()
        expect(tab.locator("#board-xgid")).not_to_have_text(str(before))
    tab.get_by_role("link", name="+ White").click()
    expect(tab.get_by_role("link", name="+ White")).to_have_attribute("aria-current", "true")
    tab.locator('a.move[data-origin="19"]').click()
    two_black = empty.clicked(6, Tool.BLACK).clicked(6, Tool.BLACK)
    expect(tab.locator("#board-xgid")).to_have_text(two_black.clicked(19, Tool.WHITE).xgid)
    expect(tab.get_by_role("link", name="Analyse", exact=True)).to_be_visible()
    tab.go_back()  # every click is in the address: back undoes it
    expect(tab.locator("#board-xgid")).to_have_text(empty.clicked(6, Tool.BLACK).clicked(6, Tool.BLACK).xgid)
