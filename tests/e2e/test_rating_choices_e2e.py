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


@pytest.mark.parametrize(("width", "height"), [(360, 640), (844, 390), (1280, 720)])
def test_become_a_member_shows_the_plans_and_the_pay_button_on_the_first_screen(
    tab_for: TabMaker, alice: Any, settings: Any, width: int, height: int
) -> None:
    from tests.e2e.test_fit_e2e import SMALL_TARGETS

    settings.STRIPE_SECRET_KEY, settings.STRIPE_WEBHOOK_SECRET = "sk_test_page", "whsec_page"
    settings.STRIPE_PRICE_MONTHLY, settings.STRIPE_PRICE_SINGLE = "price_m", "price_s"
    settings.MEMBERSHIP_PRICE_MONTHLY_TEXT = "€3 a month"
    tab = tab_for(width, alice, height)
    tab.goto("/membership/")
    expect(tab.get_by_text("€3 a month")).to_be_visible()
    pay = tab.get_by_role("button", name="Pay with Stripe")
    expect(pay).to_be_in_viewport(ratio=1)  # whole, without scrolling: the Pay bar stays in reach
    assert tab.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert tab.evaluate(SMALL_TARGETS) == []
