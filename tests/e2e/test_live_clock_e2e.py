"""A live match between two pages: the running clock ticks on both, the opponent's move arrives
and hands the clock over, the last 10 seconds turn red, and the real worker's timeout ends the
match on both pages (issue 31).

The server's dice are scripted (the live server runs in this process, so the patch reaches it).
The start of the match is set in the past with time-machine, before any page is open, so that
bob's reserve is nearly spent when his turn comes and the test waits seconds, not minutes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import Page, expect

from backgammon.engine import Action, TimeControl
from backgammon.models import Game
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.e2e.test_accessibility_e2e import axe_tab, blocking_violations, report  # noqa: F401
from tests.site.gamebuilder import act, scripted_dice, start_game
from tests.site.worker_process import WorkerStarter, start_worker  # noqa: F401

Shot = Callable[[Page, str], Path]
PUSHED = 10_000


def _clock_seconds(tab: Page, side: str) -> float:
    text = tab.locator(f".match-clock--{side} .match-clock__time").inner_text()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + float(seconds)


def test_a_live_match_between_two_pages_ends_on_time(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch,
    start_worker: WorkerStarter, screenshot: Shot,  # noqa: F811
) -> None:
    who = cast()
    start_worker()
    scripted_dice(monkeypatch).then((1, 3), (3, 1))  # bob (White) opens; then alice rolls 3-1
    now = timezone.now()
    with time_machine.travel(now - timedelta(seconds=24), tick=False):
        game = start_game(who.alice, who.bob, "BP", match_length=3, time_control=TimeControl.live(2, 30))
    with time_machine.travel(now - timedelta(seconds=4), tick=False):
        game = act(game, who.bob, Action.play([(8, 5), (6, 5)]))  # 20 s: 18 of them from his reserve
    assert Game.objects.get(pk=game.pk).clock["white_ms"] == 12_000  # type: ignore[index]

    alice, bob = tab_for(1280, who.alice, height=720), tab_for(390, who.bob, height=844)
    bob.goto(f"/games/{game.pk}/")
    alice.goto(f"/games/{game.pk}/")
    expect(bob.locator("body")).to_have_attribute("data-live", "push", timeout=PUSHED)
    # Alice's clock runs on both pages, and ticks.
    for tab in (alice, bob):
        expect(tab.locator(".match-clock--black")).to_have_class(re.compile("match-clock--running"))
    before = _clock_seconds(bob, "black")
    time.sleep(1.5)
    assert _clock_seconds(bob, "black") <= before - 1
    assert _clock_seconds(bob, "white") == 12
    screenshot(bob, "live-clock-1-alice-thinking")

    # Alice rolls: her dice reach bob's page, which asks nothing for them (the event carries
    # them: backgammon/game_region.pushed_roll), and her clock goes on running there.
    asked: list[str] = []
    bob.on("request", lambda request: asked.append(request.url))
    alice.get_by_role("button", name="Roll", exact=True).click()
    expect(alice.locator(".game__prompt")).to_contain_text("You rolled 3-1")
    expect(bob.locator(".game__prompt")).to_have_text("Waiting for alice to move.", timeout=PUSHED)
    expect(bob.locator("#board-dice-theirs use.die-theirs")).to_have_count(2)
    expect(bob.locator("#game")).to_have_class(re.compile("game--move"))
    assert [url for url in asked if f"/games/{game.pk}/" in url] == []
    rolled_at = _clock_seconds(bob, "black")
    time.sleep(1.5)
    assert _clock_seconds(bob, "black") <= rolled_at - 1
    screenshot(bob, "live-clock-1b-alice-rolled")
    # She types her move: it arrives on bob's page, and bob's clock runs there.
    alice.get_by_text("Type the move instead").click()
    alice.get_by_label(re.compile("^Move")).fill("8/5 6/5")
    alice.locator(".controls__typed").get_by_role("button", name="Submit typed move").click()
    expect(bob.locator(".match-clock--white")).to_have_class(re.compile("match-clock--running"), timeout=PUSHED)
    expect(bob.get_by_role("button", name="Roll", exact=True)).to_be_visible()
    expect(alice.locator(".match-clock--white")).to_have_class(re.compile("match-clock--running"), timeout=PUSHED)
    # 12 s of reserve after a 2 s delay: red within a few seconds, on both pages.
    for tab in (bob, alice):
        expect(tab.locator(".match-clock--white")).to_have_class(re.compile("match-clock--warning"), timeout=PUSHED)
    screenshot(bob, "live-clock-2-bob-last-seconds")

    # Bob lets it run out: the worker's timeout reaches both pages.
    for tab in (bob, alice):
        expect(tab.locator(".game__prompt")).to_have_text("alice won: bob ran out of time", timeout=20_000)
    expect(bob.locator(".match-clock--white .match-clock__time")).to_have_text("0:00.0")
    screenshot(bob, "live-clock-3-bob-out-of-time")
    finished = Game.objects.get(pk=game.pk)
    assert (finished.status, finished.winner) == (Game.Status.FINISHED, who.alice)
    timeout = finished.actions.get(kind="timeout")
    assert timeout.created_at - finished.actions.get(number=finished.action_count - 1).created_at < timedelta(
        seconds=2 + 12 + 1
    )


def test_the_live_game_page_and_new_game_have_no_serious_violation(
    axe_tab: Any, transactional_db: None, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, "BP", match_length=5, time_control=TimeControl.live(12, 300))
    found = {}
    for url, width, height in ((f"/games/{game.pk}/", 390, 844), (f"/games/{game.pk}/", 1280, 800),
                               ("/games/new/", 390, 844)):
        tab = axe_tab(who.alice, width, height)
        tab.goto(url)
        violations = blocking_violations(tab)
        if violations:
            found[f"{url} {width}"] = violations
    assert not found, report(found)


def test_each_page_shows_whether_the_opponent_is_here(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch,
) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, "BP", match_length=3, time_control=TimeControl.live(12, 180))
    alice = tab_for(390, who.alice, height=844)
    alice.goto(f"/games/{game.pk}/")
    expect(alice.locator("body")).to_have_attribute("data-live", "push", timeout=PUSHED)
    presence = alice.locator("#opponent-presence")
    expect(presence).to_have_text("bob is away")
    bob = tab_for(390, who.bob, height=844)
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("#opponent-presence")).to_have_text("alice is here")
    expect(presence).to_have_text("bob is here", timeout=PUSHED)  # told when bob's page opened
    bob.close()
    expect(presence).to_have_text("bob is away", timeout=PUSHED)  # and when it closed


def test_a_page_whose_stream_opens_late_still_learns_the_opponent_is_here(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both pages open at once (a Waiting Room join sends both players to the match): bob's page
    says it is here before alice's stream listens, and her stream, once open, tells her so."""
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, "BP", match_length=3, time_control=TimeControl.live(12, 180))
    alice = tab_for(390, who.alice, height=844)
    held: list[Any] = []
    alice.route("**/live/**", lambda route: held.append(route))  # her stream waits for bob
    alice.goto(f"/games/{game.pk}/")
    expect(alice.locator("#opponent-presence")).to_have_text("bob is away")
    bob = tab_for(390, who.bob, height=844)
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("body")).to_have_attribute("data-live", "push", timeout=PUSHED)
    expect(bob.locator("#opponent-presence")).to_have_text("alice is away")
    assert held, "alice's page asked for no stream"
    for route in held:
        route.continue_()
    alice.unroute("**/live/**")
    expect(alice.locator("body")).to_have_attribute("data-live", "push", timeout=PUSHED)
    expect(alice.locator("#opponent-presence")).to_have_text("bob is here", timeout=PUSHED)
    expect(bob.locator("#opponent-presence")).to_have_text("alice is here", timeout=PUSHED)
