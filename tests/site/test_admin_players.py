"""The admin's player pages: the account with its profile inline, editable by operators."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from membership.periods import membership_extend

pytestmark = pytest.mark.django_db


def test_a_players_admin_page_shows_the_profile_inline(admin_client: Client, alice: Any) -> None:
    page = admin_client.get(reverse("admin:auth_user_change", args=[alice.pk])).content.decode()
    assert 'name="profile-0-checker_colours"' in page
    assert "alice" in page


def test_players_are_listed_with_their_last_login(admin_client: Client, alice: Any, bob: Any) -> None:
    page = admin_client.get(reverse("admin:auth_user_changelist"), {"q": "ali"}).content.decode()
    assert "Last login" in page
    assert f"/admin/auth/user/{alice.pk}/change/" in page
    assert f"/admin/auth/user/{bob.pk}/change/" not in page


def test_players_cannot_open_the_admin(alice_client: Client) -> None:
    response = alice_client.get(reverse("admin:auth_user_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_the_profiles_list_shows_and_filters_membership(admin_client: Client, alice: Any, bob: Any) -> None:
    membership_extend(user=alice, staff=None, days=30, reason="a prize")
    page = admin_client.get(reverse("admin:accounts_profile_changelist"), {"member": "yes"}).content.decode()
    assert "Member until" in page and "Last seen" in page
    assert f"/admin/accounts/profile/{alice.profile.pk}/change/" in page
    assert f"/admin/accounts/profile/{bob.profile.pk}/change/" not in page
