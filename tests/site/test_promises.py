"""The pages promise only what the site does (issue 6, item 17): no turn notices by e-mail (they
arrive with a later issue). Ratings are kept since issue 8 (tournaments.ratings), so pages may
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


def test_the_profile_page_promises_no_turn_notices(alice_client: Client) -> None:
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    assert "E-mail" in page and not NOTICES.search(page)
