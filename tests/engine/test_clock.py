"""The live match clock's arithmetic (delay, reserve, the flag) and the time controls' ranges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.engine import (
    LIVE_PRESETS,
    Action,
    ClockKind,
    InvalidTimeControlError,
    MatchClock,
    MatchRules,
    PerSide,
    Side,
    TimeControl,
    WinKind,
    apply_action,
    find_variant,
    new_match,
)

START = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
BLACK, WHITE = Side.BLACK, Side.WHITE

sides = st.sampled_from([BLACK, WHITE])
delays = st.integers(2, 60)
reserves = st.integers(30, 3 * 3600)
# Steps of up to five minutes, to the millisecond.
steps = st.integers(0, 300_000).map(lambda ms: timedelta(milliseconds=ms))


def clock(delay_s: int = 12, reserve_s: int = 300, running: Side | None = BLACK) -> MatchClock:
    return MatchClock.start(TimeControl.live(delay_s, reserve_s), running=running, at=START)


def test_the_presets_scale_the_reserve_with_the_match() -> None:
    assert LIVE_PRESETS["blitz"].control(5) == TimeControl.live(8, 150)
    assert LIVE_PRESETS["rapid"].control(7) == TimeControl.live(12, 420)
    assert LIVE_PRESETS["standard"].control(11) == TimeControl.live(12, 1320)
    # A money game is timed as a one-point match.
    assert LIVE_PRESETS["standard"].control(0) == TimeControl.live(12, 120)
    with pytest.raises(InvalidTimeControlError, match="0 to 25 points"):
        LIVE_PRESETS["blitz"].control(26)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"kind": "live", "delay_s": 12, "reserve_s": 10}, "reserve_s must be a whole number of seconds from 30"),
        ({"kind": "live", "delay_s": 61, "reserve_s": 300}, "delay_s must be"),
        # under 2 s the network would cost reserve: the delay is what pays for it
        ({"kind": "live", "delay_s": 1, "reserve_s": 300}, "delay_s must be a whole number of seconds from 2 to 60"),
        ({"kind": "live", "delay_s": 12.5, "reserve_s": 300}, "delay_s must be a whole number"),
        ({"kind": "live", "delay_s": True, "reserve_s": 300}, "delay_s must be a whole number"),
        ({"kind": "live", "delay_s": 12}, "exactly: delay_s, kind, reserve_s"),
        ({"kind": "live", "delay_s": 12, "reserve_s": 300, "per_move_s": 60}, "exactly"),
        ({"kind": "correspondence", "per_move_s": 59}, "per_move_s must be"),
        ({"kind": "correspondence", "per_move_s": 15 * 86400}, "per_move_s must be"),
        ({"kind": "blitz"}, "kind is"),
        ("live", "an object"),
    ],
)
def test_a_time_control_out_of_range_is_refused_with_its_reason(data: object, words: str) -> None:
    with pytest.raises(InvalidTimeControlError, match=words):
        TimeControl.from_dict(data)


@given(delay=delays, reserve=reserves, per_move=st.integers(60, 14 * 86400))
def test_a_time_control_goes_to_its_dict_and_back(delay: int, reserve: int, per_move: int) -> None:
    for control in (TimeControl.live(delay, reserve), TimeControl.correspondence(per_move)):
        assert TimeControl.from_dict(control.to_dict()) == control
    assert TimeControl.live(delay, reserve).kind is ClockKind.LIVE


def test_the_delay_is_used_before_the_reserve() -> None:
    running = clock(delay_s=12, reserve_s=300)
    assert running.reading(START + timedelta(seconds=11.999)) == PerSide(300_000, 300_000)
    assert running.delay_left_ms(START + timedelta(seconds=5)) == 7000
    assert running.reading(START + timedelta(seconds=20)) == PerSide(292_000, 300_000)
    assert running.delay_left_ms(START + timedelta(seconds=20)) == 0


def test_the_flag_falls_when_delay_and_reserve_are_spent() -> None:
    running = clock(delay_s=12, reserve_s=300)
    flag = START + timedelta(seconds=312)
    assert running.flag_at() == flag
    assert running.flagged(flag - timedelta(milliseconds=1)) is None
    assert running.flagged(flag) is BLACK
    assert running.reading(flag + timedelta(hours=1)) == PerSide(0, 300_000)


def test_a_handover_charges_the_mover_and_starts_the_other_players_delay() -> None:
    moved = clock().handed_to(WHITE, START + timedelta(seconds=30))
    assert moved.reserve_ms == PerSide(282_000, 300_000)
    assert (moved.running, moved.since) == (WHITE, START + timedelta(seconds=30))
    assert moved.flag_at() == START + timedelta(seconds=30 + 12 + 300)


def test_rolling_then_moving_is_one_turn_with_one_delay() -> None:
    rolled = clock().handed_to(BLACK, START + timedelta(seconds=5))
    assert rolled.since == START
    moved = rolled.handed_to(WHITE, START + timedelta(seconds=15))
    assert moved.reserve_ms.black == 297_000  # 15 s in all, 12 of them the delay


def test_a_new_turn_for_the_same_player_starts_a_new_delay() -> None:
    # Black moved 20 s into the turn, and White's turn was played for White (a dance passed):
    # Black's next turn begins then, delay first, charged only the 8 s past the last delay.
    again = clock().handed_to(BLACK, START + timedelta(seconds=20), new_turn=True)
    assert (again.running, again.since) == (BLACK, START + timedelta(seconds=20))
    assert again.reserve_ms == PerSide(292_000, 300_000)
    assert again.flag_at() == START + timedelta(seconds=20 + 12 + 292)


def test_a_stopped_clock_charges_nobody() -> None:
    stopped = clock().handed_to(None, START + timedelta(seconds=100))
    assert stopped.reading(START + timedelta(days=1)) == PerSide(212_000, 300_000)
    assert stopped.flag_at() is None and stopped.flagged(START + timedelta(days=1)) is None


@given(delay=delays, reserve=reserves, side=sides, elapsed=steps)
def test_the_running_reserve_falls_by_the_time_past_the_delay(
    delay: int, reserve: int, side: Side, elapsed: timedelta
) -> None:
    running = clock(delay, reserve, side)
    at = START + elapsed
    spent = max(0, elapsed // timedelta(milliseconds=1) - delay * 1000)
    reading = running.reading(at)
    assert reading[side] == max(0, reserve * 1000 - spent)
    assert reading[side.other] == reserve * 1000
    assert (running.flagged(at) is side) == (reading[side] == 0 and at >= running.flag_at())  # type: ignore[operator]


@given(
    delay=delays,
    reserve=reserves,
    turns=st.lists(st.tuples(sides, steps), max_size=30),
)
def test_no_time_is_lost_or_made_across_turns(
    delay: int, reserve: int, turns: list[tuple[Side, timedelta]]
) -> None:
    """Each player's reserve is the full reserve less, over their turns, the time past each delay."""
    running = clock(delay, reserve, BLACK)
    at = START
    charged = {BLACK: 0, WHITE: 0}
    turn_elapsed = 0
    for side, step in turns:
        at += step
        turn_elapsed += step // timedelta(milliseconds=1)
        if side is not running.running:
            charged[running.running] += max(0, turn_elapsed - delay * 1000)  # type: ignore[index]
            turn_elapsed = 0
        running = running.handed_to(side, at)
    charged[running.running] += max(0, turn_elapsed - delay * 1000)  # type: ignore[index]
    final = running.handed_to(None, at)
    for side in (BLACK, WHITE):
        assert final.reserve_ms[side] == max(0, reserve * 1000 - charged[side])
    assert running.flag_at() == running.since + timedelta(  # type: ignore[operator]
        milliseconds=delay * 1000 + running.reserve_ms[running.running]  # type: ignore[index]
    )


