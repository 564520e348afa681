"""A finished live match offers its players a rematch: the same terms and clock, as a challenge."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401
from racing import race

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
    assert answer.status_code == 302 and answer["Location"] == reverse("backgammon:game", args=[game.pk])
    challenge = Challenge.objects.get(message__startswith="A rematch")
    assert challenge.rematch_of == game
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
    assert alice_client.get(reverse("backgammon:game_rematch", args=[game.pk])).status_code == 404
    alice_client.post(reverse("backgammon:game_rematch", args=[game.pk]))
    assert not Challenge.objects.filter(message__startswith="A rematch").exists()
    finished = _finished(alice, bob, monkeypatch)
    asked = alice_client.get(reverse("backgammon:game_rematch", args=[finished.pk]))  # a plain GET: to the page
    assert asked.status_code == 302 and asked["Location"] == reverse("backgammon:game", args=[finished.pk])
    assert not Challenge.objects.filter(message__startswith="A rematch").exists()


def _slot(client: Client, game: Game) -> Any:
    """The game page's rematch slot as htmx asks for it again at a "status" event."""
    return client.get(reverse("backgammon:game_rematch", args=[game.pk]), HTTP_HX_REQUEST="true")


def test_the_opponent_sees_the_offer_and_pressing_rematch_accepts_it(
        alice: Any, bob: Any, alice_client: Client, client_for: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both players pressing Rematch play one new match: the second press accepts the first's
    offer rather than crossing it with a challenge of its own. The slot says where it stands to
    each, and takes the waiting player to the rematch once it has started."""
    game = _finished(alice, bob, monkeypatch)
    bob_client = client_for(bob)
    page = reverse("backgammon:game", args=[game.pk])
    alice_client.post(reverse("backgammon:game_rematch", args=[game.pk]))
    assert "Rematch offered: waiting for bob to answer" in alice_client.get(page).content.decode()
    assert "Rematch offered: waiting for bob" in _slot(alice_client, game).content.decode()
    offered = bob_client.get(page).content.decode()
    assert "Accept the rematch" in offered and "offers a rematch" in offered
    assert "Accept the rematch" in _slot(bob_client, game).content.decode()

    accepted = bob_client.post(reverse("backgammon:game_rematch", args=[game.pk]))
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert accepted.status_code == 302 and accepted["Location"] == reverse("backgammon:game", args=[rematch.pk])
    assert (rematch.black, rematch.white, rematch.match_length, rematch.rated) == (alice, bob, 3, False)
    assert rematch.time_control() == BLITZ_3 and rematch.is_active
    assert list(Challenge.objects.filter(rematch_of=game).values_list("status", flat=True)) == [Challenge.Status.ACCEPTED]
    assert _slot(alice_client, game)["HX-Redirect"] == reverse("backgammon:game", args=[rematch.pk])
    assert f'href="/games/{rematch.pk}/"' in alice_client.get(page).content.decode()  # "Play the rematch"


def test_an_offer_that_lapsed_is_not_accepted_by_the_other_press(
        alice: Any, bob: Any, alice_client: Client, client_for: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _finished(alice, bob, monkeypatch)
    alice_client.post(reverse("backgammon:game_rematch", args=[game.pk]))
    Challenge.objects.update(created_at=F("created_at") - timedelta(minutes=3))
    bob_client = client_for(bob)
    assert "Accept the rematch" not in _slot(bob_client, game).content.decode()
    bob_client.post(reverse("backgammon:game_rematch", args=[game.pk]))
    assert not Game.objects.exclude(pk=game.pk).exists()  # bob's own offer, to alice, instead
    assert Challenge.objects.get(challenger=bob).rematch_of == game


@pytest.mark.django_db(transaction=True)
def test_both_pressing_rematch_at_once_start_one_match(alice: Any, bob: Any, client_for: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    game = _finished(alice, bob, monkeypatch)
    presses = iter([alice, bob])

    def attempt() -> str:
        answer = client_for(next(presses)).post(reverse("backgammon:game_rematch", args=[game.pk]))
        return str(answer.status_code)

    assert race(2, attempt) == ["302", "302"]
    assert Game.objects.exclude(pk=game.pk).count() == 1
    assert list(Challenge.objects.filter(rematch_of=game).values_list("status", flat=True)) == [Challenge.Status.ACCEPTED]
