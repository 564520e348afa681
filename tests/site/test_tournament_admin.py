"""The tournament admin (issue 29, item 19): the time limit chosen from the site's list by its
name, and the staff actions Abort and Adjudicate, each confirmed on its own page with a reason,
through the tournament services."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords  # noqa: F401

from backgammon.models import Game
from tournaments.models import Tournament, TournamentMatch
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db


def changelist() -> str:
    return reverse("admin:tournaments_tournament_changelist")


@pytest.fixture
def cup(admin_user: Any, make_user: Any) -> Tournament:
    """A four-player knock-out, running: two first-round games in progress."""
    tournament = tournament_create(staff=admin_user, name="Spring cup", variant="BX",
                                   format="single_elimination", size=4, time_limit=timedelta(days=1))
    for name in ("ann", "ben", "cal", "dan"):
        tournament_join(tournament_id=tournament.pk, player=make_user(name))
    return Tournament.objects.get(pk=tournament.pk)


def test_the_time_limit_is_chosen_by_its_name_from_the_sites_list(admin_client: Client, cup: Tournament) -> None:
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[cup.pk])).content.decode()
    assert '<select name="time_limit"' in page and "selected>1 day</option>" in page
    assert "1 00:00:00" not in page
    listed = admin_client.get(changelist()).content.decode()
    assert "<td class=\"field-time_per_move\">1 day</td>" in listed


def test_abort_asks_for_a_reason_then_calls_the_tournament_off(admin_client: Client, cup: Tournament) -> None:
    data = {"action": "abort_tournaments", "_selected_action": [cup.pk]}
    page = admin_client.post(changelist(), data)
    assert page.status_code == 200 and "Spring cup (Running, 4 of 4 players)" in page.content.decode()
    page = admin_client.post(changelist(), {**data, "confirm": "yes", "reason": "  "})
    assert page.status_code == 200 and "This field is required." in page.content.decode()
    cup.refresh_from_db()
    assert cup.status == "running"
    assert Game.objects.filter(tournament_match__tournament=cup, status="active").count() == 2
    response = admin_client.post(changelist(), {**data, "confirm": "yes", "reason": "server move"}, follow=True)
    assert "1 tournament(s) aborted." in response.content.decode()
    cup.refresh_from_db()
    assert cup.status == "cancelled"
    results = set(Game.objects.filter(tournament_match__tournament=cup).values_list("status", "result"))
    assert results == {("aborted", "Aborted by staff: Tournament cancelled: server move")}
    again = admin_client.post(changelist(), {**data, "confirm": "yes", "reason": "twice"}, follow=True)
    assert "Spring cup: This tournament is already cancelled." in again.content.decode()


def test_adjudicate_decides_the_chosen_matches_through_their_games(admin_client: Client, cup: Tournament) -> None:
    first, second = TournamentMatch.objects.filter(tournament=cup, round=1).select_related("player_b")
    data = {"action": "adjudicate_matches", "_selected_action": [cup.pk]}
    page = admin_client.post(changelist(), data).content.decode()
    assert f"Spring cup, round 1: {first.player_a} v {first.player_b}" in page
    assert f'name="match_{second.pk}"' in page and "Leave undecided" in page
    confirmed = {**data, "confirm": "yes"}
    for refused, error in (({"reason": "no show"}, "Choose the winner of at least one match."),
                           ({f"match_{first.pk}": str(first.player_b_id), "reason": ""}, "This field is required."),
                           ({f"match_{first.pk}": "999999", "reason": "no show"}, "Select a valid choice.")):
        page = admin_client.post(changelist(), {**confirmed, **refused})
        assert page.status_code == 200 and error in page.content.decode()
    assert not TournamentMatch.objects.filter(tournament=cup, winner__isnull=False).exists()
    response = admin_client.post(changelist(), {**confirmed, f"match_{first.pk}": str(first.player_b_id),
                                                "reason": "no show"}, follow=True)
    assert "1 match(es) adjudicated." in response.content.decode()
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.winner == first.player_b and second.winner is None
    game = Game.objects.get(pk=first.game_id)
    assert (game.status, game.winner_id) == ("finished", first.player_b_id)
    final = TournamentMatch.objects.get(tournament=cup, round=2)
    assert final.player_a == first.player_b  # the tournament moved on


def test_a_time_limit_off_the_list_stays_chosen(admin_client: Client, admin_user: Any) -> None:
    """The API takes any hours: saving the admin page for another field keeps such a limit."""
    cup = tournament_create(staff=admin_user, name="Odd cup", variant="BX", format="round_robin", size=4,
                            time_limit=timedelta(hours=5))
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[cup.pk])).content.decode()
    assert 'value="5:00:00" selected>5:00:00 (as created)</option>' in page
    response = admin_client.post(reverse("admin:tournaments_tournament_change", args=[cup.pk]), {
        "name": "Odd cup renamed", "area": "standard", "variant": "BX", "match_length": 0,
        "format": "round_robin", "size": 4, "time_limit": "5:00:00", "rated": "on",
        "created_at_0": "2026-11-27", "created_at_1": "10:00:00",
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0, "matches-TOTAL_FORMS": 0, "matches-INITIAL_FORMS": 0,
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    cup.refresh_from_db()
    assert (cup.name, cup.time_limit) == ("Odd cup renamed", timedelta(hours=5))
