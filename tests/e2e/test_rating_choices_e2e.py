"""Edit ratings in a browser: a player makes BP unrated and BX rated by default, and New game's
"Rated game" box follows the variant picked (static/js/rated_default.js) until they tick it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.models import RatingChoice
from tests.e2e.conftest import TabMaker, open_menu


@pytest.fixture
def alice(transactional_db: None) -> Any:
    return get_user_model().objects.create_user("alice", "alice@example.com")


def test_the_rated_box_follows_the_variant_as_chosen_on_edit_ratings(tab_for: TabMaker, alice: Any) -> None:
    tab = tab_for(390, alice)
    tab.goto("/")
    open_menu(tab, "ACCOUNT")
    tab.locator(".menu__items").get_by_role("link", name="Edit ratings").click()
    expect(tab.get_by_role("heading", name="Edit ratings", level=1)).to_be_visible()
    tab.get_by_label("Start new Pro Backgammon games rated").uncheck()
    tab.get_by_role("button", name="Save").click()
    expect(tab.locator(".message--success")).to_contain_text("Your rating choices are saved")
    assert RatingChoice.objects.get(user=alice, variant="BP").rated_by_default is False

    tab.goto("/games/new/")
    rated = tab.get_by_label("Rated game")
    expect(rated).not_to_be_checked()  # BP, the variant shown first
    tab.get_by_label(re.compile(r"Backgammon \(BX\)")).check()
    expect(rated).to_be_checked()
    tab.get_by_label(re.compile(r"Pro Backgammon \(BP\)")).check()
    expect(rated).not_to_be_checked()
    rated.check()  # the player's own tick wins from now on
    tab.get_by_label(re.compile(r"Nackgammon \(BN\)")).check()
    tab.get_by_label(re.compile(r"Pro Backgammon \(BP\)")).check()
    expect(rated).to_be_checked()
