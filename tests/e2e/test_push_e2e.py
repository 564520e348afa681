"""Live updates by push in two browsers (issue 10, item 3): a move reaches the other open page
within a second, pushed over the page's event stream; with the stream blocked the page polls
by itself, backing off while nothing changes, and goes back to push when the stream returns.

The live server is the ASGI one (tests/e2e/asgi_server.py) with the real Redis channel layer.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect

from backgammon.engine import TimeControl
from backgammon.engine.actions import Action
from backgammon.models import Game
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.site.gamebuilder import act, scripted_dice, start_game

Shot = Callable[[Page, str], Path]
PUSHED_MS = 1_000  # issue 10: every open page learns of a change within a second
LIVE_STREAM = "**/live/**"


def shows_action(tab: Page, number: int) -> None:
    """The page's game region is the one built after ``number`` actions."""
    expect(tab.locator(".game__poll")).to_have_attribute("hx-get", re.compile(rf"\?n={number}$"),
                                                         timeout=PUSHED_MS)


def region_requests(tab: Page) -> list[float]:
    """When the tab asked for its game region (by push or by poll), in seconds."""
    asked: list[float] = []

    def on_request(request: Request) -> None:
        if "/poll/" in request.url:
            asked.append(time.monotonic())

    tab.on("request", on_request)
    return asked


def test_a_move_is_pushed_to_the_other_players_page_within_a_second(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Shot
) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)  # alice to play 3-1
    url = f"/games/{game.pk}/"
    alice, bob, charlie = tab_for(1280, who.alice), tab_for(390, who.bob), tab_for(1280, who.charlie)
    bob_asked, alice_asked = region_requests(bob), region_requests(alice)
    charlie_asked: list[str] = []
    charlie.on("request", lambda request: charlie_asked.append(request.url) if "/poll/" in request.url else None)
    bob.goto(url)
    charlie.goto(url)  # watching
    alice.goto(f"{url}?steps=8-5,6-5")
    for tab in (alice, bob, charlie):
        expect(tab.locator("body")).to_have_attribute("data-live", "push")
    alice.wait_for_timeout(500)  # the catch-up look each page takes when its stream says hello
    alice_before, bob_before = len(alice_asked), len(bob_asked)

    # Alice submits on her page; Bob's page has it within a second of Alice's page showing it,
    # pushed whole: his page asks for nothing.
    alice.get_by_role("button", name="Submit", exact=True).click()
    expect(alice.locator(".game__prompt")).to_contain_text("bob", ignore_case=True)
    after_alice = Game.objects.get(pk=game.pk).action_count
    shows_action(bob, after_alice)
    expect(bob.get_by_role("button", name="Submit")).to_have_count(0)  # his turn, nothing chosen
    assert len(bob_asked) == bob_before, bob_asked
    # A watcher's page is told the count and asks, saying what it heard of (the server then reads
    # the game once, whole).
    shows_action(charlie, after_alice)
    assert any(re.search(rf"/poll/\?n=\d+&heard={after_alice}$", asked) for asked in charlie_asked), charlie_asked
    screenshot(bob, "push-1-bob-sees-alices-move-phone")
    # Alice's page heard of her own move too, but its answer already showed it: it asks nothing.
    alice.wait_for_timeout(1_000)
    assert len(alice_asked) == alice_before, alice_asked

    # Bob plays on the region he was pushed (its forms post with the page's CSRF token, sent by
    # htmx in a header): Alice's page follows.
    bob.get_by_role("link", name="move the checker on 8 by 4 to 4", exact=True).locator(".hit").click()
    bob.get_by_role("link", name="move the checker on 6 by 2 to 4", exact=True).locator(".hit").click()
    bob.get_by_role("button", name="Submit", exact=True).click()
    expect(bob.locator(".game__prompt")).to_contain_text("alice", ignore_case=True)
    assert Game.objects.get(pk=game.pk).actions.filter(kind="play").last().notation == "8/4 6/4"
    shows_action(alice, Game.objects.get(pk=game.pk).action_count)
    screenshot(alice, "push-2-alice-sees-bobs-move")

    # A page waiting for push asks for nothing by itself.
    quiet_before = len(bob_asked)
    time.sleep(4.5)
    assert len(bob_asked) == quiet_before


