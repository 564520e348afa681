"""A live game's page tells each player whether the opponent has the game's page open (the
opponent's listening mark, kept while their page's live stream is open)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine import TimeControl
from backgammon.listening import listening_key

pytestmark = pytest.mark.django_db


def _page(client: Client, game: Any) -> str:
    return client.get(reverse("backgammon:game", args=[game.pk])).content.decode()


def test_the_opponent_is_here_while_their_page_of_the_game_is_open(
        alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BP", match_length=3, time_limit=timedelta(days=3),
                      time_control=TimeControl.live(12, 180))
    cache.delete(listening_key(bob.pk, game.pk))
    assert ">bob is away</p>" in _page(alice_client, game)
    cache.set(listening_key(bob.pk, game.pk), 1, 90)
    try:
        assert ">bob is here</p>" in _page(alice_client, game)
        cache.set(listening_key(bob.pk), 1, 90)  # another page of bob's says nothing of this game
        cache.delete(listening_key(bob.pk, game.pk))
        assert ">bob is away</p>" in _page(alice_client, game)
    finally:
        cache.delete_many([listening_key(bob.pk, game.pk), listening_key(bob.pk)])


def test_no_presence_by_correspondence_or_for_a_watcher(alice: Any, bob: Any, charlie: Any, alice_client: Client,
                                                         client_for: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_dice(monkeypatch).then((3, 1), (3, 1))
    mail = start_game(alice, bob, "BP", match_length=3, time_limit=timedelta(days=3))
    assert 'id="opponent-presence"' not in _page(alice_client, mail)
    live = start_game(alice, charlie, "BP", match_length=3, time_limit=timedelta(days=3),
                      time_control=TimeControl.live(12, 180))
    assert 'id="opponent-presence"' not in _page(client_for(bob), live)


def test_a_computer_opponent_is_always_here(alice: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """It answers within the delay and opens no page: never shown as away."""
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from bots.accounts import create_bot_accounts
    from bots.models import Bot

    create_bot_accounts(get_user_model(), Profile, Bot)
    computer = get_user_model().objects.get(username="gnubg-easy")
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, computer, "BP", match_length=3, time_limit=timedelta(days=3),
                      time_control=TimeControl.live(12, 180))
    cache.delete(listening_key(computer.pk, game.pk))
    assert ">gnubg-easy is here</p>" in _page(alice_client, game)
