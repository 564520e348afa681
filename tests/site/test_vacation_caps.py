"""Ladders and tournaments cap the vacation days that pause their games (issue 8 section 4)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords, start_game  # noqa: F401

from accounts.vacations import vacation_book
from backgammon.models import Game
from backgammon.services import challenge_accept, clocks
from tournaments.ladders import LadderRejected, ladder_challenge, ladder_create, ladder_join
from tournaments.models import Ladder, Tournament, TournamentMatch
from tournaments.tournaments import TournamentRejected, tournament_create, tournament_join
from tournaments.vacation_policy import competition_vacation_cap

pytestmark = pytest.mark.django_db

MONDAY = "2026-01-05 12:00:00+00:00"
TWO_DAYS = timedelta(days=2)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _five_day_vacation(user: Any) -> None:
    """6 to 10 January, booked on Monday 5 January while the game's clock runs."""
    with time_machine.travel(MONDAY, tick=False):
        vacation_book(user=user, start=date(2026, 1, 6), days=5)


def _ladder_game(admin_user: Any, alice: Any, bob: Any, cap: int | None) -> Game:
    with time_machine.travel(MONDAY, tick=False):
        ladder = ladder_create(staff=admin_user, name="BX 2 days", variant="BX", match_length=None,
                               time_limit=TWO_DAYS, vacation_days_cap=cap)
        ladder_join(ladder_id=ladder.pk, player=alice)
        ladder_join(ladder_id=ladder.pk, player=bob)
        challenge = ladder_challenge(ladder_id=ladder.pk, challenger=bob, opponent="alice")
        return challenge_accept(challenge_id=challenge.pk, actor=alice)


def _tournament_game(admin_user: Any, alice: Any, bob: Any, cap: int | None) -> Game:
    with time_machine.travel(MONDAY, tick=False):
        cup = tournament_create(staff=admin_user, name="Cup", variant="BX", format="round_robin",
                                size=2, time_limit=TWO_DAYS, vacation_days_cap=cap)
        tournament_join(tournament_id=cup.pk, player=alice)
        tournament_join(tournament_id=cup.pk, player=bob)
    match = TournamentMatch.objects.select_related("game").get(tournament=cup)
    assert match.game is not None
    return match.game


def test_an_ordinary_game_is_paused_for_the_whole_vacation(alice: Any, bob: Any) -> None:
    with time_machine.travel(MONDAY, tick=False):
        game = start_game(alice, bob, "BX", time_limit=TWO_DAYS)
    assert competition_vacation_cap(game) is None
    assert game.deadline == _at("2026-01-07 12:00")
    _five_day_vacation(game.actor)
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-12 12:00")


def test_a_ladder_game_with_cap_0_is_not_paused(admin_user: Any, alice: Any, bob: Any) -> None:
    game = _ladder_game(admin_user, alice, bob, cap=0)
    assert not clocks.game_vacation_allowed(game)
    assert game.deadline == _at("2026-01-07 12:00")
    _five_day_vacation(game.actor)
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-07 12:00")
    with time_machine.travel(MONDAY, tick=False):  # nor is a move whose clock starts now
        assert clocks.deadline_from(game, game.actor_id, _at("2026-01-05 12:00")) == game.deadline


def test_a_ladder_without_a_cap_pauses_fully(admin_user: Any, alice: Any, bob: Any) -> None:
    game = _ladder_game(admin_user, alice, bob, cap=None)
    _five_day_vacation(game.actor)
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-12 12:00")


def test_a_tournament_game_with_cap_2_pauses_two_days_of_a_five_day_vacation(
    admin_user: Any, alice: Any, bob: Any
) -> None:
    game = _tournament_game(admin_user, alice, bob, cap=2)
    assert clocks.game_vacation_cap(game) == 2
    assert game.deadline == _at("2026-01-07 12:00")
    _five_day_vacation(game.actor)
    game.refresh_from_db()
    assert game.deadline == _at("2026-01-09 12:00")  # paused 6 and 7 January only
    # A clock started during the vacation's first days runs again after the second day.
    assert clocks.deadline_from(game, game.actor_id, _at("2026-01-07 00:00")) == _at(
        "2026-01-10 00:00")
    # A clock started after the capped days runs through the rest of the vacation.
    assert clocks.deadline_from(game, game.actor_id, _at("2026-01-09 00:00")) == _at(
        "2026-01-11 00:00")


def test_the_strictest_policy_wins_and_true_has_no_say(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with time_machine.travel(MONDAY, tick=False):
        game = start_game(alice, bob, "BX", time_limit=TWO_DAYS)
    monkeypatch.setattr(clocks, "_vacation_policies", [])
    clocks.register_vacation_policy(lambda g: True)
    assert clocks.game_vacation_cap(game) is None
    clocks.register_vacation_policy(lambda g: 3)
    clocks.register_vacation_policy(lambda g: None)
    assert clocks.game_vacation_cap(game) == 3
    clocks.register_vacation_policy(lambda g: False)
    assert clocks.game_vacation_cap(game) == 0 and not clocks.game_vacation_allowed(game)


def test_the_services_refuse_a_cap_out_of_range(admin_user: Any) -> None:
    with pytest.raises(LadderRejected, match="The vacation cap is 0 to 365 days"):
        ladder_create(staff=admin_user, name="L", variant="BX", match_length=None,
                      time_limit=TWO_DAYS, vacation_days_cap=366)
    with pytest.raises(TournamentRejected, match="The vacation cap is 0 to 365 days"):
        tournament_create(staff=admin_user, name="T", variant="BX", format="round_robin", size=2,
                          time_limit=TWO_DAYS, vacation_days_cap=-1)
    assert not Ladder.objects.exists() and not Tournament.objects.exists()


def test_staff_set_the_cap_in_admin(admin_client: Client) -> None:
    response = admin_client.post(reverse("admin:tournaments_ladder_add"), {
        "name": "BX 48 hours", "variant": "BX", "match_length": 0, "time_limit": "2 days, 0:00:00",
        "inactivity_days": 21, "vacation_days_cap": 3,
        "rungs-TOTAL_FORMS": 0, "rungs-INITIAL_FORMS": 0,
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    ladder = Ladder.objects.get()
    assert ladder.vacation_days_cap == 3
    page = admin_client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    assert 'name="vacation_days_cap"' in page
    tournament = Tournament.objects.create(name="Cup", variant="BX", format="round_robin", size=4,
                                           time_limit=TWO_DAYS)
    page = admin_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament.pk])).content.decode()
    assert 'name="vacation_days_cap"' in page


def test_time_left_says_when_a_capped_clock_runs_again(admin_user: Any, alice: Any, bob: Any) -> None:
    from backgammon.clock_words import time_left_words

    game = _tournament_game(admin_user, alice, bob, cap=2)
    _five_day_vacation(game.actor)
    game.refresh_from_db()
    name = game.actor.get_username()
    # On 7 January the player is away until 11 January, but this game's clock stops for the
    # first two days only (6 and 7 January): it runs again on 8 January.
    words = time_left_words(game, now=_at("2026-01-07 06:00"))
    assert words.endswith(
        f"({name} is on vacation; this game's clock stands still until 8 January)"
    ), words
    # On 9 January the capped days are over: the clock runs, and no vacation is mentioned.
    assert "vacation" not in time_left_words(game, now=_at("2026-01-09 06:00"))
