"""Issue 29 item 2: sign-up was not throttled (60 accounts in 3 runs from one address, all with
one e-mail), and "Tell a friend" then relayed the attacker's text from each. Now: sign-ups are
limited per address, one account per e-mail address whatever its case (the database too), and
invitations go out only from a confirmed address."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.admin import PlayerChangeForm
from accounts.email_confirmation import BAD_LINK, OLD_ADDRESS
from accounts.forms import EMAIL_TAKEN
from accounts.rate_limits import SIGNUP_REFUSED
from messaging.invitations import UNCONFIRMED

pytestmark = pytest.mark.django_db

User = get_user_model()
SIGNUP = reverse("accounts:signup")
PROFILE = reverse("accounts:profile")
INVITE = reverse("messaging:tell_a_friend")
PASSWORD = "correct-horse-battery"  # the personas' (tests/conftest.py)
migration = importlib.import_module("accounts.migrations.0010_email_once_and_confirmed")


def sign_up(client: Client, username: str, email: str, ip: str = "10.2.2.2") -> Any:
    data = {"username": username, "email": email,
            "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"}
    return client.post(SIGNUP, data, REMOTE_ADDR=ip)


def confirmation_link(message: Any) -> str:
    found = re.search(r"http://testserver(/accounts/email/confirm/[^/\s]+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_sign_ups_are_limited_per_address(settings: Any) -> None:
    assert (settings.SIGNUP_RATE_PER_ADDRESS_HOUR, settings.SIGNUP_RATE_PER_ADDRESS_DAY) == (
        "5/h", "20/d")
    codes = [sign_up(Client(), f"newbie{n}", f"newbie{n}@example.org").status_code for n in range(5)]
    assert codes == [302] * 5
    refused = sign_up(Client(), "newbie5", "newbie5@example.org")
    assert refused.status_code == 429
    assert SIGNUP_REFUSED in refused.content.decode()
    assert not User.objects.filter(username="newbie5").exists()
    assert sign_up(Client(), "newbie6", "newbie6@example.org", ip="10.3.3.3").status_code == 302


def test_a_form_with_mistakes_does_not_use_up_the_allowance() -> None:
    for _ in range(6):
        assert sign_up(Client(), "x", "newbie@example.org").status_code == 400  # userid too short
    assert sign_up(Client(), "newbie", "newbie@example.org").status_code == 302


def test_one_account_per_email_address_whatever_its_case(alice: Any) -> None:
    response = sign_up(Client(), "alias", "ALICE@Example.COM")
    assert response.status_code == 400
    assert EMAIL_TAKEN in response.content.decode()
    assert not User.objects.filter(username="alias").exists()


def test_the_profile_cannot_take_another_accounts_address(alice: Any, bob: Any,
                                                          client_for: Any) -> None:
    response = client_for(bob).post(PROFILE, {"email": "Alice@example.com",
                                              "current_password": PASSWORD})
    assert response.status_code == 400
    assert EMAIL_TAKEN in response.content.decode()
    bob.refresh_from_db()
    assert bob.email == "bob@example.com"


def test_the_database_refuses_a_second_account_with_one_address(alice: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("alias", "ALICE@example.com", PASSWORD)
    User.objects.create_user("bot1", "", PASSWORD)  # accounts without an address are not indexed
    User.objects.create_user("bot2", "", PASSWORD)


def test_the_migration_keeps_accounts_that_already_share_an_address(make_user: Any) -> None:
    with connection.schema_editor() as editor:
        migration.drop_index(apps, editor)
    first = make_user("first", email="same@example.com")
    second = make_user("second", email="SAME@example.com")
    with connection.schema_editor() as editor:
        migration.create_index(apps, editor)
    assert {first.email, second.email} == {"same@example.com", "SAME@example.com"}
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("third", email="Same@Example.com")
    make_user("fourth", email="other@example.com")


def test_invitations_need_a_confirmed_address_which_the_sign_up_mails_a_link_for() -> None:
    client = Client()
    assert sign_up(client, "newbie", "Newbie@example.org").status_code == 302
    [confirmation] = mail.outbox
    assert confirmation.to == ["Newbie@example.org"]
    link = confirmation_link(confirmation)

    refused = client.post(INVITE, {"email": "sam@example.org", "note": "Buy my stuff"})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert UNCONFIRMED in page and "Send me a confirmation link" in page
    assert len(mail.outbox) == 1  # nothing relayed

    shown = Client().get(link)  # a mail scanner's visit confirms nothing
    assert shown.status_code == 200 and "Newbie@example.org".lower() in shown.content.decode()
    assert client.post(INVITE, {"email": "sam@example.org"}).status_code == 400
    confirmed = Client().post(link)
    assert confirmed.status_code == 302
    assert client.post(INVITE, {"email": "sam@example.org"}).status_code == 302
    assert mail.outbox[-1].to == ["sam@example.org"]


def test_a_new_address_needs_its_own_confirmation(alice: Any, client_for: Any) -> None:
    client = client_for(alice)
    client.post(reverse("accounts:email_confirm_send"), {"back": "invite"})
    old_link = confirmation_link(mail.outbox[-1])
    assert Client().post(old_link).status_code == 302
    assert client.post(INVITE, {"email": "sam@example.org"}).status_code == 302

    assert client.post(PROFILE, {"email": "alice@new.example",
                                 "current_password": PASSWORD}).status_code == 302
    assert mail.outbox[-1].to == ["alice@new.example"]
    new_link = confirmation_link(mail.outbox[-1])
    assert client.post(INVITE, {"email": "sam2@example.org"}).status_code == 400
    stale = Client().post(old_link)
    assert stale.status_code == 400 and escape(OLD_ADDRESS) in stale.content.decode()
    assert Client().post(new_link).status_code == 302
    assert client.post(INVITE, {"email": "sam2@example.org"}).status_code == 302


def test_a_broken_link_confirms_nothing(alice: Any, client_for: Any, settings: Any) -> None:
    client_for(alice).post(reverse("accounts:email_confirm_send"))
    link = confirmation_link(mail.outbox[-1])
    forged = link.replace(link.split("/")[-2], link.split("/")[-2][:-2] + "xx")
    response = Client().post(forged)
    assert response.status_code == 400
    assert BAD_LINK.format(days=settings.EMAIL_CONFIRM_DAYS) in response.content.decode()
    alice.profile.refresh_from_db()
    assert alice.profile.confirmed_email == ""


def test_confirmation_mails_are_limited_per_player(alice: Any, client_for: Any) -> None:
    client = client_for(alice)
    for _ in range(4):
        client.post(reverse("accounts:email_confirm_send"))
    assert len(mail.outbox) == 3
    assert "Several confirmation links were sent" in client.get(PROFILE).content.decode()


def test_operators_cannot_give_an_account_another_ones_address(alice: Any, bob: Any) -> None:
    form = PlayerChangeForm(instance=bob, data={"username": "bob", "email": "ALICE@example.com"})
    assert not form.is_valid()
    assert form.errors["email"] == [
        "Another account already uses this e-mail address (one per address)."]


def test_a_race_past_the_forms_check_meets_the_database(alice: Any, bob: Any, client_for: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two requests with one address, both past the form's check: the index refuses the second,
    and the page says so as the form would (nothing saved)."""
    monkeypatch.setattr("accounts.forms.email_taken", lambda *_args, **_kwargs: False)
    signed = sign_up(Client(), "alias", "Alice@Example.com")
    assert signed.status_code == 400 and EMAIL_TAKEN in signed.content.decode()
    assert not User.objects.filter(username="alias").exists()
    changed = client_for(bob).post(PROFILE, {"email": "ALICE@example.com",
                                             "current_password": PASSWORD})
    assert changed.status_code == 400 and EMAIL_TAKEN in changed.content.decode()
    assert "bob@example.com" in changed.content.decode()
    bob.refresh_from_db()
    assert bob.email == "bob@example.com"
