"""Watch games: games in progress anyone may watch, and private games. Alice and Bob play; Charlie
watches; Dave and Erin play the other games of the list."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backgammon.models import Game
from backgammon.services import game_abort
from backgammon.services.refusals import Rejected
from backgammon.services.watching import game_set_private, games_to_watch
from tests.site.gamebuilder import scripted_dice, start_game
from tests.site.racing import race

WATCH_URL = reverse("backgammon:watch")


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    scripted_dice(monkeypatch).then((3, 1))
    return start_game(alice, bob, variant="BP", match_length=5)


def listed(client: Client, **query: str) -> list[int]:
    body = client.get(WATCH_URL, query).content.decode()
    return [int(pk) for pk in re.findall(r">Watch #(\d+)</a>", body)]


def flags(game: Game) -> tuple[bool, bool]:
    return Game.objects.filter(pk=game.pk).values_list("private_black", "private_white").get()


def privacy(client: Client, game: Game, wish: str) -> Any:
    return client.post(reverse("backgammon:game_privacy", args=[game.pk]), {"private": wish})


@pytest.mark.django_db
def test_the_list_shows_games_in_progress_with_linked_players_variant_and_score(
    charlie_client: Client, game: Game
) -> None:
    response = charlie_client.get(WATCH_URL)
    assert response.status_code == 200
    body = html.unescape(response.content.decode())
    assert listed(charlie_client) == [game.pk]
    assert f'href="{reverse("people:profile", args=["alice"])}">alice</a>' in body
    assert f'href="{reverse("people:profile", args=["bob"])}">bob</a>' in body
    assert game.variant_name in body and "0–0" in body and "to 5" in body
    assert f'href="{reverse("backgammon:watch")}">Watch games</a>' in body  # in the SPY menu


@pytest.mark.django_db
def test_the_latest_activity_comes_first_and_finished_games_are_not_listed(
    make_user: Any, charlie_client: Client, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    dave, erin = make_user("dave"), make_user("erin")
    scripted_dice(monkeypatch).then((4, 2), (5, 1))
    newer = start_game(dave, erin, variant="BX", match_length=0)
    over = start_game(erin, dave, variant="BX", match_length=0)
    staffer = make_user("staffer")
    staffer.is_staff = True
    staffer.save()
    game_abort(game_id=over.pk, staff=staffer, reason="a test of the list")
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert listed(charlie_client) == [newer.pk, game.pk]


@pytest.mark.django_db
def test_a_player_makes_the_game_private_and_watchers_lose_it(
    alice: Any, alice_client: Client, bob_client: Client, charlie_client: Client, game: Game
) -> None:
    page = alice_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert "Make it private" in page
    response = privacy(alice_client, game, "1")
    assert response.status_code == 302 and flags(game) == (True, False)
    assert listed(charlie_client) == []
    for name in ("game", "game_poll", "game_mat"):
        assert charlie_client.get(reverse(f"backgammon:{name}", args=[game.pk])).status_code == 404, name
    assert charlie_client.get(reverse("analysis:replay", args=[game.pk])).status_code == 404
    acted = charlie_client.post(reverse("backgammon:game_act", args=[game.pk]),
                                {"kind": "roll", "expected_number": game.action_count})
    assert acted.status_code == 404
    # The players still see it, and Bob learns that Alice asked.
    bob_page = html.unescape(bob_client.get(reverse("backgammon:game", args=[game.pk])).content.decode())
    assert "Private: only the two of you can see this game (your opponent asked)" in bob_page
    assert alice_client.get(reverse("backgammon:game_poll", args=[game.pk])).status_code == 200


@pytest.mark.django_db
def test_it_stays_private_while_either_player_wishes_it(
    alice_client: Client, bob_client: Client, charlie_client: Client, game: Game
) -> None:
    privacy(alice_client, game, "1")
    privacy(bob_client, game, "1")
    privacy(bob_client, game, "0")
    assert flags(game) == (True, False) and listed(charlie_client) == []
    privacy(alice_client, game, "0")
    assert flags(game) == (False, False) and listed(charlie_client) == [game.pk]
    assert charlie_client.get(reverse("backgammon:game", args=[game.pk])).status_code == 200


@pytest.mark.django_db
def test_public_games_keep_their_watchers(charlie_client: Client, game: Game) -> None:
    page = html.unescape(charlie_client.get(reverse("backgammon:game", args=[game.pk])).content.decode())
    assert "watching" in page and "Make it private" not in page


@pytest.mark.django_db
def test_bad_privacy_requests_change_nothing(
    alice_client: Client, charlie_client: Client, client: Client, game: Game
) -> None:
    url = reverse("backgammon:game_privacy", args=[game.pk])
    assert alice_client.post(url, {"private": "yes"}).status_code == 400
    assert alice_client.post(url, {}).status_code == 400
    assert alice_client.get(url).status_code == 405
    assert alice_client.post(reverse("backgammon:game_privacy", args=[999_999]), {"private": "1"}).status_code == 404
    assert privacy(charlie_client, game, "1").status_code == 403  # a watcher of a public game
    assert client.post(url, {"private": "1"}).status_code == 302  # to the log-in page
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(game.black)
    assert strict.post(url, {"private": "1"}).status_code == 403
    assert flags(game) == (False, False)


@pytest.mark.django_db
def test_the_service_refuses_outsiders(charlie: Any, alice: Any, game: Game) -> None:
    with pytest.raises(Rejected):
        game_set_private(game_id=game.pk, user=charlie, private=True)
    game_set_private(game_id=game.pk, user=alice, private=True)
    with pytest.raises(Rejected) as refused:
        game_set_private(game_id=game.pk, user=charlie, private=False)
    assert refused.value.kind == "not_found"  # a private game does not exist for outsiders
    assert flags(game) == (True, False)


@pytest.mark.django_db
def test_making_it_private_is_not_activity(alice: Any, game: Game) -> None:
    before = Game.objects.filter(pk=game.pk).values("updated_at", "action_count").get()
    game_set_private(game_id=game.pk, user=alice, private=True)
    assert Game.objects.filter(pk=game.pk).values("updated_at", "action_count").get() == before


@pytest.mark.django_db(transaction=True)
def test_both_players_racing_to_make_it_private_both_count(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BX", match_length=0)
    players = iter([alice, bob])

    def wish() -> str:
        game_set_private(game_id=game.pk, user=next(players), private=True)
        return "done"

    assert race(2, wish) == ["done", "done"]
    assert flags(game) == (True, True)


@pytest.mark.django_db
def test_the_list_is_paginated_and_costs_the_same_few_queries_however_long(
    make_user: Any, charlie_client: Client, monkeypatch: pytest.MonkeyPatch,
    django_assert_max_num_queries: Any,
) -> None:
    players = [make_user(f"player{i}") for i in range(8)]
    dice = scripted_dice(monkeypatch)
    for i in range(30):
        dice.then((3, 1))
        start_game(players[i % 8], players[(i + 1) % 8], variant="BX", match_length=0)
    with django_assert_max_num_queries(12):
        first = listed(charlie_client)
    with django_assert_max_num_queries(12):
        second = listed(charlie_client, page="2")
    assert len(first) == 25 and len(second) == 5 and not set(first) & set(second)
    assert first + second == list(games_to_watch().values_list("pk", flat=True))
    assert listed(charlie_client, page="nonsense") == first  # a bad page number: the first page
    assert listed(charlie_client, page="99") == second  # past the end: the last page
