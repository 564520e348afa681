"""Tournaments played to their end through the services: single elimination (8 players, and 5
with byes), double elimination (6), round robin (4); timeouts, staff, sign-up rules."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from tournament_play import win

from backgammon.models import Game
from backgammon.services import game_enforce_deadline
from tournaments.brackets import seeding_order
from tournaments.models import Tournament, TournamentMatch
from tournaments.ratings import rating_of
from tournaments.tournaments import (
    TournamentConflict,
    TournamentRejected,
    close_signups,
    standings,
    tournament_adjudicate,
    tournament_cancel,
    tournament_create,
    tournament_join,
    tournament_leave,
)

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(f"p{n}") for n in range(1, 9)]


def make(admin_user: Any, format: str, size: int, **options: Any) -> Tournament:
    return tournament_create(staff=admin_user, name=f"{format} cup", variant="BX", format=format,
                             size=size, time_limit=DAY, **options)


def filled(admin_user: Any, format: str, entrants: list[Any], **options: Any) -> Tournament:
    tournament = make(admin_user, format, len(entrants), **options)
    for player in entrants:
        tournament_join(tournament_id=tournament.pk, player=player)
    return Tournament.objects.get(pk=tournament.pk)


def play_out(tournament: Tournament, best: Any) -> None:
    """Play every open game until the tournament ends: the better seed wins, except that
    ``best`` (if given) wins every game."""
    seed = {e.player_id: e.seed for e in tournament.entries.all()}
    for _ in range(100):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return
        match = TournamentMatch.objects.filter(
            tournament=tournament, game__status=Game.Status.ACTIVE
        ).select_related("player_a", "player_b", "game").first()
        assert match is not None, "a running tournament has no game to play"
        a, b = match.player_a, match.player_b
        chosen = a if a == best or (b != best and seed[a.pk] < seed[b.pk]) else b
        win(match.game, chosen)
    raise AssertionError("the tournament did not end")


def test_seeding_order_puts_the_two_best_seeds_in_opposite_halves() -> None:
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seeding_order(2) == [1, 2]


def test_an_eight_player_single_elimination_is_played_to_its_end(admin_user: Any, players: list[Any]) -> None:
    tournament = filled(admin_user, "single_elimination", players)
    assert tournament.status == "running"
    first_round = TournamentMatch.objects.filter(tournament=tournament, round=1)
    assert first_round.count() == 4 and all(m.game_id for m in first_round)
    assert TournamentMatch.objects.filter(tournament=tournament, game__isnull=False).count() == 4
    play_out(tournament, best=players[5])
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.winner == players[5]
    assert TournamentMatch.objects.filter(tournament=tournament).count() == 7
    table = standings(tournament)
    assert table[0] == {"place": 1, "username": "p6", "wins": 3, "losses": 0}
    assert sorted(row["losses"] for row in table) == [0, 1, 1, 1, 1, 1, 1, 1]
    # Out in the same round, the same place (issue 29, item 19): 1, 2, two 3rds, four 5ths.
    assert [row["place"] for row in table] == [1, 2, 3, 3, 5, 5, 5, 5]
    games = Game.objects.filter(tournament_match__tournament=tournament)
    assert games.count() == 7 and all(game.rated for game in games)


def test_five_players_give_three_byes_to_the_top_seeds(admin_user: Any, players: list[Any]) -> None:
    tournament = filled(admin_user, "single_elimination", players[:5])
    byes = TournamentMatch.objects.filter(tournament=tournament, bye=True).order_by("slot")
    assert [(m.player_a.username, m.player_b, m.winner.username, m.game) for m in byes] == [
        ("p1", None, "p1", None), ("p2", None, "p2", None), ("p3", None, "p3", None)
    ]
    # Seed 4 meets seed 5; the two byes of the lower half already meet in round 2.
    round_two = TournamentMatch.objects.filter(tournament=tournament, round=2).order_by("slot")
    assert round_two[1].game is not None
    assert {round_two[1].player_a.username, round_two[1].player_b.username} == {"p2", "p3"}
    play_out(tournament, best=players[4])
    tournament.refresh_from_db()
    assert tournament.winner == players[4]
    table = {row["username"]: row for row in standings(tournament)}
    assert table["p5"] == {"place": 1, "username": "p5", "wins": 3, "losses": 0}
    assert table["p1"]["wins"] == 0  # a bye is no win
    # p1 (a bye, then out in the semi-final without a win) shares 3rd with the other semi-finalist.
    assert sorted(row["place"] for row in table.values()) == [1, 2, 3, 3, 5]


def test_a_six_player_double_elimination_knocks_out_on_the_second_loss(
    admin_user: Any, players: list[Any]
) -> None:
    tournament = filled(admin_user, "double_elimination", players[:6])
    play_out(tournament, best=None)
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.winner == players[0]
    table = standings(tournament)
    assert table[0]["username"] == "p1" and table[0]["losses"] == 0
    assert all(row["losses"] == 2 for row in table[1:])
    # Every game lost costs one life: 5 players lost twice, 10 games.
    assert Game.objects.filter(tournament_match__tournament=tournament).count() == 10


def test_double_elimination_final_is_played_again_when_the_unbeaten_player_loses(
    admin_user: Any, players: list[Any]
) -> None:
    tournament = filled(admin_user, "double_elimination", players[:2])
    first = TournamentMatch.objects.get(tournament=tournament, round=1)
    win(first.game, players[1])
    second = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert second.bracket == "final"
    win(second.game, players[0])
    tournament.refresh_from_db()
    assert tournament.status == "running"
    win(TournamentMatch.objects.get(tournament=tournament, round=3).game, players[0])
    tournament.refresh_from_db()
    assert tournament.winner == players[0]


def test_a_four_player_round_robin_ranks_by_wins_then_beaten_opponents(
    admin_user: Any, players: list[Any]
) -> None:
    p1, p2, p3, p4 = players[:4]
    tournament = filled(admin_user, "round_robin", [p1, p2, p3, p4])
    matches = TournamentMatch.objects.filter(tournament=tournament).select_related("game")
    assert matches.count() == 6 and all(m.game for m in matches)
    # p1 beats p2 and p3, p2 beats p3 and p4, p4 beats p1 and p3: three players on two wins;
    # p2 beat p3 (0 wins) and p4 (2 wins): 2; p1 beat p2 and p3: 2; p4 beat p1 and p3: 2.
    # Still tied: head to head among the three, each won one. Then rating (equal), then seeding.
    beats = {(p1, p2), (p1, p3), (p2, p3), (p2, p4), (p4, p1), (p4, p3)}
    for match in matches:
        a, b = match.player_a, match.player_b
        win(match.game, a if (a, b) in beats else b)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    table = standings(tournament)
    assert [row["username"] for row in table] == ["p1", "p2", "p4", "p3"]
    assert [row["wins"] for row in table] == [2, 2, 2, 0]
    assert tournament.winner == p1


@pytest.mark.parametrize("rated", [False, True], ids=["unrated: seeding decides", "rated: rating decides"])
def test_round_robin_breaks_a_full_tie_by_rating_then_seeding(
    admin_user: Any, players: list[Any], rated: bool
) -> None:
    p1, p2, p3, p4 = players[:4]
    tournament = filled(admin_user, "round_robin", [p1, p2, p3, p4], rated=rated)
    # p4 beats p1 and p2; p3 beats p4 and p2; p1 beats p3 and p2. p2 has none.
    # Wins 2 each for p1, p3, p4: beaten opponents' wins: p4 beat p1(2)+p2(0)=2, p3 beat
    # p4(2)+p2(0)=2, p1 beat p3(2)+p2(0)=2... all tied, head to head 1 each: then the rating
    # (the games were rated, so the ratings moved), and with equal ratings the seeding.
    beats = {(p4, p1), (p4, p2), (p3, p4), (p3, p2), (p1, p3), (p1, p2)}
    matches = TournamentMatch.objects.filter(tournament=tournament).select_related("game")
    for match in matches:
        a, b = match.player_a, match.player_b
        win(match.game, a if (a, b) in beats else b)
    tied = ["p1", "p3", "p4"]  # the seeding order of the three
    if rated:
        rating = {p.username: rating_of(p, "BX") for p in (p1, p3, p4)}
        assert len(set(rating.values())) == 3, rating  # the games moved them apart
        tied.sort(key=lambda name: -rating[name])
    else:
        assert {rating_of(p, "BX") for p in (p1, p3, p4)} == {1500.0}
    assert [row["username"] for row in standings(tournament)] == [*tied, "p2"]


def test_a_timeout_forfeits_the_match(admin_user: Any, players: list[Any]) -> None:
    tournament = filled(admin_user, "single_elimination", players[:2])
    game = TournamentMatch.objects.get(tournament=tournament).game
    late = game.deadline + timedelta(seconds=1)
    assert game_enforce_deadline(game_id=game.pk, action_number=game.action_count, now=late)
    game.refresh_from_db()
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.winner == game.winner
    assert game.winner != game.actor and "ran out of time" in game.result


def test_sign_up_rules(admin_user: Any, players: list[Any]) -> None:
    p1, p2, p3 = players[:3]
    tournament = make(admin_user, "single_elimination", 3)
    tournament_join(tournament_id=tournament.pk, player=p1)
    with pytest.raises(TournamentConflict, match="already signed up"):
        tournament_join(tournament_id=tournament.pk, player=p1)
    casual = make(admin_user, "round_robin", 4, area="casual")
    with pytest.raises(TournamentConflict, match="only one of the two areas"):
        tournament_join(tournament_id=casual.pk, player=p1)
    tournament_leave(tournament_id=tournament.pk, player=p1)
    with pytest.raises(TournamentConflict, match="not signed up"):
        tournament_leave(tournament_id=tournament.pk, player=p1)
    tournament_join(tournament_id=casual.pk, player=p1)  # free to choose the other area now
    for player in (p1, p2, p3):
        if player != p1:
            tournament_join(tournament_id=tournament.pk, player=player)
    assert Tournament.objects.get(pk=tournament.pk).status == "signup"
    with pytest.raises(TournamentRejected, match="Only staff"):
        tournament_create(staff=p1, name="x", variant="BX", format="round_robin", size=4,
                          time_limit=DAY)


def test_the_sign_up_window_closing_starts_it_with_two_players(
    admin_user: Any, players: list[Any]
) -> None:
    soon = timezone_now() + timedelta(hours=1)
    tournament = make(admin_user, "single_elimination", 8, signup_closes_at=soon)
    lonely = make(admin_user, "round_robin", 8, signup_closes_at=soon)
    for player in players[:2]:
        tournament_join(tournament_id=tournament.pk, player=player)
    tournament_join(tournament_id=lonely.pk, player=players[2])
    assert close_signups() == 0
    assert close_signups(now=soon) == 1
    tournament.refresh_from_db()
    lonely.refresh_from_db()
    assert tournament.status == "running" and lonely.status == "cancelled"
    with pytest.raises(TournamentConflict, match="no longer withdraw"):
        tournament_leave(tournament_id=tournament.pk, player=players[0])


def test_staff_adjudicate_with_a_reason_and_cancel(admin_user: Any, players: list[Any]) -> None:
    tournament = filled(admin_user, "single_elimination", players[:4])
    match = TournamentMatch.objects.filter(tournament=tournament, round=1).first()
    assert match is not None
    with pytest.raises(Exception, match="Give a reason"):
        tournament_adjudicate(match_id=match.pk, staff=admin_user, winner=match.player_b, reason=" ")
    tournament_adjudicate(match_id=match.pk, staff=admin_user, winner=match.player_b, reason="No show")
    match.refresh_from_db()
    assert match.winner == match.player_b and match.game.staff_actions.get().reason == "No show"
    final = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert final.player_a == match.player_b
    tournament_cancel(tournament_id=tournament.pk, staff=admin_user, reason="Server move")
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"
    assert not Game.objects.filter(tournament_match__tournament=tournament, status="active").exists()


def timezone_now() -> Any:
    from django.utils import timezone

    return timezone.now()


def test_round_robin_tie_breaks_wins_of_beaten_opponents_then_rating() -> None:
    from tournaments.brackets import Result, rank_round_robin

    results = [Result("A", "B"), Result("A", "C"), Result("B", "C"), Result("B", "D"),
               Result("C", "D"), Result("D", "A")]
    rating = {"A": 1500.0, "B": 1500.0, "C": 1500.0, "D": 1500.0}
    # A and B both won twice, but A beat B (2 wins) and C (1): 3 against B's 2.
    assert rank_round_robin(["B", "A", "D", "C"], results, rating) == ["A", "B", "D", "C"]
    # Two players each beaten once by the other stay tied until rating decides.
    even = [Result("X", "Y"), Result("Y", "X")]
    assert rank_round_robin(["X", "Y"], even, {"X": 1500.0, "Y": 1600.0}) == ["Y", "X"]
    # P and Q: one win each over a one-win player; P beat Q, so P is ahead of the seeding.
    games = [Result("P", "Q"), Result("Q", "S"), Result("S", "R")]
    assert rank_round_robin(["Q", "P", "S", "R"], games, dict.fromkeys("PQRS", 1500.0)) == [
        "P", "Q", "S", "R"
    ]
