"""Ratings change once when a rated match ends, in the transaction that ends it (through the
game services, as players and staff end games); never for money play, unrated or aborted games,
or a BA draw."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from gamebuilder import act, fast_passwords, scripted_dice, start_game, starting_from  # noqa: F401

from accounts.models import Profile
from backgammon.engine.actions import Action
from backgammon.engine.board import PerSide
from backgammon.models import Game
from backgammon.services import game_abort, game_adjudicate
from bots.accounts import create_bot_accounts
from bots.models import Bot
from tests.site.racing import race
from tournaments.models import Rating, RatingChange
from tournaments.ratings import rating_apply, rating_of, ratings_of

pytestmark = pytest.mark.django_db


def resigned(game: Game, loser: Any, winner: Any) -> Game:
    """``loser`` offers a single game at their turn and ``winner`` accepts: the game ends."""
    game = act(game, loser, Action.resign(1))
    return act(game, winner, Action.accept_resign())


def loser_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Black (the challenger) wins the opening roll, so black is the first to act."""
    scripted_dice(monkeypatch).then((3, 1))


def test_a_rated_single_game_moves_both_ratings_once(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    loser_first(monkeypatch)
    game = resigned(start_game(alice, bob, "BX"), alice, bob)
    assert game.status == "finished" and game.winner == bob
    # Two new players, n = 1: 4·5·1·0.5 = 10.
    assert rating_of(bob, "BX") == pytest.approx(1510.0)
    assert rating_of(alice, "BX") == pytest.approx(1490.0)
    assert ratings_of(bob)["BX"] == (pytest.approx(1510.0), 1)
    assert ratings_of(bob)["BP"] == (1500.0, 0)
    changes = RatingChange.objects.filter(game=game).order_by("change")
    assert [(c.player, round(c.change, 2), c.rating_before, c.experience_before, c.match_length)
            for c in changes] == [(alice, -10.0, 1500.0, 0, 1), (bob, 10.0, 1500.0, 0, 1)]
    # The signal heard again (a repeated delivery) changes nothing.
    assert rating_apply(game=game, how="played") is False
    assert RatingChange.objects.count() == 2
    assert rating_of(bob, "BX") == pytest.approx(1510.0)


def test_a_match_uses_its_length_and_experience_grows_by_it(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    loser_first(monkeypatch)
    starting_from(monkeypatch, score=PerSide(0, 2))  # white (bob) needs one point of 3
    game = resigned(start_game(alice, bob, "BP", match_length=3), alice, bob)
    assert game.status == "finished" and game.winner == bob
    assert ratings_of(bob)["BP"] == (pytest.approx(1517.32, abs=0.005), 3)
    assert ratings_of(alice)["BP"] == (pytest.approx(1482.68, abs=0.005), 3)
    assert rating_of(bob, "BX") == 1500.0


def test_experience_lowers_k_for_the_next_match(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    Rating.objects.create(player=alice, variant="BX", rating=1500.0, experience=400)
    Rating.objects.create(player=bob, variant="BX", rating=1500.0, experience=400)
    loser_first(monkeypatch)
    resigned(start_game(alice, bob, "BX"), alice, bob)
    assert ratings_of(bob)["BX"] == (pytest.approx(1502.0), 401)
    assert ratings_of(alice)["BX"] == (pytest.approx(1498.0), 401)


def test_unrated_and_money_games_change_nothing(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (3, 1))
    unrated = resigned(start_game(alice, bob, "BX", rated=False), alice, bob)
    money = resigned(start_game(alice, bob, "MP", rated=True), alice, bob)
    assert unrated.status == money.status == "finished"
    assert unrated.winner == money.winner == bob
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert ratings_of(bob) == {code: (1500.0, 0) for code in ("BX", "BP", "BA", "BN", "BR", "BS", "BO", "B9")}


def test_an_aborted_game_changes_nothing_and_an_adjudicated_one_counts(
    alice: Any, bob: Any, admin_user: Any
) -> None:
    aborted, adjudicated = start_game(alice, bob, "BX"), start_game(alice, bob, "BN")
    game_abort(game_id=aborted.pk, staff=admin_user, reason="Both asked")
    game_adjudicate(game_id=adjudicated.pk, staff=admin_user, winner=alice, reason="Bob left")
    assert rating_of(alice, "BX") == rating_of(bob, "BX") == 1500.0
    assert rating_of(alice, "BN") == pytest.approx(1510.0)
    assert rating_of(bob, "BN") == pytest.approx(1490.0)
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {adjudicated.pk}


def test_a_ba_draw_changes_nothing(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    loser_first(monkeypatch)
    starting_from(monkeypatch, moves_played=PerSide(500, 500))  # the next play is the 500th each
    game = start_game(alice, bob, "BA")
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert game.status == "finished" and game.winner is None
    assert "draw" in game.result
    assert not RatingChange.objects.exists()
    assert rating_of(alice, "BA") == rating_of(bob, "BA") == 1500.0


def test_games_against_a_bot_are_rated_like_any_other(alice: Any, admin_user: Any) -> None:
    create_bot_accounts(get_user_model(), Profile, Bot)
    bot = get_user_model().objects.get(username="gnubg-easy")
    game = start_game(alice, bot, "BX")
    game_adjudicate(game_id=game.pk, staff=admin_user, winner=bot, reason="Alice left")
    assert rating_of(bot, "BX") == pytest.approx(1510.0)
    assert rating_of(alice, "BX") == pytest.approx(1490.0)


@pytest.fixture
def both_offered(alice: Any, bob: Any, charlie: Any,
                 monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Game, Game]]:
    """Two games in which alice has offered to resign: bob and charlie can end them at once.
    Alice's rating row exists already, so only its lock keeps the two from both reading 1500."""
    Rating.objects.create(player=alice, variant="BX")
    scripted_dice(monkeypatch).then((3, 1), (3, 1))
    first = act(start_game(alice, bob, "BX"), alice, Action.resign(1))
    second = act(start_game(alice, charlie, "BX"), alice, Action.resign(1))
    yield first, second


@pytest.mark.django_db(transaction=True)
def test_two_matches_of_one_player_ending_at_once_both_count(
    alice: Any, bob: Any, charlie: Any, both_offered: tuple[Game, Game]
) -> None:
    assert connection.vendor == "postgresql"
    first, second = both_offered
    pending = [(first, bob), (second, charlie)]

    def accept() -> str:
        game, winner = pending.pop()
        act(game, winner, Action.accept_resign())
        return "accepted"

    assert race(2, accept) == ["accepted", "accepted"]
    assert Game.objects.filter(status="finished").count() == 2
    assert ratings_of(alice)["BX"][1] == 2  # both matches counted: no lost update
    history = list(RatingChange.objects.filter(player=alice).order_by("pk"))
    assert len(history) == 2
    # The second change started from where the first left alice, whichever came first.
    assert history[1].rating_before == pytest.approx(history[0].rating_after)
    assert history[1].experience_before == 1
    assert rating_of(alice, "BX") == pytest.approx(history[1].rating_after)
    # 1500 − 10, then 1490 losing to a new 1500 (the favourite won): K 4.99 · 4 · P_upset(D = 10).
    assert rating_of(alice, "BX") == pytest.approx(1490.0 - 4.99 * 4 / (10 ** (10 / 2000) + 1))
