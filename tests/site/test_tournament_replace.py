"""Staff replace a tournament's player: the entry before the start, the waiting places while it
runs, refused while the player has a game, always logged with the reason."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from tournament_play import win

from tournaments.models import Entry, Replacement, Tournament, TournamentMatch
from tournaments.replacements import tournament_replace_player
from tournaments.tournaments import (
    TournamentConflict,
    TournamentRejected,
    tournament_create,
    tournament_join,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(f"p{n}") for n in range(1, 6)]


def cup(admin_user: Any, size: int, entrants: list[Any]) -> Tournament:
    tournament = tournament_create(staff=admin_user, name="Cup", variant="BX", size=size,
                                   format="single_elimination", time_limit=timedelta(days=1))
    for player in entrants:
        tournament_join(tournament_id=tournament.pk, player=player)
    return Tournament.objects.get(pk=tournament.pk)


def test_before_the_start_the_entry_changes_hands_and_the_reason_is_kept(
    admin_user: Any, players: list[Any]
) -> None:
    tournament = cup(admin_user, 4, players[:2])
    made = tournament_replace_player(tournament_id=tournament.pk, staff=admin_user, old=players[0],
                                     new=players[4], reason=" Gone abroad ")
    names = set(Entry.objects.filter(tournament=tournament).values_list("player__username", flat=True))
    assert names == {"p2", "p5"}
    assert (made.old, made.new, made.staff, made.reason) == (players[0], players[4], admin_user,
                                                             "Gone abroad")


def test_while_running_the_replacement_takes_the_waiting_place_and_plays_on(
    admin_user: Any, players: list[Any]
) -> None:
    tournament = cup(admin_user, 4, players[:4])
    first = TournamentMatch.objects.get(tournament=tournament, round=1, slot=0)
    win(first.game, first.player_a)
    winner = first.player_a
    tournament_replace_player(tournament_id=tournament.pk, staff=admin_user, old=winner,
                              new=players[4], reason="Ill")
    final = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert final.player_a == players[4] and final.game is None
    other = TournamentMatch.objects.get(tournament=tournament, round=1, slot=1)
    win(other.game, other.player_b)
    final.refresh_from_db()
    assert {final.game.black_id, final.game.white_id} == {players[4].pk, other.player_b_id}
    win(final.game, players[4])
    assert Tournament.objects.get(pk=tournament.pk).winner == players[4]
    # The round already played stays with the player who played it.
    assert TournamentMatch.objects.get(pk=first.pk).winner == winner


def test_a_player_with_a_game_is_refused_until_staff_adjudicate(
    admin_user: Any, players: list[Any]
) -> None:
    tournament = cup(admin_user, 2, players[:2])
    with pytest.raises(TournamentConflict, match="adjudicate it first"):
        tournament_replace_player(tournament_id=tournament.pk, staff=admin_user, old=players[0],
                                  new=players[4], reason="Ill")
    assert not Replacement.objects.exists()
    assert set(Entry.objects.values_list("player_id", flat=True)) == {players[0].pk, players[1].pk}


@pytest.mark.parametrize(
    ("who", "old", "new", "reason", "message"),
    [
        ("player", 0, 4, "Ill", "Only staff"),
        ("staff", 0, 4, "  ", "Give a reason"),
        ("staff", 0, 0, "Ill", "a different player"),
        ("staff", 3, 4, "Ill", "p4 is not in this tournament"),
        ("staff", 0, 1, "Ill", "p2 is already in this tournament"),
    ],
)
def test_refusals_change_nothing(
    admin_user: Any, players: list[Any], who: str, old: int, new: int, reason: str, message: str
) -> None:
    tournament = cup(admin_user, 4, players[:2])
    staff = admin_user if who == "staff" else players[2]
    with pytest.raises(TournamentRejected, match=message):
        tournament_replace_player(tournament_id=tournament.pk, staff=staff, old=players[old],
                                  new=players[new], reason=reason)
    assert not Replacement.objects.exists()
    assert set(Entry.objects.values_list("player_id", flat=True)) == {players[0].pk, players[1].pk}
