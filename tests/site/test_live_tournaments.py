"""Live tournaments (issue 31 item 4): their games run the match clock, each round's matches
start together when the round starts, and a player not there when their match starts loses it
after the delay plus two minutes. Ladders stay correspondence."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from tournament_play import win

from accounts.models import Profile
from backgammon.engine import TimeControl
from backgammon.models import Game
from tournaments.models import Tournament, TournamentMatch
from tournaments.no_show import NO_SHOW_GRACE, tournament_no_show
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db

BLITZ = TimeControl.live(8, 60)


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(f"p{n}") for n in range(1, 5)]


def live(admin_user: Any, format: str, entrants: list[Any]) -> Tournament:
    made = tournament_create(staff=admin_user, name="Friday blitz", variant="BX", format=format,
                             size=len(entrants), time_limit=timedelta(days=1), time_control=BLITZ)
    for player in entrants:
        tournament_join(tournament_id=made.pk, player=player)
    return Tournament.objects.get(pk=made.pk)


def games_of_round(tournament: Tournament, number: int) -> list[Game]:
    matches = TournamentMatch.objects.filter(tournament=tournament, round=number, game__isnull=False)
    return [match.game for match in matches.select_related("game")]


def test_a_live_tournament_plays_live_games_and_starts_each_round_together(
        admin_user: Any, players: list[Any]) -> None:
    tournament = live(admin_user, "single_elimination", players)
    assert tournament.is_live and tournament.time_limit == timedelta(seconds=68)
    first = games_of_round(tournament, 1)
    assert len(first) == 2 and all(game.is_live and game.time_control() == BLITZ for game in first)
    win(first[0], first[0].black)
    assert games_of_round(tournament, 2) == []  # the final waits for the whole round
    final_player = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert final_player.player_a_id or final_player.player_b_id  # its place is filled meanwhile
    win(first[1], first[1].black)
    final = games_of_round(tournament, 2)
    assert len(final) == 1 and final[0].is_live


def test_a_live_round_robin_opens_one_round_at_a_time(admin_user: Any, players: list[Any]) -> None:
    tournament = live(admin_user, "round_robin", players)
    assert len(games_of_round(tournament, 1)) == 2 and games_of_round(tournament, 2) == []
    for game in games_of_round(tournament, 1):
        win(game, game.black)
    assert len(games_of_round(tournament, 2)) == 2 and games_of_round(tournament, 3) == []


def test_each_live_game_has_its_no_show_check_at_the_delay_plus_two_minutes(
        admin_user: Any, players: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament = live(admin_user, "single_elimination", players)
    checks = DBTaskResult.objects.filter(task_path="tournaments.tasks.check_no_show")
    games = games_of_round(tournament, 1)
    assert sorted(check.args_kwargs["args"][0] for check in checks) == sorted(game.pk for game in games)
    for check in checks:
        game = Game.objects.get(pk=check.args_kwargs["args"][0])
        assert check.run_after == game.created_at + timedelta(seconds=8) + NO_SHOW_GRACE


def _seen(player: Any, when: Any) -> None:
    Profile.objects.filter(user=player).update(last_seen=when)


def test_the_player_who_did_not_come_loses_the_match(admin_user: Any, players: list[Any]) -> None:
    tournament = live(admin_user, "single_elimination", players)
    match = TournamentMatch.objects.filter(tournament=tournament, round=1).select_related("game").first()
    game = match.game
    _seen(match.player_a, timezone.now())
    _seen(match.player_b, game.created_at - timedelta(hours=2))  # gone long before it started
    with time_machine.travel(game.created_at + timedelta(seconds=8) + NO_SHOW_GRACE, tick=False):
        ended = tournament_no_show(game_id=game.pk)
    assert ended is not None and ended.status == "finished" and ended.winner == match.player_a
    assert ended.result == f"{match.player_a.get_username()} won: {match.player_b.get_username()} did not come to the live match"
    match.refresh_from_db()
    assert match.winner == match.player_a  # the bracket goes on
    assert tournament_no_show(game_id=game.pk) is None  # over already: nothing more


def test_when_neither_came_the_higher_seed_goes_on_and_when_both_came_nothing_happens(
        admin_user: Any, players: list[Any]) -> None:
    tournament = live(admin_user, "single_elimination", players)
    first, second = TournamentMatch.objects.filter(tournament=tournament, round=1).select_related("game")
    for player in (first.player_a, first.player_b, second.player_a, second.player_b):
        _seen(player, None)
    _seen(second.player_a, timezone.now())
    _seen(second.player_b, timezone.now())
    assert tournament_no_show(game_id=second.game_id) is None
    assert Game.objects.get(pk=second.game_id).status == "active"
    ended = tournament_no_show(game_id=first.game_id)
    assert ended is not None and ended.winner == first.player_a
    assert "neither player came" in ended.result


def test_a_correspondence_tournament_game_has_no_no_show_rule(admin_user: Any, players: list[Any]) -> None:
    made = tournament_create(staff=admin_user, name="Slow cup", variant="BX", format="single_elimination",
                             size=2, time_limit=timedelta(days=1))
    for player in players[:2]:
        tournament_join(tournament_id=made.pk, player=player)
    game = games_of_round(made, 1)[0]
    assert not game.is_live and tournament_no_show(game_id=game.pk) is None


def test_the_tournament_pages_name_the_live_clock(admin_user: Any, players: list[Any], client: Any) -> None:
    tournament = live(admin_user, "single_elimination", players)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "live: 8 s + 1 min" in page and "start together" in page
    assert "live: 8 s + 1 min" in client.get("/tournaments/").content.decode()


def test_a_rated_live_match_counts_for_the_rating_as_any_other(players: list[Any], monkeypatch: Any) -> None:
    from gamebuilder import scripted_dice, start_game

    from tournaments.ratings import rating_of

    scripted_dice(monkeypatch).then((3, 1))
    winner, loser = players[0], players[1]
    before = rating_of(winner, "BP")
    game = start_game(winner, loser, "BP", match_length=1, time_limit=timedelta(days=1), rated=True,
                      time_control=BLITZ)
    win(game, winner)
    assert rating_of(winner, "BP") > before and rating_of(loser, "BP") < before
