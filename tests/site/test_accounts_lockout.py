"""Log-in lock-outs (django-axes): 5 wrong passwords for one userid from one address pause that
userid from that address for 15 minutes, on the site's log-in and the admin's alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
import time_machine
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse

PASSWORD = "correct-horse-battery"  # the personas' password (tests/conftest.py)
NEW_PASSWORD = "a-brand-new-passphrase"
LOGIN = reverse("accounts:login")
ADMIN_LOGIN = reverse("admin:login")


def attempt(
    client: Client, username: str, password: str, ip: str = "10.0.0.1", **extra: Any
) -> Any:
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def locked_out(response: Any) -> bool:
    return response.status_code == 429 and b"Too many failed log-in attempts" in response.content


def test_it_locks_out_at_the_fifth_failure_even_for_the_right_password(
    client: Client, alice: object
) -> None:
    for _ in range(4):
        assert b"do not match" in attempt(client, "alice", "wrong").content
    assert locked_out(attempt(client, "alice", "wrong"))

    response = attempt(client, "alice", PASSWORD)

    assert locked_out(response)
    assert b"15 minutes" in response.content
    assert b"reset it by e-mail" in response.content
    assert not logged_in(client)


def test_the_admin_log_in_locks_out_too(client: Client, make_user: Any) -> None:
    boss = make_user("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    for _ in range(5):
        client.post(ADMIN_LOGIN, {"username": "boss", "password": "wrong"}, REMOTE_ADDR="10.0.0.7")

    response = client.post(
        ADMIN_LOGIN, {"username": "boss", "password": PASSWORD}, REMOTE_ADDR="10.0.0.7"
    )

    assert locked_out(response)
    assert not logged_in(client)


def test_admin_and_site_failures_count_together(client: Client, alice: object) -> None:
    for _ in range(3):
        client.post(ADMIN_LOGIN, {"username": "alice", "password": "wrong"}, REMOTE_ADDR="10.0.0.1")
    attempt(client, "alice", "wrong")

    assert locked_out(attempt(client, "alice", "wrong"))


def test_a_locked_player_still_logs_in_from_another_address(client: Client, alice: object) -> None:
    for _ in range(5):
        attempt(client, "alice", "wrong", ip="10.6.6.6")  # a stranger, trying to lock alice out

    attempt(client, "alice", PASSWORD, ip="10.1.1.1")

    assert logged_in(client)


def test_it_counts_the_userid_whatever_its_case(client: Client, alice: object) -> None:
    for name in ["alice", "ALICE", "Alice", "aLiCe"]:
        attempt(client, name, "wrong")

    assert locked_out(attempt(client, "alicE", "wrong"))


def test_it_logs_in_whatever_the_case_of_the_userid(client: Client, alice: object) -> None:
    attempt(client, "ALICE", PASSWORD)

    assert logged_in(client)
    assert client.session["_auth_user_id"] == str(alice.pk)  # type: ignore[attr-defined]


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


def test_the_lockout_ends_after_fifteen_minutes(client: Client, alice: object) -> None:
    with time_machine.travel("2030-01-01 12:00:00Z", tick=False) as clock:
        for _ in range(5):
            attempt(client, "alice", "wrong")
        clock.shift(14 * 60)
        assert locked_out(attempt(client, "alice", PASSWORD))

        clock.shift(61)
        attempt(client, "alice", PASSWORD)

    assert logged_in(client)


def test_a_password_reset_lifts_the_lock(client: Client, alice: object) -> None:
    for _ in range(5):
        attempt(client, "alice", "wrong")
    client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    attempt(client, "alice", NEW_PASSWORD)

    assert logged_in(client)


def test_failures_are_kept_in_the_database_for_every_app_server(
    client: Client, alice: object
) -> None:
    attempt(client, "ALICE", "wrong", ip="10.3.3.3")

    stored = AccessAttempt.objects.get()
    assert (stored.username, stored.ip_address, stored.failures_since_start) == (
        "alice",
        "10.3.3.3",
        1,
    )


def test_it_ignores_a_forged_forwarded_for_header_by_default(client: Client, alice: object) -> None:
    for number in range(5):
        attempt(client, "alice", "wrong", ip="10.2.2.2", HTTP_X_FORWARDED_FOR=f"192.0.2.{number}")

    assert locked_out(attempt(client, "alice", PASSWORD, ip="10.2.2.2"))


@pytest.mark.parametrize("forwarded", ["192.0.2.9", "10.8.8.8, 192.0.2.9"])
def test_behind_a_trusted_proxy_it_counts_the_last_forwarded_address(
    client: Client, alice: object, settings: Any, forwarded: str
) -> None:
    settings.TRUST_X_FORWARDED_FOR = True
    attempt(client, "alice", "wrong", ip="10.0.0.254", HTTP_X_FORWARDED_FOR=forwarded)

    assert AccessAttempt.objects.get().ip_address == "192.0.2.9"


def test_password_spraying_from_one_address_is_paused_across_userids(
    client: Client, alice: object, settings: Any
) -> None:
    """Issue 29: 60 wrong passwords over 15 userids from one address got no refusal. Four
    tries each at fifteen userids stay under the per-userid limit; the address's limit (30
    failures in the cool-off, whatever the userid) pauses every log-in from it."""
    assert settings.LOGIN_FAILURE_LIMIT_PER_ADDRESS == 30
    refusals = []
    for number in range(15):
        for _ in range(4):
            refusals.append(locked_out(attempt(client, f"player{number}", "wrong", ip="10.9.9.9")))
    # As the 5th failure for one userid, the 30th failure from the address is answered with
    # the pause, and so is every attempt after it.
    assert refusals.index(True) == 29
    assert all(refusals[29:])

    assert locked_out(attempt(client, "alice", PASSWORD, ip="10.9.9.9"))
    assert not logged_in(client)
    attempt(client, "alice", PASSWORD, ip="10.1.1.1")  # elsewhere, alice is welcome
    assert logged_in(client)


def test_the_api_token_call_shares_the_per_address_limit(client: Client, alice: object) -> None:
    for number in range(30):
        attempt(client, f"player{number}", "wrong", ip="10.9.9.8")
    response = client.post(
        "/api/v1/token", {"username": "alice", "password": PASSWORD},
        content_type="application/json", REMOTE_ADDR="10.9.9.8",
    )
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    assert "Too many failed log-in attempts" in response.json()["detail"]


def test_a_success_does_not_clear_the_address_count(client: Client, alice: object) -> None:
    for number in range(29):
        attempt(client, f"player{number}", "wrong", ip="10.9.9.7")
    attempt(client, "alice", PASSWORD, ip="10.9.9.7")
    assert logged_in(client)
    client.logout()
    assert locked_out(attempt(client, "bob", "wrong", ip="10.9.9.7"))  # the 30th failure
