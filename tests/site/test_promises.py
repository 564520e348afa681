"""The pages promise only what the site does (issue 6, item 17). E-mail notices exist since issue
9 (the notices app): a player's pages link to their settings, and the link works. Ratings are kept since issue 8 (tournaments.ratings), so pages may
now speak of rated games and ratings."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

NOTICES = re.compile(r"notice|notif|e-?mail you", re.IGNORECASE)


def test_the_sign_up_page_promises_no_turn_notices(client: Client) -> None:
    page = client.get(reverse("accounts:signup")).content.decode()
    assert "E-mail" in page and not NOTICES.search(page)


def test_the_notices_the_profile_page_offers_exist(alice_client: Client) -> None:
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    assert f'href="{reverse("notices:settings")}">Notices</a>' in page
    assert alice_client.get(reverse("notices:settings")).status_code == 200
