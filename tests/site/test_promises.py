"""The pages promise only what the site does (issue 6, item 17): no turn notices by e-mail, and
no "rated" game while nothing keeps a rating (both arrive with later issues)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.services import challenge_create

pytestmark = pytest.mark.django_db

NOTICES = re.compile(r"notice|notif|e-?mail you", re.IGNORECASE)
RATED = re.compile(r"\brated\b|\bunrated\b|\brating", re.IGNORECASE)


def test_the_sign_up_page_promises_no_turn_notices(client: Client) -> None:
    page = client.get(reverse("accounts:signup")).content.decode()
    assert "E-mail" in page and not NOTICES.search(page)


def test_the_profile_page_promises_no_turn_notices(alice_client: Client) -> None:
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    assert "E-mail" in page and not NOTICES.search(page)


def test_the_new_game_form_offers_no_rated_game(alice_client: Client) -> None:
    page = alice_client.get(reverse("backgammon:new_game")).content.decode()
    assert "Time limit per move" in page and not RATED.search(page)


def test_a_challenge_is_not_called_rated_or_unrated(alice_client: Client, bob_client: Client,
                                                     alice: Any, bob: Any) -> None:
    challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=1))
    for client in (alice_client, bob_client):
        page = client.get(reverse("backgammon:status")).content.decode()
        assert "1 day per move" in page and not RATED.search(page)
