"""Sign-up, log-in, log-out, change password, reset by e-mail, and the profile page."""

from __future__ import annotations

import re
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import CheckerColours, Profile

User = get_user_model()
PASSWORD = "correct-horse-battery"  # the personas' password (tests/conftest.py)
NEW_PASSWORD = "a-brand-new-passphrase"


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "username": "dora_99",
        "email": "dora@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(overrides)
    return data


# --- sign-up -------------------------------------------------------------------------------


def test_it_creates_a_userid_with_profile_and_logs_in(client: Client, db: None) -> None:
    response = client.post(reverse("accounts:signup"), signup_data())

    assert response.status_code == 302
    user = User.objects.get(username="dora_99")
    assert user.email == "dora@example.com"
    assert user.check_password(PASSWORD)
    assert user.profile.checker_colours == CheckerColours.BLACK_WHITE
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get(response["Location"], follow=True)
    assert b"Welcome, dora_99" in page.content


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"username": "al"}, "username", "3 to 20 characters"),
        ({"username": "a" * 21}, "username", "at most 20 characters"),
        ({"username": "dora smith"}, "username", "letters, digits, _ and -"),
        ({"username": "dóra"}, "username", "letters, digits, _ and -"),
        ({"email": "not-an-address"}, "email", "valid email"),
        ({"password2": "something-else-entirely"}, "password2", "two passwords differ"),
        ({"password1": "short", "password2": "short"}, "password1", "too short"),
        ({"password1": "password123", "password2": "password123"}, "password1", "too common"),
    ],
)
def test_it_refuses_bad_sign_up_and_creates_nothing(
    client: Client, db: None, overrides: dict[str, str], field: str, message: str
) -> None:
    response = client.post(reverse("accounts:signup"), signup_data(**overrides))

    assert response.status_code == 400
    errors = " ".join(response.context["form"].errors[field])
    assert message in errors
    assert message.encode() in response.content.replace(b"&#x27;", b"'")
    assert User.objects.filter(bot=None).count() == 0
    assert Profile.objects.filter(user__bot=None).count() == 0
    assert "_auth_user_id" not in client.session


def test_it_treats_userids_case_insensitively(client: Client, alice: object) -> None:
    response = client.post(reverse("accounts:signup"), signup_data(username="ALICE"))

    assert response.status_code == 400
    assert "taken" in response.context["form"].errors["username"][0]
    assert User.objects.filter(bot=None).count() == 1


def test_it_sends_a_logged_in_user_away_from_sign_up(alice_client: Client) -> None:
    response = alice_client.get(reverse("accounts:signup"))
    assert response.status_code == 302


# --- log-in and log-out ---------------------------------------------------------------------


def test_it_logs_in_with_the_right_password(client: Client, alice: object) -> None:
    response = client.post(
        reverse("accounts:login"), {"username": "alice", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)  # type: ignore[attr-defined]


def test_it_refuses_a_wrong_password_with_a_clear_message(client: Client, alice: object) -> None:
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert b"That userid and password do not match" in response.content
    assert "_auth_user_id" not in client.session


def test_it_enforces_csrf_on_log_in(alice: object) -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


def test_it_logs_in_with_a_csrf_token_from_the_form(alice: object) -> None:
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("accounts:login"))
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content)
    assert token is not None

    response = client.post(
        reverse("accounts:login"),
        {"username": "alice", "password": PASSWORD, "csrfmiddlewaretoken": token.group(1).decode()},
    )

    assert response.status_code == 302


def test_it_refuses_log_out_by_get(alice_client: Client) -> None:
    response = alice_client.get(reverse("accounts:logout"))

    assert response.status_code == 405
    assert "_auth_user_id" in alice_client.session


def test_it_logs_out_by_post(alice_client: Client) -> None:
    response = alice_client.post(reverse("accounts:logout"), follow=True)

    assert response.status_code == 200
    assert "_auth_user_id" not in alice_client.session
    assert b"You are logged out" in response.content


