"""Ladders through the services: join and leave, the challenge limits, the moves a result makes,
the drop of inactive players, and a ladder game played to its end."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from gamebuilder import act, fast_passwords, scripted_dice  # noqa: F401

from backgammon.engine.actions import Action
from backgammon.models import Challenge, Game
from backgammon.services import (
    ChallengeRejected,
    challenge_accept,
    challenge_decline,
    game_abort,
    game_adjudicate,
)
from backgammon.signals import worker_tick
from tests.engine.random_play import random_action
from tournaments.ladders import (
    LadderConflict,
    LadderRejected,
    ladder_challenge,
    ladder_create,
    ladder_drop_inactive,
    ladder_join,
    ladder_leave,
)
from tournaments.models import Ladder, LadderMatch, LadderRung

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user: Any) -> Any:
    user = make_user("steward")
    user.is_staff = True
    user.save()
    return user


@pytest.fixture
def ladder(staff: Any) -> Ladder:
    return ladder_create(staff=staff, name="BX 2 days", variant="BX", match_length=None,
                         time_limit=timedelta(days=2))


def players(make_user: Any, count: int) -> list[Any]:
    return [make_user(f"p{n:02}") for n in range(1, count + 1)]


def on_ladder(ladder: Ladder, users: list[Any]) -> list[Any]:
    for user in users:
        ladder_join(ladder_id=ladder.pk, player=user)
    return users


def order(ladder: Ladder) -> list[str]:
    rungs = LadderRung.objects.filter(ladder=ladder).order_by("rank").select_related("player")
    assert [r.rank for r in rungs] == list(range(1, len(rungs) + 1))  # no gaps, no repeats
    return [r.player.get_username() for r in rungs]


def record(ladder: Ladder, user: Any) -> tuple[int, int]:
    rung = LadderRung.objects.get(ladder=ladder, player=user)
    return rung.wins, rung.losses


def challenged_game(monkeypatch: pytest.MonkeyPatch, ladder: Ladder, challenger: Any,
                    defender: Any, *, first: Any) -> Game:
    """A ladder game accepted, with ``first`` to move after the opening roll."""
    challenge = ladder_challenge(ladder_id=ladder.pk, challenger=challenger,
                                 opponent=defender.get_username())
    # The challenger is Black; the opening roll's higher die moves first.
    scripted_dice(monkeypatch).then((2, 1) if first == challenger else (1, 2))
    game = challenge_accept(challenge_id=challenge.pk, actor=defender)
    assert game.actor == first
    return game


def resign(game: Game, loser: Any, winner: Any) -> Game:
    game = act(game, loser, Action.resign(1))
    return act(Game.objects.get(pk=game.pk), winner, Action.accept_resign())


def test_players_join_at_the_bottom_and_once(ladder: Ladder, make_user: Any) -> None:
    on_ladder(ladder, players(make_user, 3))
    assert order(ladder) == ["p01", "p02", "p03"]
    with pytest.raises(LadderConflict, match="already on the ladder BX 2 days"):
        ladder_join(ladder_id=ladder.pk, player=LadderRung.objects.get(rank=2).player)
    assert order(ladder) == ["p01", "p02", "p03"]


def test_leaving_moves_everyone_below_up(ladder: Ladder, make_user: Any) -> None:
    users = on_ladder(ladder, players(make_user, 4))
    ladder_leave(ladder_id=ladder.pk, player=users[1])
    assert order(ladder) == ["p01", "p03", "p04"]
    with pytest.raises(LadderConflict, match="not on the ladder"):
        ladder_leave(ladder_id=ladder.pk, player=users[1])


def test_a_challenger_who_beats_a_higher_player_takes_the_place(
    monkeypatch: pytest.MonkeyPatch, ladder: Ladder, make_user: Any
) -> None:
    users = on_ladder(ladder, players(make_user, 6))
    challenger, defender = users[4], users[1]  # rank 5 challenges rank 2
    game = challenged_game(monkeypatch, ladder, challenger, defender, first=defender)
    assert game.rated and game.variant == "BX" and game.time_limit == timedelta(days=2)
    resign(game, defender, challenger)
    assert order(ladder) == ["p01", "p05", "p02", "p03", "p04", "p06"]
    assert record(ladder, challenger) == (1, 0) and record(ladder, defender) == (0, 1)
    match = LadderMatch.objects.get()
    assert match.winner == challenger and match.finished_at is not None


def test_a_challenger_who_loses_moves_nobody(
    monkeypatch: pytest.MonkeyPatch, ladder: Ladder, make_user: Any
) -> None:
    users = on_ladder(ladder, players(make_user, 4))
    game = challenged_game(monkeypatch, ladder, users[3], users[0], first=users[3])
    resign(game, users[3], users[0])
    assert order(ladder) == ["p01", "p02", "p03", "p04"]
    assert record(ladder, users[0]) == (1, 0) and record(ladder, users[3]) == (0, 1)


def test_a_win_over_a_player_who_has_since_fallen_below_moves_nobody(
    monkeypatch: pytest.MonkeyPatch, ladder: Ladder, make_user: Any
) -> None:
    users = on_ladder(ladder, players(make_user, 4))
    game = challenged_game(monkeypatch, ladder, users[2], users[1], first=users[1])  # p03 v p02
    ladder_leave(ladder_id=ladder.pk, player=users[0])
    ladder_join(ladder_id=ladder.pk, player=users[0])
    # p02 beats p04 meanwhile on another challenge: p04 is now above p03.
    other = challenged_game(monkeypatch, ladder, users[3], users[1], first=users[1])
    resign(other, users[1], users[3])
    assert order(ladder) == ["p04", "p02", "p03", "p01"]
    resign(Game.objects.get(pk=game.pk), users[1], users[2])  # p03 beats p02, who is above
    assert order(ladder) == ["p04", "p03", "p02", "p01"]


def test_an_adjudicated_result_counts_and_an_abort_does_not(
    monkeypatch: pytest.MonkeyPatch, ladder: Ladder, staff: Any, make_user: Any
) -> None:
    users = on_ladder(ladder, players(make_user, 3))
    aborted = challenged_game(monkeypatch, ladder, users[2], users[0], first=users[0])
    game_abort(game_id=aborted.pk, staff=staff, reason="Test")
    assert order(ladder) == ["p01", "p02", "p03"] and record(ladder, users[2]) == (0, 0)
    won = challenged_game(monkeypatch, ladder, users[2], users[0], first=users[0])
    game_adjudicate(game_id=won.pk, staff=staff, winner=users[2], reason="Opponent left")
    assert order(ladder) == ["p03", "p01", "p02"] and record(ladder, users[2]) == (1, 0)


@pytest.mark.parametrize(
    ("challenger", "opponent", "reason"),
    [
        (21, "p01", "p01 is 21 places above you: you may challenge players at most 20 places above"),
        (4, "p06", "p06 is below you"),
        (4, "P05", "You cannot challenge yourself"),
        (4, "nobody", "nobody is not on the ladder BX 2 days"),
    ],
)
def test_challenges_out_of_reach_are_refused_with_the_reason(
    ladder: Ladder, make_user: Any, challenger: int, opponent: str, reason: str
) -> None:
    users = on_ladder(ladder, players(make_user, 22))
    with pytest.raises(LadderRejected, match=reason):
        ladder_challenge(ladder_id=ladder.pk, challenger=users[challenger], opponent=opponent)
    assert not Challenge.objects.exists() and not LadderMatch.objects.exists()


def test_twenty_places_above_is_in_reach(ladder: Ladder, make_user: Any) -> None:
    users = on_ladder(ladder, players(make_user, 21))
    made = ladder_challenge(ladder_id=ladder.pk, challenger=users[20], opponent="p01")
    assert made.challenged == users[0] and LadderMatch.objects.get().challenge == made


def test_a_player_off_the_ladder_cannot_challenge(ladder: Ladder, make_user: Any) -> None:
    on_ladder(ladder, players(make_user, 2))
    with pytest.raises(LadderRejected, match="Join the ladder BX 2 days"):
        ladder_challenge(ladder_id=ladder.pk, challenger=make_user("outsider"), opponent="p01")


def test_a_third_open_challenge_is_refused_until_one_is_over(
    monkeypatch: pytest.MonkeyPatch, ladder: Ladder, make_user: Any
) -> None:
    users = on_ladder(ladder, players(make_user, 4))
    me = users[3]
    pending = ladder_challenge(ladder_id=ladder.pk, challenger=me, opponent="p01")
    playing = challenged_game(monkeypatch, ladder, me, users[1], first=users[1])  # a game in progress
    with pytest.raises(LadderRejected, match="already have 2 open challenges"):
        ladder_challenge(ladder_id=ladder.pk, challenger=me, opponent="p03")
    assert LadderMatch.objects.count() == 2
    challenge_decline(challenge_id=pending.pk, actor=users[0])
    ladder_challenge(ladder_id=ladder.pk, challenger=me, opponent="p03")  # declined: one slot free
    with pytest.raises(LadderRejected, match="already have 2 open challenges"):
        ladder_challenge(ladder_id=ladder.pk, challenger=me, opponent="p01")
    resign(playing, users[1], me)  # the game in progress ends: another slot
    assert ladder_challenge(ladder_id=ladder.pk, challenger=me, opponent="p01")


def test_inactive_players_drop_off_and_those_below_move_up(
    monkeypatch: pytest.MonkeyPatch, ladder: Ladder, make_user: Any
) -> None:
    users = on_ladder(ladder, players(make_user, 5))
    long_ago = timezone.now() - timedelta(days=31)
    LadderRung.objects.filter(player__in=[users[0], users[2], users[3], users[4]]).update(joined_at=long_ago)
    LadderRung.objects.filter(player=users[4]).update(last_game_at=timezone.now() - timedelta(days=2))
    challenged_game(monkeypatch, ladder, users[3], users[2], first=users[2])  # p03 v p04, playing
    assert ladder_drop_inactive() == 1  # p01: p02 joined today, p03 and p04 play, p05 played
    assert order(ladder) == ["p02", "p03", "p04", "p05"]
    assert ladder_drop_inactive() == 0


def test_the_worker_tick_drops_inactive_players(ladder: Ladder, make_user: Any) -> None:
    on_ladder(ladder, players(make_user, 2))
    LadderRung.objects.filter(rank=1).update(joined_at=timezone.now() - timedelta(days=29))
    worker_tick.send(sender=None)
    assert order(ladder) == ["p01", "p02"]
    Ladder.objects.filter(pk=ladder.pk).update(inactivity_days=28)
    worker_tick.send(sender=None)
    assert order(ladder) == ["p02"]


def test_a_ladder_game_played_to_its_end(ladder: Ladder, make_user: Any) -> None:
    users = on_ladder(ladder, players(make_user, 2))
    challenge = ladder_challenge(ladder_id=ladder.pk, challenger=users[1], opponent="p01")
    game = challenge_accept(challenge_id=challenge.pk, actor=users[0])
    rng = random.Random(8)
    for _ in range(3000):
        if game.status != Game.Status.ACTIVE:
            break
        act(game, game.actor, random_action(game.state(), rng))
        game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.winner in users
    loser = users[0] if game.winner == users[1] else users[1]
    assert record(ladder, game.winner) == (1, 0) and record(ladder, loser) == (0, 1)
    expected = ["p02", "p01"] if game.winner == users[1] else ["p01", "p02"]
    assert order(ladder) == expected


def test_staff_alone_create_ladders_and_bad_terms_are_refused(staff: Any, alice: Any) -> None:
    with pytest.raises(LadderRejected, match="Only staff"):
        ladder_create(staff=alice, name="Mine", variant="BX", match_length=None, time_limit=timedelta(days=1))
    bad = [
        ({"variant": "MP"}, "rated variant"),
        ({"variant": "BX", "match_length": 5}, "single game"),
        ({"variant": "BP", "match_length": None}, "1 to"),
        ({"time_limit": timedelta(hours=28)}, "time limit"),
        ({"name": " "}, "name"),
    ]
    for changes, reason in bad:
        terms: dict[str, Any] = {"name": "Ladder", "variant": "BP", "match_length": 7,
                                 "time_limit": timedelta(days=1), **changes}
        with pytest.raises(LadderRejected, match=reason):
            ladder_create(staff=staff, **terms)
    assert not Ladder.objects.exists()
    made = ladder_create(staff=staff, name="BP 7", variant="bp", match_length=7,
                         time_limit=timedelta(days=1), inactivity_days=10)
    assert (made.variant, made.match_length, made.inactivity_days, made.created_by) == ("BP", 7, 10, staff)
    with pytest.raises(LadderRejected, match="already a ladder"):
        ladder_create(staff=staff, name="bp 7", variant="BP", match_length=7, time_limit=timedelta(days=1))


def test_a_refused_backgammon_challenge_leaves_no_ladder_match(ladder: Ladder, make_user: Any) -> None:
    users = on_ladder(ladder, players(make_user, 2))
    users[0].is_active = False
    users[0].save()
    with pytest.raises(ChallengeRejected, match="no longer plays here"):
        ladder_challenge(ladder_id=ladder.pk, challenger=users[1], opponent="p01")
    assert not LadderMatch.objects.exists()