def test_the_plain_forms_of_a_pushed_region_are_sent_with_the_pages_token(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pushed region is drawn with no request, so its forms carry no CSRF field: htmx's send the
    page's token in a header, and the plain ones (Make it private, Rematch) take it as they are
    sent (static/js/live.js), rather than being refused."""
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)  # alice to play 3-1
    bob = tab_for(390, who.bob)
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("body")).to_have_attribute("data-live", "push")
    bob.wait_for_timeout(500)  # the catch-up look the page takes when its stream says hello
    game = act(game, who.alice, Action.play([(8, 5), (6, 5)]))
    shows_action(bob, game.action_count)
    assert bob.locator("form.privacy input[name=csrfmiddlewaretoken]").count() == 0  # pushed, not fetched
    bob.get_by_role("button", name="Make it private").click()
    expect(bob.locator(".privacy")).to_contain_text("Private: only the two of you can see this game")
    assert Game.objects.get(pk=game.pk).private_white

    live = start_game(who.alice, who.bob, "BP", match_length=3, time_control=TimeControl.live(8, 90))
    bob.goto(f"/games/{live.pk}/")
    expect(bob.locator("body")).to_have_attribute("data-live", "push")
    bob.wait_for_timeout(500)
    resigner = live.actor
    live = act(live, resigner, Action.resign(3))
    act(live, who.bob if resigner == who.alice else who.alice, Action.accept_resign())
    alice = tab_for(390, who.alice)
    alice.goto(f"/games/{live.pk}/")
    expect(alice.locator("body")).to_have_attribute("data-live", "push")
    alice.wait_for_timeout(500)
    bob.get_by_role("button", name="Rematch").click()
    expect(bob.get_by_text(re.compile("Rematch offered to alice"))).to_be_visible()
    # Alice's open page hears of the offer and accepts it with the same button; bob's page, waiting
    # for her answer, goes to the new match by itself.
    expect(bob.locator("#rematch-slot")).to_contain_text("waiting for alice")
    expect(alice.locator("#rematch-slot")).to_contain_text("bob offers a rematch")
    alice.get_by_role("button", name="Accept the rematch").click()
    rematch = Game.objects.exclude(pk__in=[game.pk, live.pk]).get()
    expect(alice).to_have_url(re.compile(rf"/games/{rematch.pk}/$"))
    expect(bob).to_have_url(re.compile(rf"/games/{rematch.pk}/$"))
    assert Game.objects.filter(status=Game.Status.ACTIVE, live_reserve_s=90).count() == 1


def test_with_the_stream_blocked_the_page_polls_with_back_off_then_returns_to_push(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    who = cast()
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    bob = tab_for(1280, who.bob)

    def refuse(route: Route) -> Any:
        return route.abort()

    bob.route(LIVE_STREAM, refuse)
    bob_asked = region_requests(bob)
    bob.goto(f"/games/{game.pk}/")
    expect(bob.locator("body")).to_have_attribute("data-live", "polling")

    game = act(game, who.alice, Action.play(((8, 5), (6, 5))))
    expect(bob.locator(".game__poll")).to_have_attribute(
        "hx-get", re.compile(rf"\?n={game.action_count}$"), timeout=8_000
    )
    # Nothing changes now: each poll waits longer than the one before (2 s, 4 s, 8 s ...).
    seen = len(bob_asked)
    deadline = time.monotonic() + 25
    while len(bob_asked) < seen + 3 and time.monotonic() < deadline:
        bob.wait_for_timeout(250)
    first_gap, second_gap = (b - a for a, b in zip(bob_asked[seen:seen + 3], bob_asked[seen + 1:seen + 3]))
    assert second_gap > 1.5 * first_gap, bob_asked

    # The stream comes back: the page returns to push, and a move arrives within a second.
    bob.unroute(LIVE_STREAM, refuse)
    expect(bob.locator("body")).to_have_attribute("data-live", "push", timeout=30_000)
    act(game, who.bob, Action.play(((8, 4), (6, 4))))
    shows_action(bob, Game.objects.get(pk=game.pk).action_count)
