"""Live games' match clock through the one locked path: each phase that runs a clock charges it,
every action records both readings, and the reserve's end is a timeout, with frozen time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, fast_passwords, position, scripted_dice, start_game, starting_from  # noqa: F401

from backgammon.engine import Action, Side, TimeControl
from backgammon.models import Challenge, Game, GameAction
from backgammon.services import (
    ActionRejected,
    ChallengeRejected,
    challenge_accept,
    challenge_create,
    game_enforce_deadline,
)
from backgammon.services.challenges import challenge_expire
from backgammon.services.more_time import game_give_time
from backgammon.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
RAPID_5 = TimeControl.live(12, 300)  # Rapid for a 5-point match


def at(seconds: float) -> Any:
    return time_machine.travel(T0 + timedelta(seconds=seconds), tick=False)


def play_first(game: Game, user: Any) -> Game:
    play = game.state().legal_plays()[0]
    return act(game, user, Action.play([(m.origin, m.destination) for m in play.moves]))


def readings(game: Game) -> tuple[int | None, int | None]:
    row = GameAction.objects.filter(game=game).order_by("-number").first()
    assert row is not None
    return row.clock_black_ms, row.clock_white_ms


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """A live 5-point match, Rapid (12 s + 5 min), alice (Black) to play 3-1 from T0."""
    scripted_dice(monkeypatch).then((3, 1))
    with at(0):
        return start_game(alice, bob, "BP", match_length=5, time_limit=timedelta(days=3), time_control=RAPID_5)


def test_the_opening_starts_the_openers_clock(game: Game) -> None:
    assert game.is_live and game.time_control() == RAPID_5
    assert game.deadline == T0 + timedelta(seconds=312)
    assert readings(game) == (300_000, 300_000)
    clock = game.match_clock()
    assert clock is not None and (clock.running, clock.since) == (Side.BLACK, T0)


def test_a_move_charges_the_time_past_the_delay_and_starts_the_opponents(game: Game, alice: Any) -> None:
    with at(20):
        game = play_first(game, alice)
    assert readings(game) == (292_000, 300_000)
    assert game.deadline == T0 + timedelta(seconds=20 + 12 + 300)


def test_double_take_and_the_next_roll_each_run_the_deciders_clock(
    game: Game, alice: Any, bob: Any
) -> None:
    with at(20):
        game = play_first(game, alice)
    with at(30):  # bob doubles within his delay: his reserve is untouched
        game = act(game, bob, Action.double())
    assert readings(game) == (292_000, 300_000)
    assert game.deadline == T0 + timedelta(seconds=30 + 12 + 292)  # alice's take or pass
    with at(50):  # alice thinks 20 s over the take: 8 s past her delay
        game = act(game, alice, Action.take())
    assert readings(game) == (284_000, 300_000)
    # bob, who cannot redouble, was rolled for: his move's delay started at the take
    assert game.state().actor is Side.WHITE and game.state().dice is not None
    with at(70):
        game = play_first(game, bob)
    assert readings(game) == (284_000, 292_000)


def test_rolling_and_moving_are_one_turn_with_one_delay(game: Game, alice: Any, bob: Any) -> None:
    with at(20):
        game = play_first(game, alice)
    with at(25):
        game = act(game, bob, Action.roll(1, 1))
    assert readings(game) == (292_000, 300_000)
    with at(40):  # 20 s since his turn began: 8 past the delay
        game = play_first(game, bob)
    assert readings(game) == (292_000, 292_000)


def test_a_resignation_runs_the_answering_players_clock(game: Game, alice: Any, bob: Any) -> None:
    with at(5):
        game = act(game, alice, Action.resign(1))
    assert game.deadline == T0 + timedelta(seconds=5 + 12 + 300)  # bob's clock
    with at(30):
        game = act(game, bob, Action.reject_resign())
    assert readings(game) == (300_000, 287_000)
    # alice still has her dice to play: her turn restarts with a delay
    assert game.deadline == T0 + timedelta(seconds=30 + 12 + 300)


def test_the_reserves_end_is_a_timeout_and_not_a_moment_before(game: Game, bob: Any) -> None:
    flag = T0 + timedelta(seconds=312)
    with time_machine.travel(flag - timedelta(milliseconds=1), tick=False):
        assert not game_enforce_deadline(game_id=game.pk, action_number=game.action_count)
    with time_machine.travel(flag, tick=False):
        assert game_enforce_deadline(game_id=game.pk, action_number=game.action_count)
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.FINISHED, bob)
    assert game.result == "bob won: alice ran out of time"
    assert readings(game) == (0, 300_000)
    assert game.deadline is None and game.match_clock() is not None
    assert game.match_clock().running is None  # type: ignore[union-attr]


def test_a_move_after_the_reserve_ran_out_is_refused_and_the_timeout_applied(game: Game, alice: Any) -> None:
    with at(312.001), pytest.raises(ActionRejected, match=r"Too late: your reserve ran out at 2026-11-27 20:05:12 UTC"):
        play_first(game, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert GameAction.objects.filter(game=game, kind="timeout").count() == 1


def test_a_live_game_leaves_its_reserves_end_to_the_live_sweep(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (5, 2), (6, 4))
    with at(0), django_capture_on_commit_callbacks(execute=True):
        live = start_game(alice, bob, "BP", match_length=1, time_control=TimeControl.live(12, 30))
        # A correspondence game an hour a move beside it: its deadline is near, so a task of its own.
        slow = start_game(alice, bob, "BP", time_control=TimeControl.correspondence(3600))
    tasks = DBTaskResult.objects.filter(task_path="backgammon.tasks.enforce_deadline")
    assert [task.args_kwargs["args"][0] for task in tasks] == [slow.pk]
    with at(41.999):  # 12 s of delay and 30 of reserve: not yet
        assert sweep_deadlines(live=True) == 0
    with at(42.001):
        assert sweep_deadlines(live=True) == 1
        live.refresh_from_db()
        assert live.status == Game.Status.FINISHED and "ran out of time" in live.result
    with at(3600.001):  # the live sweep leaves the correspondence game to its task and the sweep
        assert sweep_deadlines(live=True) == 0
        assert sweep_deadlines() == 1


def test_a_turn_the_site_played_for_the_opponent_gives_the_player_a_new_delay(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Alice's home board is closed and bob waits on the bar; no cube (BX): every roll is the site's.
    starting_from(monkeypatch, position=position({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, {25: 1, 6: 14}))
    scripted_dice(monkeypatch).then((6, 1), (5, 3), (4, 2))
    with at(0):
        game = start_game(alice, bob, "BX", match_length=0, time_control=RAPID_5)
    assert (game.phase, game.actor) == ("move", alice)
    with at(20):
        game = play_first(game, alice)
    # Bob's roll and dance were passed at once, and alice rolled again: a turn of her own, from
    # its delay, not the rest of the turn she began at 0 s (8 s of her reserve gone, not 20).
    assert [row.kind for row in game.actions.order_by("number")][-3:] == ["roll", "play", "roll"]
    assert (game.phase, game.actor) == ("move", alice)
    clock = game.match_clock()
    assert clock is not None and (clock.running, clock.since) == (Side.BLACK, T0 + timedelta(seconds=20))
    assert readings(game) == (292_000, 300_000)
    assert game.deadline == T0 + timedelta(seconds=20 + 12 + 292)


def test_a_correspondence_game_keeps_no_clock(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    with at(0):
        game = start_game(alice, bob, "BP", time_control=TimeControl.correspondence(3600))
    assert not game.is_live and game.clock is None and readings(game) == (None, None)
    assert game.time_limit == timedelta(hours=1)
    assert game.deadline == T0 + timedelta(hours=1)


def test_a_live_game_takes_no_gift_of_time(game: Game, bob: Any) -> None:
    with at(5), pytest.raises(ActionRejected, match="no more time can be given"):
        game_give_time(game_id=game.pk, giver=bob, extra=timedelta(days=1))
    game.refresh_from_db()
    assert game.deadline == T0 + timedelta(seconds=312)


def test_a_live_challenge_unanswered_for_2_minutes_expires(alice: Any, bob: Any) -> None:
    with at(0):
        challenge = challenge_create(
            challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=3), time_control=RAPID_5
        )
    with at(119.999):
        assert not challenge_expire(challenge_id=challenge.pk)
    with at(120):
        assert challenge_expire(challenge_id=challenge.pk)
        assert not challenge_expire(challenge_id=challenge.pk)  # once
        with pytest.raises(ChallengeRejected, match="was already expired"):
            challenge_accept(challenge_id=challenge.pk, actor=bob)
    assert not Game.objects.exists()


def test_accepting_a_lapsed_live_challenge_before_the_worker_expires_it_is_refused(alice: Any, bob: Any) -> None:
    with at(0):
        challenge = challenge_create(
            challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=3), time_control=RAPID_5
        )
    with at(121), pytest.raises(ChallengeRejected, match="not answered within 2 minutes"):
        challenge_accept(challenge_id=challenge.pk, actor=bob)
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.EXPIRED
    assert not Game.objects.exists()


def test_a_correspondence_challenge_does_not_lapse(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with at(0):
        challenge = challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=3))
    with at(86400):
        assert not challenge_expire(challenge_id=challenge.pk)
        assert challenge_accept(challenge_id=challenge.pk, actor=bob).status == Game.Status.ACTIVE


def test_a_live_challenge_is_described_as_live_not_per_move(alice: Any, bob: Any) -> None:
    live = challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=timedelta(days=3),
                            time_control=RAPID_5)
    by_mail = challenge_create(challenger=alice, opponent="bob", variant="BX", time_limit=timedelta(days=3))
    assert live.time_words == "live, 12 s + 5 min"
    assert by_mail.time_words == "3 days per move"


def test_staff_ending_a_live_game_stops_its_clock(game: Game, bob: Any, admin_user: Any) -> None:
    from backgammon.services import game_abort

    with at(100):
        game_abort(game_id=game.pk, staff=admin_user, reason="testing the clock")
    game.refresh_from_db()
    clock = game.match_clock()
    assert clock is not None and clock.running is None
    assert clock.reading(T0 + timedelta(days=1)) == clock.reading(T0 + timedelta(seconds=100))
    assert clock.reserve_ms.black == 300_000 - (100 - 12) * 1000
