"""Accessibility (issue 28, item 7): axe-core, the npm package the suite installs (package.json),
injected into each page by the browser finds no serious or critical violation on any page of the
menu (as a player and as a visitor), on the game page in each phase, in the replay and in the
tutorial. The board reads the position in words, and the keyboard focus is always visible."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import SCENES, cast
from tests.e2e.test_replay_e2e import played_out_game

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
DESKTOP_TOO = {"opening", "take-or-drop", "resign-offer", "finished-match", "spectator"}

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
}"""


@pytest.fixture
def axe_tab(tab_for: TabMaker) -> Any:
    """axe_tab(user=None, width=1280, height=800) -> a tab with axe-core loaded into every page it
    opens (an init script, not a <script> tag: the site's Content-Security-Policy refuses those)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make test`, which installs the npm packages (npm ci).")

    def make(user: Any = None, width: int = 1280, height: int = 800) -> Page:
        return tab_for(width, user, height, init_script=AXE)

    return make


def blocking_violations(tab: Page) -> list[dict[str, Any]]:
    tab.wait_for_load_state("load")
    return [v for v in tab.evaluate(RUN_AXE) if v["impact"] in BLOCKING]


def report(found: dict[str, list[dict[str, Any]]]) -> str:
    return "\n".join(f"{where}: {v['impact']} {v['id']} ({v['help']}): {' | '.join(v['nodes'])}"
                     for where, violations in found.items() for v in violations)


def menu_links(tab: Page) -> list[str]:
    """Every page the menus (and the phone bar's counts) lead to, once each, in menu order."""
    hrefs = tab.locator(".site-header a[href^='/']").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    return list(dict.fromkeys(h for h in hrefs if not h.startswith("/#")))


@pytest.mark.parametrize("who", ["player", "visitor"])
def test_no_page_of_the_menu_has_a_serious_violation(who: str, axe_tab: Any, transactional_db: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    user = None
    if who == "player":
        scene = SCENES["opening"](cast(), monkeypatch)  # a game waiting for Alice, so the lists have rows
        user = scene.viewer
    tab = axe_tab(user)
    tab.goto("/")
    found = {}
    for href in ["/", *menu_links(tab)]:
        tab.goto(href)
        violations = blocking_violations(tab)
        if violations:
            found[href] = violations
    assert not found, report(found)


def test_no_phase_of_the_game_page_has_a_serious_violation(axe_tab: Any, transactional_db: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    found = {}
    for name, build in SCENES.items():
        with monkeypatch.context() as patches:
            scene = build(cast(), patches)
            # Every phase on a phone; a few on a desktop too (the same markup, laid out otherwise).
            for width, height in ((390, 844), *(((1280, 800),) if name in DESKTOP_TOO else ())):
                tab = axe_tab(scene.viewer, width, height)
                tab.goto(scene.url)
                violations = blocking_violations(tab)
                if violations:
                    found[f"{name} {width}"] = violations
    assert not found, report(found)


def test_the_replay_and_the_tutorial_have_no_serious_violation(axe_tab: Any, transactional_db: None) -> None:
    game = played_out_game()
    tab = axe_tab(cast().alice)
    found = {}
    # The finished game's own page too: its long moves list scrolls in a box of its own.
    for url in (f"/games/{game.pk}/replay/?step=3", f"/games/{game.pk}/", "/help/tutorial/", "/help/tutorial/1/",
                "/help/tutorial/1/?steps=8-5,6-5"):
        tab.goto(url)
        violations = blocking_violations(tab)
        if violations:
            found[url] = violations
    assert not found, report(found)


def test_the_board_reads_the_position_and_focus_is_visible(axe_tab: Any, transactional_db: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    scene = SCENES["opening"](cast(), monkeypatch)
    tab = axe_tab(scene.viewer)
    tab.goto(scene.url)
    board = tab.locator("svg.board")
    expect(board).to_have_attribute("role", "group")  # not "img": its checkers are links
    described = board.evaluate("b => document.getElementById(b.getAttribute('aria-describedby')).textContent")
    assert "2 on 24, 5 on 13, 3 on 8, 5 on 6" in described
    # Every element the keyboard reaches on the way to the board shows an outline (or the board's
    # own focus ring on a checker).
    for _ in range(40):
        tab.keyboard.press("Tab")
        focus = tab.evaluate("""() => { const e = document.activeElement; const s = getComputedStyle(e);
          const hit = e.querySelector && e.querySelector('.hit'); const ring = hit ? getComputedStyle(hit) : null;
          return {tag: e.tagName, outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
                  ring: !!ring && ring.strokeWidth !== '0px' && ring.stroke !== 'none'}; }""")
        if focus["tag"] == "BODY":
            continue
        assert focus["outline"] or focus["ring"], focus
