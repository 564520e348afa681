"""Keyed dice: roll_at agrees with the hour's table, keys and hours differ, the table is uniform."""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone

import pytest

from backgammon.engine import (
    ROLLS_PER_HOUR,
    DiceTableError,
    hour_table,
    outcome_to_dice,
    roll_at,
    table_entry,
)

KEY = b"test key for the dice table, 32b"
HOUR = 480_000  # 2024-10-04 00:00 UTC
CHI_SQUARE_CRITICAL_35_DF_P001 = 66.62


@pytest.fixture(scope="module")
def table() -> bytes:
    return hour_table(KEY, HOUR)


def chi_square(outcomes: bytes) -> float:
    counts = Counter(outcomes)
    expected = len(outcomes) / 36
    return sum((counts.get(outcome, 0) - expected) ** 2 / expected for outcome in range(36))


def doubles_share(outcomes: bytes) -> float:
    doubles = sum(outcomes.count(bytes([outcome * 7])) for outcome in range(6))
    return doubles / len(outcomes)


def test_an_hour_has_one_outcome_per_millisecond(table: bytes) -> None:
    assert len(table) == ROLLS_PER_HOUR
    assert set(table) == set(range(36))


@pytest.mark.parametrize("millisecond", [0, 1, 15, 16, 17, 1_234_567, ROLLS_PER_HOUR - 1])
def test_roll_at_is_the_table_entry_for_that_millisecond(table: bytes, millisecond: int) -> None:
    instant = datetime.fromtimestamp(HOUR * 3600, UTC) + timedelta(
        milliseconds=millisecond, microseconds=999
    )
    assert table_entry(instant) == (HOUR, millisecond)
    assert roll_at(KEY, instant) == outcome_to_dice(table[millisecond])


def test_the_same_instant_in_another_timezone_gives_the_same_roll() -> None:
    instant = datetime(2024, 10, 4, 0, 20, 3, 456000, tzinfo=UTC)
    elsewhere = instant.astimezone(timezone(timedelta(hours=-5, minutes=-30)))
    assert roll_at(KEY, elsewhere) == roll_at(KEY, instant)


def test_different_keys_and_hours_give_different_tables(table: bytes) -> None:
    other_key = hour_table(b"another key for the dice, 32 b..", HOUR)
    next_hour = hour_table(KEY, HOUR + 1)
    for other in (other_key, next_hour):
        agreement = sum(a == b for a, b in zip(table[:36_000], other[:36_000], strict=True))
        assert agreement < 36_000 * 2 / 36  # chance agreement is 1 in 36


def test_the_table_is_uniform_over_the_36_outcomes(table: bytes) -> None:
    assert chi_square(table) < CHI_SQUARE_CRITICAL_35_DF_P001


def test_doubles_come_one_time_in_six(table: bytes) -> None:
    # The standard deviation of the share over 3.6 M rolls is about 0.0002; allow five of them.
    assert abs(doubles_share(table) - 1 / 6) < 0.001


def test_a_biased_table_fails_the_same_check() -> None:
    # The classic mistake: byte % 36 without rejecting 252..255 favours outcomes 0..3 (8/256 vs 7/256).
    stream = b"".join(
        hashlib.blake2b(KEY + block.to_bytes(4, "big"), digest_size=64).digest()
        for block in range(ROLLS_PER_HOUR // 64)
    )
    biased = bytes(byte % 36 for byte in stream)
    assert chi_square(biased) > CHI_SQUARE_CRITICAL_35_DF_P001


def test_a_long_key_is_accepted_and_differs_from_its_prefix() -> None:
    instant = datetime(2024, 10, 4, 0, 0, 0, tzinfo=UTC)
    long_key = KEY * 3
    assert [roll_at(long_key, instant + timedelta(milliseconds=i)) for i in range(40)] != [
        roll_at(long_key[:64], instant + timedelta(milliseconds=i)) for i in range(40)
    ]


def test_it_refuses_naive_instants_and_weak_keys() -> None:
    with pytest.raises(DiceTableError, match="timezone-aware"):
        roll_at(KEY, datetime(2024, 1, 1, 12))
    with pytest.raises(DiceTableError, match="at least 16 bytes"):
        roll_at(b"short", datetime(2024, 1, 1, 12, tzinfo=UTC))
    with pytest.raises(DiceTableError, match="not a dice outcome"):
        outcome_to_dice(36)


def test_every_outcome_is_a_distinct_roll() -> None:
    rolls = {outcome_to_dice(outcome) for outcome in range(36)}
    assert rolls == {(a, b) for a in range(1, 7) for b in range(1, 7)}
