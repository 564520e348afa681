"""Login throttling: 5 failures per userid or 20 per address in 15 minutes lock log-in out."""

from __future__ import annotations

from typing import Any

import time_machine
from django.test import Client
from django.urls import reverse

PASSWORD = "correct-horse-battery"  # the personas' password (tests/conftest.py)
LOGIN = reverse("accounts:login")


def attempt(client: Client, username: str, password: str, ip: str = "10.0.0.1") -> Any:
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_it_refuses_the_sixth_attempt_even_with_the_right_password(
    client: Client, alice: object
) -> None:
    for _ in range(5):
        assert b"do not match" in attempt(client, "alice", "wrong").content

    response = attempt(client, "alice", PASSWORD)

    assert b"Too many failed log-in attempts" in response.content
    assert b"15 minutes" in response.content
    assert not logged_in(client)


def test_it_counts_the_userid_whatever_its_case(client: Client, alice: object) -> None:
    for name in ["alice", "ALICE", "Alice", "aLiCe", "alicE"]:
        attempt(client, name, "wrong")

    assert b"Too many failed" in attempt(client, "alice", PASSWORD).content


def test_it_lets_the_right_password_in_after_four_failures(client: Client, alice: object) -> None:
    for _ in range(4):
        attempt(client, "alice", "wrong")

    attempt(client, "alice", PASSWORD)

    assert logged_in(client)


def test_a_success_forgives_earlier_failures(client: Client, alice: object) -> None:
    for _ in range(4):
        attempt(client, "alice", "wrong")
    attempt(client, "alice", PASSWORD)
    client.post(reverse("accounts:logout"))
    for _ in range(4):
        attempt(client, "alice", "wrong")

    attempt(client, "alice", PASSWORD)

    assert logged_in(client)


def test_the_lockout_of_one_userid_leaves_others_alone(
    client: Client, alice: object, bob: object
) -> None:
    for _ in range(5):
        attempt(client, "alice", "wrong")

    attempt(client, "bob", PASSWORD)

    assert logged_in(client)


def test_it_locks_out_an_address_after_twenty_failures(client: Client, alice: object) -> None:
    # Spread over many userids so no single userid reaches its own limit.
    for number in range(20):
        attempt(client, f"guess{number}", "wrong", ip="10.9.9.9")

    from_there = attempt(client, "alice", PASSWORD, ip="10.9.9.9")
    assert b"Too many failed" in from_there.content
    assert not logged_in(client)

    attempt(client, "alice", PASSWORD, ip="10.1.1.1")
    assert logged_in(client)


def test_the_lockout_ends_after_fifteen_minutes(client: Client, alice: object) -> None:
    with time_machine.travel("2030-01-01 12:00:00Z", tick=False) as clock:
        for _ in range(5):
            attempt(client, "alice", "wrong")
        clock.shift(14 * 60)
        assert b"Too many failed" in attempt(client, "alice", PASSWORD).content

        clock.shift(61)
        attempt(client, "alice", PASSWORD)

    assert logged_in(client)


def test_it_ignores_a_forged_forwarded_for_header_by_default(
    client: Client, alice: object
) -> None:
    for number in range(20):
        client.post(
            LOGIN,
            {"username": f"guess{number}", "password": "wrong"},
            REMOTE_ADDR="10.2.2.2",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{number}",
        )

    assert b"Too many failed" in attempt(client, "alice", PASSWORD, ip="10.2.2.2").content