@given(delay=delays, reserve=reserves, side=sides, elapsed=steps)
def test_a_clock_survives_its_dict(delay: int, reserve: int, side: Side, elapsed: timedelta) -> None:
    running = clock(delay, reserve, side).handed_to(side.other, START + elapsed)
    assert MatchClock.from_dict(running.to_dict()) == running


def test_a_money_game_lost_on_time_costs_the_cube() -> None:
    opened = new_match(MatchRules(variant=find_variant("BP"), match_length=0))
    for action in (Action.roll(3, 1), Action.play([(8, 5), (6, 5)]), Action.double()):
        opened = apply_action(opened, action)
    # Black lets the clock run on White's double: the cube's value before it, as a pass.
    passed = apply_action(opened, Action.timeout())
    assert passed.last_game_result is not None
    assert (passed.last_game_result.kind, passed.last_game_result.points) == (WinKind.TIMEOUT, 1)
    assert passed.match_winner is WHITE
    # Black takes, and White, to roll, lets the clock run on a cube of 2.
    taken = apply_action(apply_action(opened, Action.take()), Action.timeout())
    assert taken.last_game_result is not None
    assert (taken.last_game_result.kind, taken.last_game_result.points) == (WinKind.TIMEOUT, 2)
    assert (taken.match_winner, taken.score) == (BLACK, PerSide(2, 0))


def test_the_modules_examples_run() -> None:
    import doctest

    from backgammon.engine import clock as clock_module

    assert doctest.testmod(clock_module).failed == 0
