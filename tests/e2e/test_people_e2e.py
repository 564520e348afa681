"""The people pages in a browser: a profile's buttons work, and every people page fits a phone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import Profile, Relation
from accounts.relations import relation_set
from tests.e2e.conftest import TabMaker

pytestmark = pytest.mark.e2e
Shot = Callable[[Page, str], Path]


@pytest.fixture
def people(transactional_db: None) -> tuple[Any, Any]:
    """alice, and bob with a filled-in profile, here just now."""
    User = get_user_model()
    alice = User.objects.create_user(username="alice", password="x-long-enough-1")
    bob = User.objects.create_user(username="bob", password="x-long-enough-1")
    Profile.objects.filter(user=bob).update(
        bio="Backgammon since 1979.\nSlow at weekends.", country="NZ", time_zone="Pacific/Auckland",
        last_seen=timezone.now(),
    )
    return alice, bob


def test_add_a_buddy_from_a_profile_and_see_them_on_the_buddy_list(tab_for: TabMaker,
                                                                   people: tuple[Any, Any]) -> None:
    alice, bob = people
    tab = tab_for(1280, alice)
    tab.goto("/players/bob/")
    expect(tab.get_by_role("heading", level=1)).to_contain_text("bob")
    tab.get_by_role("button", name="Add buddy").click()
    expect(tab.get_by_role("button", name="Remove buddy")).to_be_visible()
    assert Relation.objects.filter(owner=alice, other=bob, kind="buddy").exists()
    tab.goto("/accounts/buddies/")
    expect(tab.locator(".people-list")).to_contain_text("online now")


@pytest.mark.parametrize("width", [390, 1280])
def test_the_people_pages_fit_the_screen(tab_for: TabMaker, people: tuple[Any, Any], screenshot: Shot,
                                         width: int) -> None:
    alice = people[0]
    relation_set(owner=alice, username="bob", kind="buddy")
    tab = tab_for(width, alice)
    for path, name in (("/players/bob/", "profile"), ("/players/?q=b", "search"),
                       ("/players/here/", "here"), ("/accounts/buddies/", "buddies"),
                       ("/accounts/ignored/", "ignored"), ("/accounts/profile/", "edit-profile")):
        tab.goto(path)
        screenshot(tab, f"people-{name}-{width}")
        overflow = int(tab.evaluate("document.documentElement.scrollWidth - window.innerWidth"))
        assert overflow <= 0, (path, overflow)
