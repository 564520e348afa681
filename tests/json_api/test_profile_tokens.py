"""The profile page lists the player's API tokens, creates one (shown once) and revokes one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from api.models import ApiToken
from api.tokens import token_create

pytestmark = pytest.mark.django_db


def test_the_profile_lists_my_tokens_only(alice: Any, bob: Any, alice_client: Client) -> None:
    token_create(user=alice, name="phone app")
    token_create(user=bob, name="bob's bot")
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    assert "API tokens" in page and "phone app" in page and "Never" in page
    assert "bob&#x27;s bot" not in page and "bob's bot" not in page


def test_creating_a_token_shows_it_once(alice: Any, alice_client: Client) -> None:
    response = alice_client.post(reverse("api_token_create"), {"name": "my bot"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    secret = re.search(r'id="new-token" class="token-secret" value="([^"]+)"', response.content.decode())
    assert secret is not None
    token = ApiToken.objects.get(user=alice)
    assert token.name == "my bot" and secret.group(1) not in token.token_hash
    api = Client()
    assert api.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {secret.group(1)}").json() == {"username": "alice", "membership": {"member": False, "until": None}}
    assert secret.group(1) not in alice_client.get(reverse("accounts:profile")).content.decode()


def test_creating_needs_csrf(alice: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(reverse("api_token_create"), {"name": "x"}).status_code == 403
    assert not ApiToken.objects.exists()


def test_a_name_too_long_is_refused(alice: Any, alice_client: Client) -> None:
    response = alice_client.post(reverse("api_token_create"), {"name": "x" * 101}, follow=True)
    assert "A token&#x27;s name can be at most 100 characters" in response.content.decode()
    assert not ApiToken.objects.exists()


def test_revoking_a_token(alice: Any, alice_client: Client) -> None:
    token, secret = token_create(user=alice, name="old bot")
    response = alice_client.post(reverse("api_token_revoke", args=[token.pk]), follow=True)
    page = response.content.decode()
    assert "is revoked" in page and "old bot" in page.split("is revoked")[0]
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 401
    assert "You have no API tokens." in alice_client.get(reverse("accounts:profile")).content.decode()


def test_nobody_revokes_another_player_s_token(bob: Any, alice_client: Client) -> None:
    token, _ = token_create(user=bob, name="bob's bot")
    response = alice_client.post(reverse("api_token_revoke", args=[token.pk]), follow=True)
    assert "There is no such token of yours" in response.content.decode()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_revoking_needs_a_post(alice: Any, alice_client: Client) -> None:
    token, _ = token_create(user=alice, name="bot")
    assert alice_client.get(reverse("api_token_revoke", args=[token.pk])).status_code == 405
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
