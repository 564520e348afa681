"""Racing waiting-room joins and auto-match requests on real PostgreSQL: one game per open
challenge, no request paired twice, a non-member's limit held however many arrive at once."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from gamebuilder import fast_passwords  # noqa: F401

from backgammon.models import AutoMatchRequest, Game
from backgammon.services import (
    ChallengeRejected,
    auto_match_pair,
    auto_match_set,
    open_challenge_create,
    open_challenge_join,
)
from tests.site.racing import race

pytestmark = pytest.mark.django_db(transaction=True)

DAY = timedelta(days=1)


def _outcome(attempt: Callable[[], object]) -> Callable[[], str]:
    def run() -> str:
        try:
            attempt()
        except ChallengeRejected as refusal:
            return refusal.message
        return "done"

    return run


def test_two_players_joining_one_open_challenge_at_once_start_one_game(
    alice: Any, make_user: Any
) -> None:
    made = open_challenge_create(challenger=alice, variant="BP", time_limit=DAY)
    joiners = iter([make_user(f"joiner{n}") for n in range(4)])
    players = [next(joiners) for _ in range(4)]
    queue = list(players)

    def join() -> object:
        return open_challenge_join(challenge_id=made.pk, actor=queue.pop())

    outcomes = race(4, _outcome(join))
    gone = "This open challenge is no longer in the waiting room: someone joined it or it was withdrawn."
    assert outcomes == ["done"] + [gone] * 3
    assert Game.objects.count() == 1


def test_racing_auto_match_requests_pair_each_request_once(make_user: Any) -> None:
    players = [make_user(f"racer{n}") for n in range(6)]
    queue = list(players)

    def request() -> object:
        return auto_match_set(player=queue.pop(), variants=["BX"], time_limits=[DAY], rated="either",
                              max_games=1)

    assert race(6, _outcome(request)) == ["done"] * 6
    auto_match_pair()  # the worker tick: whatever a run skipped while another held the locks
    games = list(Game.objects.all())
    assert len(games) == 3
    seats = [player for game in games for player in (game.black_id, game.white_id)]
    assert sorted(seats) == sorted(p.pk for p in players)
    assert set(AutoMatchRequest.objects.values_list("status", flat=True)) == {"filled"}


def test_racing_pairing_runs_start_nothing_twice(make_user: Any) -> None:
    for n in range(8):
        AutoMatchRequest.objects.create(player=make_user(f"pair{n}"), variants=["BP"], time_limits=[86400])
    race(4, _outcome(auto_match_pair))
    auto_match_pair()
    assert Game.objects.count() == 4
    assert all(r.games.count() == 1 for r in AutoMatchRequest.objects.all())


def test_a_non_member_at_the_edge_of_the_limit_starts_one_game_when_two_joins_race(
    alice: Any, make_user: Any, settings: Any
) -> None:
    settings.NON_MEMBER_GAME_LIMIT = 1
    hosts = [make_user(f"host{n}") for n in range(2)]
    challenges = [open_challenge_create(challenger=host, variant="BX", time_limit=DAY) for host in hosts]
    queue = list(challenges)

    def join() -> object:
        return open_challenge_join(challenge_id=queue.pop().pk, actor=alice)

    outcomes = race(2, _outcome(join))
    assert outcomes[0] == "done" and "Players who are not members may have 1 games" in outcomes[1]
    assert Game.objects.count() == 1


def test_racing_live_requests_pair_each_once_into_live_matches(make_user: Any) -> None:
    players = [make_user(f"live{n}") for n in range(6)]
    queue = list(players)

    def request() -> object:
        return auto_match_set(player=queue.pop(), variants=["BP"], time_limits=[], rated="either",
                              max_games=1, live_presets=["blitz"])

    assert race(6, _outcome(request)) == ["done"] * 6
    auto_match_pair()
    games = list(Game.objects.all())
    assert len(games) == 3 and all(game.live_reserve_s == 150 for game in games)
    seats = [player for game in games for player in (game.black_id, game.white_id)]
    assert sorted(seats) == sorted(p.pk for p in players)


def test_one_player_sending_the_same_live_request_twice_at_once_starts_one_match(
    alice: Any, make_user: Any
) -> None:
    """Two tabs, one click each: the twin waits for the first's save (the one open request a player
    may have) and changes it. The two pairings that follow may each lock one of the two requests
    (``skip_locked``) and pair nobody, which the worker's next pass pairs, as the module says (CI
    of 0e5a7aa, once): after it, one match, and a pass more starts nothing."""
    opponent = make_user("opponent")
    auto_match_set(player=opponent, variants=["BP"], time_limits=[], rated="either", max_games=1,
                   live_presets=["blitz"])

    def request() -> object:
        return auto_match_set(player=alice, variants=["BP"], time_limits=[], rated="either", max_games=1,
                              live_presets=["blitz"])

    outcomes = race(2, _outcome(request))
    assert set(outcomes) <= {"done", "Your request changed at the same moment: please try again"}, outcomes
    assert "done" in outcomes
    assert Game.objects.count() <= 1
    assert AutoMatchRequest.objects.filter(player=alice, status=AutoMatchRequest.Status.OPEN).count() <= 1
    auto_match_pair()  # the worker's pass: alice plays her match
    game = Game.objects.get()
    assert {game.black_id, game.white_id} == {alice.pk, opponent.pk}
    auto_match_pair()  # and nothing more starts
    assert Game.objects.count() == 1
