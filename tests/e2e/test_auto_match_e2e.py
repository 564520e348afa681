"""Auto-match in two browsers: alice and bob ask for compatible games, the site pairs them, and
the game appears on both players' Game status pages."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from backgammon.models import Game
from tests.e2e.conftest import TabMaker

Shot = Callable[[Page, str], Path]


@pytest.fixture
def players(transactional_db: None) -> tuple[Any, Any]:
    users = get_user_model().objects
    return users.create_user("alice", "alice@example.com"), users.create_user("bob", "bob@example.com")


def ask(tab: Page, variants: list[str], limits: list[str], rated: str) -> None:
    tab.goto("/games/auto-match/")
    for box in tab.locator('input[name="variants"]').all():
        box.uncheck()
    for box in tab.locator('input[name="time_limits"]').all():
        box.uncheck()
    for variant in variants:
        tab.get_by_label(re.compile(rf"\({variant}\)$")).check()
    for limit in limits:
        tab.get_by_label(limit, exact=True).check()
    tab.get_by_label(rated, exact=True).check()
    tab.get_by_role("button", name=re.compile("Find me games|Save request")).click()


@pytest.mark.parametrize("width", [1280, 390])
def test_two_compatible_requests_are_paired_and_the_game_shows_for_both(
    tab_for: TabMaker, players: tuple[Any, Any], screenshot: Shot, width: int
) -> None:
    alice_user, bob_user = players
    alice = tab_for(width, alice_user)
    bob = tab_for(width, bob_user)

    ask(alice, ["BX", "BP"], ["1 day", "3 days"], "Rated or unrated")
    expect(alice.locator(".message--success")).to_contain_text("we will pair you soon")
    expect(alice.locator("#my-request")).to_contain_text("Open")
    screenshot(alice, f"auto-match-waiting-{width}")

    ask(bob, ["BP"], ["3 days"], "Rated only")
    expect(bob.locator(".message--success")).to_contain_text("filled: 1 of 1 games started")
    game = Game.objects.get()
    assert (game.black_id, game.white_id, game.variant, game.rated) == (alice_user.pk, bob_user.pk, "BP", True)
    expect(bob.locator(".auto-games")).to_contain_text(f"#{game.pk}")
    screenshot(bob, f"auto-match-paired-{width}")

    for tab in (alice, bob):
        tab.goto("/games/")
        expect(tab.locator("#status-lists")).to_contain_text(f"#{game.pk}")
    alice.goto("/games/auto-match/")
    expect(alice.locator("#my-request")).to_contain_text("Filled")
