"""The waiting room in two browsers: alice puts an open challenge in the room, bob finds it and
joins it, and the game page opens for him; the room reads well on a phone and a desktop."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from backgammon.models import Game
from tests.e2e.conftest import TabMaker, open_menu

Shot = Callable[[Page, str], Path]


@pytest.fixture
def players(transactional_db: None) -> tuple[Any, Any]:
    users = get_user_model().objects
    return users.create_user("alice", "alice@example.com"), users.create_user("bob", "bob@example.com")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_player_joins_an_open_challenge_from_the_waiting_room(
    tab_for: TabMaker, players: tuple[Any, Any], screenshot: Shot, width: int
) -> None:
    alice_user, bob_user = players
    alice = tab_for(width, alice_user)
    bob = tab_for(width, bob_user)

    alice.goto("/")
    open_menu(alice, "PLAY")
    alice.locator(".menu__items").get_by_role("link", name="Waiting Room").click()
    expect(alice.get_by_role("heading", name="Waiting Room", level=1)).to_be_visible()
    alice.get_by_label(re.compile(r"Nackgammon \(BN\)")).check()
    alice.get_by_label(re.compile(r"^Lowest rating")).fill("1000")
    alice.get_by_label(re.compile(r"^Message")).fill("A quick one, anyone?")
    alice.get_by_role("button", name="Put in the waiting room").click()
    expect(alice.locator(".message--success")).to_contain_text("Your open challenge is in the waiting room")
    expect(alice.get_by_role("button", name="Withdraw")).to_be_visible()
    screenshot(alice, f"waiting-room-creator-{width}")

    bob.goto("/games/waiting-room/")
    row = bob.locator("tr", has_text="A quick one, anyone?")
    expect(row).to_contain_text("Nackgammon")
    expect(row.get_by_role("link", name="alice")).to_be_visible()
    screenshot(bob, f"waiting-room-{width}")
    row.get_by_role("button", name="Join").click()

    expect(bob).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert (game.black_id, game.white_id, game.variant) == (alice_user.pk, bob_user.pk, "BN")
    expect(bob.locator(".message--success")).to_contain_text("The game against alice has started")
    alice.goto("/games/waiting-room/")
    expect(alice.locator("#open-challenges")).to_contain_text("(0)")
