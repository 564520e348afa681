"""Visitors (not logged in): every item of their menus opens a page, none the log-in page; the
Waiting Room, the ladders, the tournaments and Who is here are theirs to read; and nothing
private reaches them (e-mail addresses, private games). Alice and Bob play a private game;
Charlie, on a ladder and in a tournament, plays in the open."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from test_menus import menus

from backgammon.models import Game
from backgammon.services import open_challenge_create
from tournaments.ladders import ladder_create, ladder_join
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db

VISITOR_MENUS = {
    "Play": ["Waiting Room"],
    "Spy": ["Ladder area", "Tournament area", "Who is here?", "Search user profiles", "Dice statistics"],
    "Account": ["Log in", "Create new userid", "Forgot password", "News"],
    "Help": ["Tutorial", "Rules", "Features and tips", "Dice FAQ", "Ratings", "Analysis board"],
}


@pytest.fixture
def a_lived_in_site(alice: Any, bob: Any, charlie: Any, make_user: Any) -> dict[str, Any]:
    staff = make_user("steward")
    staff.is_staff = True
    staff.save()
    private = Game.objects.create(variant="BX", black=alice, white=bob, time_limit=timedelta(days=1),
                                  private_black=True)
    ladder = ladder_create(staff=staff, name="Open ladder", variant="BX", match_length=None,
                           time_limit=timedelta(days=2))
    ladder_join(ladder_id=ladder.pk, player=charlie)
    cup = tournament_create(staff=staff, name="Spring cup", variant="BX", format="single_elimination",
                            size=4, time_limit=timedelta(days=2))
    tournament_join(tournament_id=cup.pk, player=charlie)
    open_challenge_create(challenger=charlie, variant="BX", match_length=None, time_limit=timedelta(days=1),
                          rated=True, message="", jacoby=False, beavers=False, automatic_doubles=0, stake=None)
    for user in (alice, bob, charlie):
        user.profile.last_seen = user.date_joined
        user.profile.save(update_fields=["last_seen"])
    return {"private": private, "ladder": ladder, "cup": cup}


def test_every_menu_item_opens_a_page_and_none_asks_for_a_log_in(client: Client, a_lived_in_site: Any) -> None:
    shown = menus(client.get("/").content.decode())
    assert {title: [name for name, _ in items] for title, items in shown.items()} == VISITOR_MENUS
    for title, items in shown.items():
        for name, href in items:
            response = client.get(href)
            assert response.status_code == 200, (title, name, href, response.get("Location"))


def test_the_pages_visitors_open_show_nothing_private(client: Client, a_lived_in_site: Any) -> None:
    pages = [href for items in menus(client.get("/").content.decode()).values() for _, href in items]
    pages += ["/players/alice/", "/players/charlie/", "/players/?q=a", f"/tournaments/{a_lived_in_site['cup'].pk}/"]
    private = a_lived_in_site["private"]
    for href in pages:
        html = client.get(href).content.decode()
        assert "@example.com" not in html, href
        assert f"/games/{private.pk}/" not in html and f"#{private.pk}<" not in html, href


def test_the_rooms_a_visitor_reads_offer_sign_up_not_forms(client: Client, a_lived_in_site: Any) -> None:
    room = client.get("/games/waiting-room/").content.decode()
    assert ">charlie</a>" in room and "Sign up to join" in room
    assert '<form method="post"' not in room.split('id="main"')[1]
    ladders = client.get("/ladders/").content.decode()
    assert "Open ladder" in ladders and ">charlie</a>" in ladders
    assert '<form method="post"' not in ladders.split('id="main"')[1]
    tournaments = client.get("/tournaments/").content.decode()
    assert "Spring cup" in tournaments and '<form method="post"' not in tournaments.split('id="main"')[1]


def test_sign_up_brings_the_visitor_back_where_they_were(client: Client, a_lived_in_site: Any) -> None:
    room = "/games/waiting-room/"
    form = client.get(f"/accounts/signup/?next={room}").content.decode()
    assert f'name="next" value="{room}"' in form and f"/accounts/login/?next={room}" in form
    data = {"username": "newbie", "email": "newbie@example.org", "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9"}
    response = client.post("/accounts/signup/", {**data, "next": room})
    assert response.status_code == 302 and response["Location"] == room
    assert get_user_model().objects.filter(username="newbie").exists()


def test_sign_up_never_sends_a_visitor_to_another_site(client: Client) -> None:
    data = {"username": "newbie", "email": "newbie@example.org", "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9", "next": "https://evil.example/"}
    response = client.post("/accounts/signup/", data)
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_players_menus_keep_the_watch_games_item(alice_client: Client) -> None:
    shown = menus(alice_client.get("/").content.decode())
    assert "Watch games" in [name for name, _ in shown["Spy"]]


def test_a_profile_lists_a_private_game_to_its_players_only(
    a_lived_in_site: Any, client: Client, alice_client: Client, charlie_client: Client
) -> None:
    link = f'href="/games/{a_lived_in_site["private"].pk}/"'
    assert link in alice_client.get("/players/bob/").content.decode()
    assert link not in charlie_client.get("/players/bob/").content.decode()
    assert link not in client.get("/players/bob/").content.decode()
    # The region the profile's live update asks for (htmx) follows the same rule.
    assert link in alice_client.get("/players/bob/", HTTP_HX_REQUEST="true").content.decode()
    assert link not in charlie_client.get("/players/bob/", HTTP_HX_REQUEST="true").content.decode()
    # Nor is it counted for anyone else (issue 29, item 5), on the profile or on Who is here.
    count = 'Current games <span class="muted">({})</span>'
    assert count.format(1) in alice_client.get("/players/bob/").content.decode()
    for page in (charlie_client, client):
        assert count.format(0) in page.get("/players/bob/").content.decode()
    here = {who: view.get("/players/here/").content.decode() for who, view in (("alice", alice_client),
                                                                               ("charlie", charlie_client))}
    assert "playing 1 game" in here["alice"] and "playing 1 game" not in here["charlie"]


def test_the_welcome_page_leads_a_visitor_only_to_pages_they_may_read(client: Client, a_lived_in_site: Any) -> None:
    main = client.get("/").content.decode().split('id="main"')[1].split("</main>")[0]
    links = set(re.findall(r'href="(/[^"]*)"', main))
    assert {"/games/waiting-room/", "/ladders/", "/tournaments/", "/help/tutorial/"} <= links
    for href in links:
        assert client.get(href).status_code == 200, href