# --- change password ------------------------------------------------------------------------


def test_it_changes_the_password(alice_client: Client, alice: object) -> None:
    response = alice_client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.check_password(NEW_PASSWORD)  # type: ignore[attr-defined]
    # The session survives its own password change.
    assert alice_client.get(reverse("accounts:profile")).status_code == 200


@pytest.mark.parametrize(
    "data",
    [
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": "different-one-here"},
        {"old_password": PASSWORD, "new_password1": "12345678", "new_password2": "12345678"},
    ],
)
def test_it_refuses_a_bad_password_change_and_keeps_the_old_one(
    alice_client: Client, alice: object, data: dict[str, str]
) -> None:
    response = alice_client.post(reverse("accounts:password_change"), data)

    assert response.status_code == 200
    assert response.context["form"].errors
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.check_password(PASSWORD)  # type: ignore[attr-defined]


def test_it_asks_for_log_in_before_changing_password(client: Client, db: None) -> None:
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


# --- password reset by e-mail ---------------------------------------------------------------


def test_it_resets_a_forgotten_password_by_e_mail(client: Client, alice: object) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert "Gammon Turn" in message.subject
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", message.body)
    assert link is not None, message.body

    form_page = client.get(link.group(1), follow=True)
    assert b"Choose a new password" in form_page.content
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert done["Location"] == reverse("accounts:password_reset_complete")
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.check_password(NEW_PASSWORD)  # type: ignore[attr-defined]
    # The link works once.
    again = client.get(link.group(1), follow=True)
    assert b"This link no longer works" in again.content


def test_it_reveals_nothing_for_an_unknown_address(client: Client, alice: object) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})

    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def ask_for_reset(client: Client, email: str, ip: str = "10.0.0.1") -> Any:
    return client.post(reverse("accounts:password_reset"), {"email": email}, REMOTE_ADDR=ip)


def test_it_sends_at_most_three_reset_e_mails_an_hour_to_one_address(
    client: Client, alice: object
) -> None:
    with time_machine.travel("2030-01-01 12:00:00Z", tick=False) as clock:
        answers = [ask_for_reset(client, "alice@example.com", ip=f"10.0.0.{n}") for n in range(30)]
        assert len(mail.outbox) == 3
        assert [answer.status_code for answer in answers[:4]] == [302, 302, 302, 429]
        assert b"Too many password-reset e-mails" in answers[3].content

        clock.shift(60 * 60)
        ask_for_reset(client, "ALICE@example.com")

    assert len(mail.outbox) == 4


def test_it_allows_ten_reset_requests_an_hour_from_one_client_address(
    client: Client, make_user: Any
) -> None:
    for number in range(12):
        make_user(f"player{number}")

    answers = [ask_for_reset(client, f"player{n}@example.com", ip="10.4.4.4") for n in range(12)]

    assert len(mail.outbox) == 10
    assert [answer.status_code for answer in answers[-3:]] == [302, 429, 429]


def test_a_refused_reset_reveals_nothing_about_the_address(client: Client, alice: object) -> None:
    for email in ["alice@example.com", "nobody@example.com"]:
        for _ in range(3):
            ask_for_reset(client, email, ip="10.5.5.5")

    known = ask_for_reset(client, "alice@example.com", ip="10.5.5.6")
    unknown = ask_for_reset(client, "nobody@example.com", ip="10.5.5.6")

    assert known.status_code == unknown.status_code == 429
    assert b"Too many password-reset e-mails" in known.content
    assert b"Too many password-reset e-mails" in unknown.content


def test_it_refuses_a_forged_reset_link(client: Client, alice: object) -> None:
    url = reverse("accounts:password_reset_confirm", args=["MQ", "forged-token"])

    page = client.get(url, follow=True)

    assert b"This link no longer works" in page.content
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.check_password(PASSWORD)  # type: ignore[attr-defined]


