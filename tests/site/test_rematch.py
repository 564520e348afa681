"""A finished live match offers its players a rematch: the same terms and clock, as a challenge."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine import Action, TimeControl
from backgammon.models import Challenge, Game

pytestmark = pytest.mark.django_db

BLITZ_3 = TimeControl.live(8, 90)


def _finished(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, *, live: bool = True) -> Game:
    scripted_dice(monkeypatch).then((3, 1))
    clock = {"time_control": BLITZ_3} if live else {}
    game = start_game(alice, bob, "BP", match_length=3, time_limit=timedelta(days=3), rated=False, **clock)
    game = act(game, alice, Action.resign(3))
    return act(game, bob, Action.accept_resign())


def test_a_player_offers_a_rematch_on_the_same_terms(alice: Any, bob: Any, alice_client: Client,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    game = _finished(alice, bob, monkeypatch)
    page = alice_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert 'id="rematch"' in page
    answer = alice_client.post(reverse("backgammon:game_rematch", args=[game.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse("backgammon:status")
    challenge = Challenge.objects.get(message__startswith="A rematch")
    assert (challenge.challenger, challenge.challenged, challenge.variant, challenge.match_length) == (alice, bob, "BP", 3)
    assert (challenge.live_delay_s, challenge.live_reserve_s, challenge.rated) == (8, 90, False)
    assert challenge.message == f"A rematch of game #{game.pk}?"


def test_no_rematch_button_or_offer_for_a_correspondence_game_or_a_watcher(
        alice: Any, bob: Any, charlie: Any, alice_client: Client, client_for: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _finished(alice, bob, monkeypatch, live=False)
    assert 'id="rematch"' not in alice_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    refused = alice_client.post(reverse("backgammon:game_rematch", args=[game.pk]), follow=True)
    assert "once a live match is over" in refused.content.decode()
    assert not Challenge.objects.filter(message__startswith="A rematch").exists()


def test_a_watcher_cannot_offer_one(alice: Any, bob: Any, charlie: Any, client_for: Any,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    game = _finished(alice, bob, monkeypatch)
    watcher = client_for(charlie)
    assert 'id="rematch"' not in watcher.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert watcher.post(reverse("backgammon:game_rematch", args=[game.pk])).status_code == 403
    assert not Challenge.objects.filter(message__startswith="A rematch").exists()


def test_a_game_in_play_and_a_get_change_nothing(alice: Any, bob: Any, alice_client: Client,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BP", match_length=3, time_limit=timedelta(days=3), time_control=BLITZ_3)
    assert alice_client.get(reverse("backgammon:game_rematch", args=[game.pk])).status_code == 405
    alice_client.post(reverse("backgammon:game_rematch", args=[game.pk]))
    assert not Challenge.objects.filter(message__startswith="A rematch").exists()
