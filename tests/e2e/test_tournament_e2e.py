"""A tournament in the browser: a player signs up on the page, the tournament fills and starts,
a game ends, and the open bracket page shows the winner moving on without a reload."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.e2e.conftest import TabMaker
from tests.e2e.scenes import cast
from tests.site.tournament_play import win
from tournaments.models import Tournament, TournamentMatch
from tournaments.tournaments import tournament_create, tournament_join

Shot = Callable[[Page, str], Path]
POLLED = 10_000  # the bracket polls every 4 s


def test_sign_up_fill_start_and_watch_the_winner_move_on(tab_for: TabMaker, transactional_db: None,
                                                         screenshot: Shot) -> None:
    who = cast()
    users = get_user_model().objects
    staff = users.create_user("steward", "steward@example.com", is_staff=True)
    dave = users.create_user("dave", "dave@example.com")
    cup = tournament_create(staff=staff, name="Spring cup", variant="BX", format="single_elimination",
                            size=4, time_limit=timedelta(days=2))
    alice = tab_for(390, who.alice)
    alice.goto("/tournaments/")
    alice.get_by_role("button", name="Sign up for Spring cup").click()
    expect(alice.locator(".messages")).to_contain_text("You signed up for Spring cup.")
    expect(alice.get_by_role("button", name="Withdraw from Spring cup")).to_be_visible()
    screenshot(alice, "tournament-1-signed-up-390")

    for player in (who.bob, who.charlie, dave):
        tournament_join(tournament_id=cup.pk, player=player)
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.RUNNING

    wide = tab_for(1280, who.alice)
    wide.goto(f"/tournaments/{cup.pk}/")
    wide.evaluate("window.stillTheSamePage = true")  # gone if anything reloaded the page
    final = wide.locator(".bracket__round").last.locator(".bracket__match")
    expect(wide.locator(".bracket__round h3").last).to_have_text("Final")
    expect(final.locator(".bracket__player").first).to_have_text("to be decided")
    screenshot(wide, "tournament-2-bracket-1280")

    first = TournamentMatch.objects.get(tournament=cup, round=1, slot=0)
    assert first.player_a == who.alice
    win(first.game, who.alice)
    expect(final.locator(".bracket__player").first).to_have_text("alice", timeout=POLLED)
    expect(wide.locator(".bracket__round").first).to_contain_text("alice won")
    assert wide.evaluate("window.stillTheSamePage") is True
    screenshot(wide, "tournament-3-winner-moved-on-1280")
    alice.goto(f"/tournaments/{cup.pk}/")
    screenshot(alice, "tournament-4-bracket-390")


def test_the_tournament_areas_lists_keep_their_headers_apart_and_names_whole(
    tab_for: TabMaker, transactional_db: None, screenshot: Shot
) -> None:
    """Issue 29, item 19: "Tournament" ran into "Variant" (the game lists' narrow first column) and
    a name wrapped onto three lines. At 1280 px the headers stay apart and a name takes one line;
    at 360 px, a card each, the name takes the card's width and at most two lines."""
    who = cast()
    staff = get_user_model().objects.create_user("steward", "steward@example.com", is_staff=True)
    for name, variant, length in (("Autumn Invitational Open", "BP", 7), ("Nackgammon Winter Classic", "BN", 0),
                                  ("Spring cup", "BX", 0)):
        tournament_create(staff=staff, name=name, variant=variant, format="double_elimination", size=8,
                          time_limit=timedelta(days=2), match_length=length or None)
    for width, height in ((1280, 720), (360, 640)):
        tab = tab_for(width, who.alice, height=height)
        tab.goto("/tournaments/")
        screenshot(tab, f"tournament-area-{width}")
        # Measured in the page in one go: the live region may be swapped for a fresh copy meanwhile.
        lines = tab.get_by_role("link", name="Autumn Invitational Open").evaluate(
            "link => link.getClientRects().length")  # an inline box per line it takes
        assert lines <= (1 if width > 640 else 2), (width, lines)
        if width > 640:
            gap = tab.locator("#area-standard ~ table").first.evaluate(
                "table => { const [first, second] = table.querySelectorAll('th'); const text = document.createRange();"
                " text.selectNodeContents(first); return second.getBoundingClientRect().left"
                " - text.getBoundingClientRect().right; }")
            assert gap >= 0, gap  # "Tournament" ends before "Variant" begins