# --- profile --------------------------------------------------------------------------------


def test_it_shows_the_profile(alice_client: Client) -> None:
    response = alice_client.get(reverse("accounts:profile"))

    assert response.status_code == 200
    assert b"alice" in response.content
    assert b"Joined" in response.content
    # Colours are chosen once, on Edit game boards beside its preview, not here as well.
    assert b'name="checker_colours"' not in response.content
    assert f'href="{reverse("accounts:board_settings")}"'.encode() in response.content


def test_it_saves_e_mail_and_the_doubling_choice(alice_client: Client, alice: object) -> None:
    response = alice_client.post(
        reverse("accounts:profile"),
        {"email": "alice@new.example", "current_password": PASSWORD},
    )

    assert response.status_code == 302
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.email == "alice@new.example"  # type: ignore[attr-defined]
    assert alice.profile.confirm_double is False  # type: ignore[attr-defined]  # an unticked box


def test_the_profile_form_leaves_the_checker_colours_alone(alice_client: Client, alice: object) -> None:
    alice_client.post(
        reverse("accounts:profile"),
        {"email": "alice@example.com", "checker_colours": CheckerColours.RED_BLUE, "confirm_double": "on"},
    )

    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.profile.checker_colours == "black-white"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "data",
    [
        {"email": "broken"},
        {"email": ""},
        {},
    ],
)
def test_it_refuses_a_bad_profile_and_changes_nothing(
    alice_client: Client, alice: object, data: dict[str, str]
) -> None:
    response = alice_client.post(reverse("accounts:profile"), data)

    assert response.status_code == 400
    assert b'class="errorlist' in response.content
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.email == "alice@example.com"  # type: ignore[attr-defined]
    assert alice.profile.confirm_double is True  # type: ignore[attr-defined]


def test_it_saves_the_doubling_choice_without_the_password_when_the_e_mail_stays(
    alice_client: Client, alice: object
) -> None:
    response = alice_client.post(reverse("accounts:profile"), {"email": "alice@example.com"})

    assert response.status_code == 302
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.profile.confirm_double is False  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("", b"Please type your current password to change your e-mail."),
        ("not-my-password", b"That is not your current password, so your e-mail address is"),
    ],
)
def test_changing_the_e_mail_needs_the_current_password(
    alice_client: Client, alice: object, password: str, message: bytes
) -> None:
    response = alice_client.post(
        reverse("accounts:profile"),
        {"email": "thief@evil.example", "current_password": password},
    )

    assert response.status_code == 400
    assert message in response.content
    alice.refresh_from_db()  # type: ignore[attr-defined]
    assert alice.email == "alice@example.com"  # type: ignore[attr-defined]
    assert alice.profile.confirm_double is True  # type: ignore[attr-defined]


def test_it_asks_for_log_in_before_the_profile(client: Client, db: None) -> None:
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302


def test_every_user_gets_a_profile_however_made(db: None) -> None:
    admin = User.objects.create_superuser("root_admin", "root@example.com", PASSWORD)
    assert Profile.objects.filter(user=admin).exists()


def test_the_database_refuses_a_userid_differing_only_in_case(alice: object) -> None:
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("Alice", "other@example.com", PASSWORD)
    assert User.objects.filter(bot=None).count() == 1


def test_a_sign_up_losing_the_race_gets_a_clear_message(
    client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The form's check passes, then another sign-up takes the userid before ours is saved.
    from accounts import forms

    monkeypatch.setattr(forms.SignUpForm, "clean_username", lambda self: self.cleaned_data["username"])
    User.objects.create_user("DORA_99", "first@example.com", PASSWORD)

    response = client.post(reverse("accounts:signup"), signup_data())

    assert response.status_code == 400
    assert "taken" in response.context["form"].errors["username"][0]
    assert list(User.objects.filter(bot=None).values_list("username", flat=True)) == ["DORA_99"]
    assert "_auth_user_id" not in client.session
