"""The home page, the help pages and the shared layout."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from backgammon.engine.variants import VARIANTS


@pytest.mark.parametrize(
    ("name", "heading"),
    [
        ("help_rules", b"The rules of backgammon and its variants"),
        ("help_features", b"Features and tips"),
        ("help_dice", b"How the dice are rolled"),
    ],
)
def test_it_renders_each_help_page_for_visitors(
    client: Client, db: None, name: str, heading: bytes
) -> None:
    response = client.get(reverse(name))

    assert response.status_code == 200
    assert b"<h1>" + heading in response.content
    assert b'aria-current="page"' in response.content


def test_the_rules_cover_every_variant(client: Client, db: None) -> None:
    content = client.get(reverse("help_rules")).content.decode()

    for variant in VARIANTS.values():
        assert f">{variant.code}</th>" in content
        assert variant.name in content
    for topic in ["Crawford", "Jacoby", "Beavers", "Automatic doubles", "bar", "Bearing off", "Gammon"]:
        assert topic in content


def test_the_features_say_what_a_match_file_cannot_hold(client: Client, db: None) -> None:
    content = client.get(reverse("help_features")).content.decode()

    assert 'id="match-file"' in content
    for words in ["automatic doubles", "(BX, BN)", "Anti-Backgammon (BA)", "(BR, BS)"]:
        assert words in content


def test_the_features_explain_the_community_pages_and_link_to_each(client: Client, db: None) -> None:
    content = client.get(reverse("help_features")).content.decode()

    for section in ["find-opponents", "talk", "buddies", "your-site", "watching"]:
        assert f'id="{section}"' in content
    for page in ["backgammon:waiting_room", "backgammon:auto_match", "people:here", "people:search",
                 "messaging:inbox", "messaging:tell_a_friend", "accounts:buddies", "accounts:ignored",
                 "accounts:board_settings", "notices:settings", "backgammon:watch"]:
        assert f'href="{reverse(page)}"' in content, page


def test_the_dice_faq_explains_the_millisecond_table(client: Client, db: None) -> None:
    content = client.get(reverse("help_dice")).content.decode()

    assert "3,600,000" in content
    assert "keyed cryptographic hash" in content
    assert "one time in six" in content
    assert "1 in 46,656" in content


def test_the_home_page_welcomes_visitors(client: Client, db: None) -> None:
    content = client.get(reverse("home")).content.decode()

    assert "Gammon Turn" in content
    assert reverse("accounts:login") in content
    assert reverse("accounts:signup") in content


def test_the_home_page_shows_players_the_main_screen(alice_client: Client) -> None:
    response = alice_client.get(reverse("home"))

    # What to do now (tests/site/test_main_screen.py), with the way to all the player's games.
    assert response.status_code == 200
    assert reverse("backgammon:status") in response.content.decode()


def test_the_layout_is_accessible_and_loads_htmx(client: Client, db: None) -> None:
    content = client.get(reverse("help_rules")).content.decode()

    assert 'class="skip-link" href="#main"' in content
    assert '<main id="main"' in content
    assert '<nav id="main-nav" class="main-nav" aria-label="Main">' in content
    assert 'name="viewport"' in content
    assert "htmx" in content and "<script" in content
    assert "hx-headers='{\"X-CSRFToken\": \"" in content


def test_the_menu_offers_account_pages_to_visitors(client: Client, db: None) -> None:
    content = client.get(reverse("help_dice")).content.decode()

    assert "Create new userid" in content
    assert "Log in" in content
    assert "Log out" not in content


def test_the_menu_offers_log_out_as_a_form_to_players(alice_client: Client) -> None:
    content = alice_client.get(reverse("help_dice")).content.decode()

    assert f'<form method="post" action="{reverse("accounts:logout")}">' in content
    assert "Change password" in content
    assert "Logged in as" in content and "alice" in content
    assert "Create new userid" not in content


def test_the_static_stylesheet_is_served(client: Client, db: None) -> None:
    response = client.get("/static/css/site.css")

    assert response.status_code == 200
    assert b"--felt" in b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_auth_pages_keep_the_site_name_after_a_failed_log_in(client: Client, alice: object) -> None:
    # Django's LoginView sets its own site_name (the host) in the context; ours must survive.
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "x"})

    assert b'<span class="brand__name">Gammon Turn</span>' in response.content
    assert b"<span>testserver</span>" not in response.content


def test_the_features_say_the_home_page_is_the_main_screen_as_it_is(alice_client: Client) -> None:
    """Issue 29, item 20: the home page of a player is the main screen, not Game status."""
    content = alice_client.get(reverse("help_features")).content.decode()
    assert "game status page is your home page" not in content
    assert "your home page is the main screen" in content
    home = alice_client.get(reverse("home")).content.decode()
    assert "<title>Main screen" in home and 'id="games-waiting"' in home and "<h1>Game status</h1>" not in home
