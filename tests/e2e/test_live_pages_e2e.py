"""Live pages in a browser (issue 28, item 4): the Waiting Room, the main screen and a finished
game's analysis panel change by themselves when something happens elsewhere, without a reload,
within 2 seconds; a burst of changes makes each open page ask once per spread, not once each.

The live server is the ASGI one with the real Redis channel layer (tests/e2e/asgi_server.py);
the changes are made through the services, as another player's request or the worker would.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, Request, expect

from analysis.models import GameAnalysis
from analysis.services import analysis_run
from backgammon.engine import Action, TimeControl
from backgammon.services import challenge_create, open_challenge_create, open_challenge_withdraw
from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.site.gamebuilder import act, scripted_dice, start_game
from tests.site.test_analysis import finish_a_short_game

Shot = Callable[[Page, str], Path]
DAY = timedelta(days=1)
WITHIN_MS = 2_000  # issue 28: pushed within 2 seconds of the change
# Waited for a little longer, so that a slow moment of a busy test machine reports the delay
# measured rather than a timeout; the delay itself is asserted.
WAITED_MS = 6_000


def pushed(tab: Page) -> None:
    """The page's stream said hello: a change from now on is pushed to it."""
    expect(tab.locator("body")).to_have_attribute("data-live", "push", timeout=10_000)
    tab.evaluate("window.stillTheSamePage = true")  # gone if anything reloads the page


def seconds_until(check: Callable[[], None]) -> float:
    started = time.monotonic()
    check()
    return time.monotonic() - started


def test_the_waiting_room_shows_a_new_challenge_and_loses_a_withdrawn_one(
    tab_for: TabMaker, transactional_db: None, screenshot: Shot
) -> None:
    who = cast()
    bob = tab_for(1280, who.bob)
    bob.goto("/games/waiting-room/")
    pushed(bob)

    challenge = open_challenge_create(challenger=who.alice, variant="BX", time_limit=DAY, message="Anyone?")
    row = bob.locator(f"#open-challenge-{challenge.pk}")
    appeared = seconds_until(lambda: expect(row).to_contain_text("Anyone?", timeout=WAITED_MS))
    expect(row.get_by_role("button", name="Join")).to_be_visible()
    screenshot(bob, "live-waiting-room-new-challenge")
    open_challenge_withdraw(challenge_id=challenge.pk, actor=who.alice)
    gone = seconds_until(lambda: expect(row).to_have_count(0, timeout=WAITED_MS))
    expect(bob.locator("#open-challenges")).to_contain_text("(0)")
    assert bob.evaluate("window.stillTheSamePage") is True
    print(f"\nwaiting room: a new challenge shown after {appeared:.2f} s, a withdrawn one gone after {gone:.2f} s")
    assert appeared * 1000 < WITHIN_MS and gone * 1000 < WITHIN_MS


def test_a_burst_of_challenges_makes_the_waiting_room_ask_once_per_spread(
    tab_for: TabMaker, transactional_db: None
) -> None:
    who = cast()
    bob = tab_for(1280, who.bob)
    bob.goto("/games/waiting-room/")
    pushed(bob)
    asked: list[float] = []

    def on_request(request: Request) -> None:
        if "/games/waiting-room/" in request.url and request.headers.get("hx-request"):
            asked.append(time.monotonic())

    bob.on("request", on_request)
    bob.wait_for_timeout(500)  # the hello's catch-up request is over
    asked.clear()
    started = time.monotonic()
    made = [open_challenge_create(challenger=who.alice, variant=variant, time_limit=DAY)
            for variant in ("BX", "BN", "BA", "BO", "B9")]
    for challenge in made:
        expect(bob.locator(f"#open-challenge-{challenge.pk}")).to_be_visible(timeout=WAITED_MS)
    bob.wait_for_timeout(1_500)
    # Five changes in a moment: one request, or two if it straddled a spread (1 s here), never five.
    assert 1 <= len(asked) <= 2, [round(at - started, 2) for at in asked]


def test_the_main_screen_shows_a_challenge_that_came(tab_for: TabMaker, transactional_db: None,
                                                      screenshot: Shot) -> None:
    who = cast()
    charlie = tab_for(1280, who.charlie)
    charlie.goto("/")
    expect(charlie.locator("#challenges-to-me")).to_contain_text("(0)")
    pushed(charlie)
    challenge_create(challenger=who.alice, opponent="charlie", variant="BX", time_limit=DAY)
    came = seconds_until(lambda: expect(charlie.locator("#challenges-to-me")).to_contain_text(
        "(1)", timeout=WAITED_MS))
    expect(charlie.locator(".main-screen .challenges")).to_contain_text("alice")
    assert charlie.evaluate("window.stillTheSamePage") is True
    screenshot(charlie, "live-main-screen-challenge")
    print(f"\nmain screen: a challenge shown after {came:.2f} s")
    assert came * 1000 < WITHIN_MS


