"""Ladder and tournament games say so, with a link to their ladder or tournament: on the game
page (the rules line of the game region) and in Game status's lists, at no query per row; and a
player's own tournament match offers "Play" on the tournament page, where others read "Watch
game". Alice and Bob meet on the ladder; Carol, Dave, Erin and Finn play the cup."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from gamebuilder import start_game

from backgammon.competitions import competition_keys
from backgammon.models import Game
from backgammon.services import challenge_accept
from tournaments.ladders import ladder_challenge, ladder_create, ladder_join
from tournaments.models import Ladder, LadderRung, Tournament, TournamentMatch
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db


@pytest.fixture
def steward(make_user: Any) -> Any:
    staff = make_user("steward")
    staff.is_staff = True
    staff.save()
    return staff


@pytest.fixture
def ladder(steward: Any) -> Ladder:
    return ladder_create(staff=steward, name="Open ladder", variant="BX", match_length=None,
                         time_limit=timedelta(days=2))


def ladder_game(ladder: Ladder, challenger: Any, defender: Any) -> Game:
    for player in (defender, challenger):
        if not LadderRung.objects.filter(ladder=ladder, player=player).exists():
            ladder_join(ladder_id=ladder.pk, player=player)
    challenge = ladder_challenge(ladder_id=ladder.pk, challenger=challenger, opponent=defender.get_username())
    return challenge_accept(challenge_id=challenge.pk, actor=defender)


@pytest.fixture
def cup(steward: Any, make_user: Any) -> Tournament:
    cup = tournament_create(staff=steward, name="Spring cup", variant="BX", format="single_elimination",
                            size=4, time_limit=timedelta(days=2))
    for name in ("carol", "dave", "erin", "finn"):
        tournament_join(tournament_id=cup.pk, player=make_user(name))
    return cup


def first_match(cup: Tournament) -> TournamentMatch:
    return TournamentMatch.objects.select_related("game", "player_a", "player_b").filter(
        tournament=cup, round=1).order_by("slot").first()


def test_a_ladder_game_says_so_on_its_page_and_in_game_status(
    ladder: Ladder, alice: Any, bob: Any, alice_client: Client, charlie_client: Client
) -> None:
    game = ladder_game(ladder, alice, bob)
    label = f'<a class="game__competition" href="/ladders/#ladder-{ladder.pk}">Ladder game: Open ladder</a>'
    rules = alice_client.get(f"/games/{game.pk}/").content.decode().split('class="game__rules"')[1].split("</p>")[0]
    assert label in rules
    assert label in charlie_client.get(f"/games/{game.pk}/").content.decode()  # watching
    status = alice_client.get("/games/").content.decode()
    assert f'<a class="competition-link" href="/ladders/#ladder-{ladder.pk}">Ladder game: Open ladder</a>' in status
    # The link leads to the ladder's own heading.
    assert f'id="ladder-{ladder.pk}"' in alice_client.get("/ladders/").content.decode()


def test_a_tournament_game_says_so_and_an_ordinary_one_does_not(
    cup: Tournament, alice: Any, bob: Any, client_for: Any
) -> None:
    match = first_match(cup)
    player = client_for(match.player_a)
    label = f'href="/tournaments/{cup.pk}/">Tournament game: Spring cup</a>'
    assert label in player.get(f"/games/{match.game_id}/").content.decode()
    assert label in player.get("/games/").content.decode()
    ordinary = start_game(alice, bob, "BX")
    page = client_for(alice).get(f"/games/{ordinary.pk}/").content.decode()
    assert "game__competition" not in page and "competition-link" not in client_for(alice).get("/games/").content.decode()


def test_the_labels_hold_without_kept_answers(cup: Tournament, settings: Any, client_for: Any) -> None:
    settings.KEPT_ANSWERS = False
    match = first_match(cup)
    assert "Tournament game: Spring cup" in client_for(match.player_a).get("/games/").content.decode()


def queries_of(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as asked:
        assert client.get(url).status_code == 200
    return len(asked)


def test_the_lists_ask_no_query_per_row(ladder: Ladder, alice: Any, bob: Any, make_user: Any,
                                        alice_client: Client) -> None:
    ladder_game(ladder, alice, bob)
    for n in range(3):
        ladder_game(ladder, make_user(f"climber{n}"), bob)

    def forget_the_competitions() -> None:  # the rest of what the page keeps stays kept
        cache.delete_many(competition_keys(Game.objects.all()))

    queries_of(alice_client, "/games/")
    forget_the_competitions()
    cold, warm = queries_of(alice_client, "/games/"), queries_of(alice_client, "/games/")
    assert cold == warm + 2  # a ladder's look-up and a tournament's, then kept
    for game in Game.objects.exclude(black=alice).exclude(white=alice):  # alice takes them over
        Game.objects.filter(pk=game.pk).update(black=alice)
    queries_of(alice_client, "/games/")
    forget_the_competitions()
    assert queries_of(alice_client, "/games/") == cold  # two look-ups, for one game or four
    assert queries_of(alice_client, "/games/") == warm
    assert alice_client.get("/games/").content.decode().count("Ladder game: Open ladder") == 4


def test_a_players_own_tournament_match_offers_play(cup: Tournament, client_for: Any, alice: Any,
                                                     client: Client) -> None:
    match = first_match(cup)
    url = f"/tournaments/{cup.pk}/"
    game_link = f'href="/games/{match.game_id}/">'
    own = client_for(match.player_a).get(url).content.decode()
    assert f'<a class="bracket__game button" {game_link}Play</a>' in own
    other = client_for(alice).get(url).content.decode()
    assert f'<a class="bracket__game" {game_link}Watch game</a>' in other
    assert game_link not in client.get(url).content.decode()  # a visitor: the game page needs a log-in
    Game.objects.filter(pk=match.game_id).update(private_white=True)
    assert game_link not in client_for(alice).get(url).content.decode()
    assert f"{game_link}Play</a>" in client_for(match.player_b).get(url).content.decode()

