"""The public profile at /players/<userid>/: what it shows, its buttons, and its query bound."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from gamebuilder import fast_passwords, start_game  # noqa: F401
from tournament_play import win

from accounts.models import Profile
from accounts.relations import relation_set
from tournaments.ladders import ladder_create, ladder_join

pytestmark = pytest.mark.django_db


def profile_html(client: Client, username: str) -> str:
    response = client.get(f"/players/{username}/")
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_bio_escaped_country_local_time_and_presence(bob: Any, alice_client: Client) -> None:
    Profile.objects.filter(user=bob).update(
        bio="Slow player.\n<script>alert(1)</script>", country="NZ",
        time_zone="Pacific/Auckland", last_seen=timezone.now(),
    )
    html = profile_html(alice_client, "BOB")
    assert "<p>Slow player.<br>&lt;script&gt;alert(1)&lt;/script&gt;</p>" in html
    assert "New Zealand" in html and "\U0001f1f3\U0001f1ff" in html  # the flag emoji
    local = timezone.now().astimezone(__import__("zoneinfo").ZoneInfo("Pacific/Auckland"))
    assert local.strftime("%H:") in html and "Pacific/Auckland" in html
    assert "online now" in html and "Member since" in html and "Not a member" in html


def test_last_seen_long_ago_is_not_online(bob: Any, alice_client: Client) -> None:
    Profile.objects.filter(user=bob).update(last_seen=timezone.now() - timedelta(hours=3))
    html = profile_html(alice_client, "bob")
    assert "online now" not in html and "3\xa0hours ago" in html


def test_record_current_games_and_ladder_places(alice: Any, bob: Any, charlie: Any, settings: Any,
                                                alice_client: Client) -> None:
    win(start_game(bob, charlie, "BX"), bob)
    win(start_game(charlie, bob, "BX"), charlie)
    win(start_game(bob, alice, "BN"), bob)
    active = start_game(alice, bob, "BP")
    staff = Profile.objects.get(user=charlie).user
    staff.is_staff = True
    staff.save()
    ladder = ladder_create(staff=staff, name="Evening ladder", variant="BX", match_length=None,
                           time_limit=timedelta(days=2))
    ladder_join(ladder_id=ladder.pk, player=alice)
    ladder_join(ladder_id=ladder.pk, player=bob)
    html = profile_html(alice_client, "bob")
    assert "2 won, 1 lost" in html
    assert "<td>BX</td><td>1</td><td>1</td>" in html and "<td>BN</td><td>1</td><td>0</td>" in html
    assert f'href="/games/{active.pk}/"' in html and "Current games <span class=\"muted\">(1)" in html
    assert "Evening ladder</a>: place 2" in html


def test_buttons_for_another_player_follow_the_relation(bob: Any, alice: Any, alice_client: Client) -> None:
    html = profile_html(alice_client, "bob")
    assert 'href="/games/new/?opponent=bob"' in html and 'href="/messages/new/?to=bob"' in html
    assert "Add buddy" in html and ">Ignore<" in html
    relation_set(owner=alice, username="bob", kind="buddy")
    html = profile_html(alice_client, "bob")
    assert "Remove buddy" in html and "Add buddy" not in html
    relation_set(owner=alice, username="bob", kind="ignore")
    html = profile_html(alice_client, "bob")
    assert "Unignore" in html and "/games/new/?opponent=bob" not in html


def test_the_challenge_button_prefills_the_new_game_form(bob: Any, alice_client: Client) -> None:
    form = alice_client.get("/games/new/?opponent=bob").content.decode()
    assert 'name="opponent" value="bob"' in form


def test_buttons_add_and_remove_from_the_profile_and_come_back(bob: Any, alice: Any,
                                                               alice_client: Client) -> None:
    back = alice_client.post(reverse("accounts:buddies"), {"username": "bob", "next": "/players/bob/"})
    assert back.status_code == 302 and back["Location"] == "/players/bob/"
    assert "Remove buddy" in profile_html(alice_client, "bob")


def test_own_profile_links_to_editing_and_strangers_see_no_buttons(alice: Any, alice_client: Client,
                                                                   client: Client) -> None:
    html = profile_html(alice_client, "alice")
    assert "Edit your profile" in html and "Add buddy" not in html
    html = profile_html(client, "alice")
    assert "Add buddy" not in html and "Challenge" not in html and "Edit your profile" not in html


def test_unknown_and_inactive_players_are_404(bob: Any, client: Client) -> None:
    assert client.get("/players/nobody/").status_code == 404
    bob.is_active = False
    bob.save()
    assert client.get("/players/bob/").status_code == 404
    assert client.post("/players/alice/").status_code in (404, 405)


def test_player_link_points_at_the_profile(alice: Any) -> None:
    from accounts.templatetags.players import player_link

    assert player_link(alice) == '<a class="player-link" href="/players/alice/">alice</a>'
    assert reverse("people:profile", args=["alice"]) == "/players/alice/"


def test_here_is_not_a_userid_anyone_can_take(client: Client) -> None:
    response = client.post(reverse("accounts:signup"), {
        "username": "Here", "email": "h@example.com",
        "password1": "correct-horse-battery", "password2": "correct-horse-battery"})
    assert response.status_code == 400 and "That userid is taken" in response.content.decode()


def test_queries_stay_bounded_however_many_games(alice: Any, bob: Any, charlie: Any,
                                                 alice_client: Client,
                                                 django_assert_max_num_queries: Any) -> None:
    def count_queries() -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            profile_html(alice_client, "bob")
        return len(captured)

    start_game(bob, charlie, "BX")
    count_queries()  # the first page of a session also marks the viewer as here
    few = count_queries()
    for _ in range(6):
        start_game(bob, charlie, "BP")
        win(start_game(charlie, bob, "BX"), bob)
    assert count_queries() == few
    with django_assert_max_num_queries(30):
        profile_html(alice_client, "bob")


ABOUT = reverse("accounts:about_save")


def test_edit_profile_saves_bio_country_and_time_zone(alice: Any, alice_client: Client) -> None:
    response = alice_client.post(ABOUT, {"about-bio": "Hi <b>there</b>", "about-country": "FR",
                                         "about-time_zone": "Europe/Paris"})
    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.bio, profile.country.code, profile.time_zone) == ("Hi <b>there</b>", "FR", "Europe/Paris")
    page = alice_client.get(reverse("accounts:profile")).content.decode()
    assert 'name="about-bio"' in page and 'enctype="multipart/form-data"' in page


@pytest.mark.parametrize(("field", "value", "message"), [
    ("about-time_zone", "Mars/Olympus_Mons", "Select a valid choice"),
    ("about-time_zone", "../../etc/passwd", "Select a valid choice"),
    ("about-country", "XX", "is not one of the available choices"),
    ("about-bio", "x" * 1001, "at most 1000 characters"),
])
def test_bad_profile_values_are_refused_and_change_nothing(alice: Any, alice_client: Client, field: str,
                                                           value: str, message: str) -> None:
    data = {"about-bio": "kept", "about-country": "", "about-time_zone": "", field: value}
    response = alice_client.post(ABOUT, data)
    assert response.status_code == 400 and message in response.content.decode()
    profile = Profile.objects.get(user=alice)
    assert (profile.bio, profile.country.code, profile.time_zone) == ("", "", "")


def test_editing_needs_a_log_in_and_a_post(alice: Any, client: Client, alice_client: Client) -> None:
    response = client.post(ABOUT, {"about-bio": "sneaky"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert alice_client.get(ABOUT).status_code == 405
    assert Profile.objects.get(user=alice).bio == ""