def test_the_analysis_panel_shows_queued_then_ready_without_a_reload(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Shot
) -> None:
    who = cast()
    game = finish_a_short_game(who.alice, who.bob, monkeypatch)
    bob = tab_for(1280, who.bob)
    bob.goto(f"/games/{game.pk}/")
    pushed(bob)
    panel = bob.locator("#analysis")
    panel.get_by_role("button", name="Analyse this game").click()
    expect(panel).to_contain_text("Waiting for the worker")  # the panel stays (it used to vanish)
    screenshot(bob, "live-analysis-queued")
    analysis_run(GameAnalysis.objects.get(game=game).pk)  # what the worker does
    ready = seconds_until(lambda: expect(panel).to_contain_text("The analysis is ready.", timeout=WAITED_MS))
    expect(panel.get_by_role("link", name="Replay the game")).to_be_visible()
    assert bob.evaluate("window.stillTheSamePage") is True
    screenshot(bob, "live-analysis-ready")
    print(f"\nanalysis panel: ready shown {ready:.2f} s after the analysis finished")
    assert ready * 1000 < WITHIN_MS


def test_a_watchers_page_says_the_game_is_private_once_a_player_makes_it_so(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Shot
) -> None:
    """Issue 29, items 5 and 18: the watcher's stream hears "private" last, and the page, asked
    again, is the site's own 404 saying the game is private (or does not exist)."""
    from backgammon.services.watching import game_set_private
    from tests.e2e.scenes import spectator

    who = cast()
    scene = spectator(who, monkeypatch)
    charlie = tab_for(360, who.charlie, height=640)
    charlie.goto(f"/games/{scene.game.pk}/")
    pushed(charlie)
    game_set_private(game_id=scene.game.pk, user=who.bob, private=True)
    heading = charlie.get_by_role("heading", level=1)
    expect(heading).to_have_text(f"Game #{scene.game.pk} is private or does not exist", timeout=WAITED_MS)
    screenshot(charlie, "private-game-404-360")


@pytest.mark.parametrize("width,height", [(360, 640), (844, 390), (1280, 720)])
def test_a_page_away_from_a_live_match_says_when_the_turn_comes_back(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Shot,
    width: int, height: int,
) -> None:
    """Alice moved and went to read the help while bob thinks: his move starts her clock, and the
    page she is on says so, in sight, with the way back to the match."""
    who = cast()
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(who.alice, who.bob, "BP", match_length=3, time_control=TimeControl.live(12, 180))
    game = act(game, who.alice, Action.play(((8, 5), (6, 5))))
    alice = tab_for(width, who.alice, height=height)
    alice.goto("/help/")
    pushed(alice)
    banner = alice.locator("#live-turn")
    expect(banner).to_be_hidden()
    game = act(game, who.bob, Action.roll(1, 1))  # the roll alone leaves bob's turn going on
    game = act(game, who.bob, Action.play(((24, 22), (13, 9))))
    expect(banner).to_be_visible(timeout=WAITED_MS)
    expect(banner).to_contain_text("Your turn against bob in your live match: your clock is running.")
    seen = banner.bounding_box()
    assert seen is not None and 0 <= seen["y"] and seen["y"] + seen["height"] <= height, seen
    # The window as she sees it (a whole-page shot would put the fixed banner elsewhere).
    shown = screenshot(alice, f"live-turn-banner-{width}")
    alice.screenshot(path=str(shown.with_name(f"live-turn-banner-{width}-window.png")))
    banner.get_by_role("button", name="Later").click()
    expect(banner).to_be_hidden()
    game = act(game, who.alice, Action.double())  # from a page of her own elsewhere: bob decides now
    bob = tab_for(width, who.bob, height=height)
    bob.goto(f"/games/{game.pk}/")
    pushed(bob)
    game = act(game, who.bob, Action.take())  # alice rolls next: her banner again
    expect(banner).to_be_visible(timeout=WAITED_MS)
    banner.get_by_role("link", name="Go to the match").click()
    expect(alice).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(alice.locator("#game .game__prompt--yours")).to_be_visible()
    expect(alice.locator("#live-turn")).to_be_hidden()
    expect(bob.locator("#live-turn")).to_be_hidden()  # on the match's own page: never
    alice.goto("/help/")  # off she goes on her own turn: the page she opens says so at once
    expect(alice.locator("#live-turn")).to_be_visible(timeout=WAITED_MS)
