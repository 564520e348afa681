"""Live Auto-Match in two browsers (issue 31): alice asks for a live Rapid match and waits on the
Auto-Match page; bob asks for any live clock, is paired at once and lands on the match; alice's
waiting page notices within seconds and takes her there. Both pages show the two clocks, the
clock of the opening roll's winner running."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from backgammon.engine import TimeControl
from backgammon.models import Game
from tests.e2e.conftest import TabMaker
from tests.e2e.test_accessibility_e2e import axe_tab, blocking_violations, report  # noqa: F401

Shot = Callable[[Page, str], Path]


@pytest.fixture
def players(transactional_db: None) -> tuple[Any, Any]:
    users = get_user_model().objects
    return users.create_user("alice", "alice@example.com"), users.create_user("bob", "bob@example.com")


def ask_live(tab: Page, clock: str) -> None:
    tab.goto("/games/auto-match/")
    for box in tab.locator('input[name="variants"], input[name="time_limits"], input[name="live_clocks"]').all():
        box.uncheck()
    tab.get_by_label(re.compile(r"\(BP\)$")).check()
    tab.get_by_label(re.compile(rf"^\s*{clock}")).check()
    tab.get_by_role("button", name=re.compile("Find me games|Save request")).click()


def test_two_players_auto_matched_live_land_on_the_match_with_its_clocks(
    tab_for: TabMaker, players: tuple[Any, Any], screenshot: Shot
) -> None:
    alice_user, bob_user = players
    alice, bob = tab_for(1280, alice_user, height=720), tab_for(390, bob_user, height=844)

    ask_live(alice, "Rapid")
    expect(alice.locator("#my-request")).to_contain_text("Open")
    expect(alice.locator(".auto-request__waiting")).to_contain_text("Waiting for a live opponent who is here")
    screenshot(alice, "live-auto-match-waiting")

    ask_live(bob, "Any live clock")
    game = Game.objects.get()
    assert (game.black_id, game.white_id) == (alice_user.pk, bob_user.pk)
    assert game.time_control() == TimeControl.live(12, 300)  # Rapid for BP's 5 points
    page = re.compile(rf"/games/{game.pk}/$")
    expect(bob).to_have_url(page)
    expect(alice).to_have_url(page, timeout=10_000)  # her page asks every 3 s
    # The opening roll's winner moves first: their clock runs (its delay first), the other waits.
    running = game.clock["running"]  # type: ignore[index]
    waiting = "white" if running == "black" else "black"
    for tab in (alice, bob):
        expect(tab.locator(f".match-clock--{running}")).to_have_class(re.compile("match-clock--running"))
        expect(tab.locator(f".match-clock--{waiting}")).not_to_have_class(re.compile("match-clock--running"))
        expect(tab.locator(f".match-clock--{waiting} .match-clock__time")).to_have_text("5:00")
    screenshot(alice, "live-auto-match-alice-on-the-match")
    screenshot(bob, "live-auto-match-bob-on-the-match")


def test_the_live_tab_and_a_waiting_live_request_have_no_serious_violation(
    axe_tab: Any, players: tuple[Any, Any]  # noqa: F811
) -> None:
    from backgammon.services import auto_match_set, open_challenge_create

    alice_user, bob_user = players
    open_challenge_create(challenger=alice_user, variant="BP", time_limit=timedelta(days=1),
                          time_control=TimeControl.live(12, 300))
    auto_match_set(player=bob_user, variants=["BN"], time_limits=[], rated="either", max_games=1,
                   live_presets=["blitz"])
    found = {}
    for width, height in ((390, 844), (1280, 800)):
        tab = axe_tab(bob_user, width, height)
        for url in ("/games/waiting-room/live/", "/games/auto-match/"):
            tab.goto(url)
            expect(tab.locator("h1")).to_be_visible()
            found[f"{url} at {width}"] = blocking_violations(tab)
    assert not any(found.values()), report(found)


def test_a_live_offer_joined_from_the_live_tab_opens_the_match_on_both_pages(
    tab_for: TabMaker, players: tuple[Any, Any], screenshot: Shot
) -> None:
    alice_user, bob_user = players
    alice, bob = tab_for(1280, alice_user, height=720), tab_for(390, bob_user, height=844)
    alice.goto("/games/waiting-room/live/")
    alice.locator('input[name="clock"][value="blitz"]').check()
    alice.get_by_role("button", name="Put in the waiting room").click()
    expect(alice.locator("#open-challenges")).to_contain_text("Live now (1)")
    expect(alice.locator("body")).to_have_attribute("data-live", "push", timeout=10_000)

    bob.goto("/games/waiting-room/live/")
    expect(bob.locator("#open-challenges-live")).to_contain_text("8 s + 2 min 30 s")
    screenshot(bob, "live-tab-an-offer")
    bob.get_by_role("button", name="Join").click()
    game = Game.objects.get()
    assert game.time_control() == TimeControl.live(8, 150)
    page = re.compile(rf"/games/{game.pk}/$")
    expect(bob).to_have_url(page)
    expect(alice).to_have_url(page, timeout=10_000)  # the pushed "changed" takes her there
    for tab in (alice, bob):
        expect(tab.locator(".match-clock--black")).to_be_visible()
