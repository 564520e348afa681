"""The error pages (404, 403, CSRF failure, 500) wear the site's layout; 500 needs no database."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.views.defaults import permission_denied, server_error

LAYOUT = ('class="site-header"', 'href="#main"', 'class="site-footer"', "Gammon Turn")


def has_layout(body: str) -> bool:
    return all(part in body for part in LAYOUT)


def test_a_missing_page_is_a_friendly_404_for_a_visitor(client: Client, db: None) -> None:
    response = client.get("/no-such-page/")
    body = response.content.decode()
    assert response.status_code == 404
    assert has_layout(body)
    assert "<h1 id=\"error-heading\">Page not found</h1>" in body
    assert '<a class="button" href="/">Home page</a>' in body


def test_a_missing_game_sends_a_player_back_to_their_games(alice_client: Client) -> None:
    response = alice_client.get("/games/999999/")
    body = response.content.decode()
    assert response.status_code == 404
    assert has_layout(body) and "Logged in as" in body
    assert '<a class="button" href="/games/">Game status</a>' in body


def test_a_refusal_is_a_friendly_403(db: None) -> None:
    request = RequestFactory().get("/games/1/")
    request.user = AnonymousUser()
    response = permission_denied(request, PermissionDenied())
    body = response.content.decode()
    assert response.status_code == 403
    assert has_layout(body)
    assert "Not allowed" in body and "log in first" in body
    assert 'href="/accounts/login/?next=/games/1/"' in body


def test_a_stale_form_explains_itself(db: None) -> None:
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x", "password": "y"})
    body = response.content.decode()
    assert response.status_code == 403
    assert has_layout(body)
    assert "That form was out of date" in body and "CSRF verification failed" not in body


def test_the_500_page_has_the_layout_and_touches_no_database(settings: Any) -> None:
    # No ``db`` fixture: pytest-django fails any database query made here.
    settings.DEBUG = False
    response = server_error(RequestFactory().get("/"))
    body = response.content.decode()
    assert response.status_code == 500
    assert has_layout(body)
    assert "<title>Something went wrong · Gammon Turn</title>" in body
    assert "Logged in as" not in body


@pytest.mark.parametrize("template", ["404.html", "403.html", "403_csrf.html", "500.html"])
def test_each_error_template_is_the_sites_own(template: str) -> None:
    from django.template.loader import get_template

    origin = get_template(template).origin.name
    assert origin.endswith(f"templates/{template}") and "site-packages" not in origin


@pytest.mark.parametrize("debug", [True, False])
def test_a_game_an_outsider_may_not_see_is_the_sites_own_page_whether_private_or_missing(
    alice: Any, bob: Any, charlie_client: Client, settings: Any, debug: bool
) -> None:
    """Issue 29, item 18: a private game opened by someone else is the site's page saying the game
    is private or missing, in development too (not Django's technical 404); the same page and
    status as for a number no game has, so an outsider cannot tell that a private game exists."""
    from tests.site.gamebuilder import start_game

    settings.DEBUG = debug
    game = start_game(alice, bob)
    type(game).objects.filter(pk=game.pk).update(private_white=True)
    missing = game.pk + 1000
    for number in (game.pk, missing):
        response = charlie_client.get(f"/games/{number}/")
        body = response.content.decode()
        assert response.status_code == 404
        assert has_layout(body) and "Logged in as" in body, body[:300]
        assert f"Game #{number} is private or does not exist" in body
        assert "Using the URLconf" not in body  # Django's technical page
        assert "alice" not in body.split('id="main"')[1] and "bob" not in body
    private, none = (charlie_client.get(f"/games/{number}/").content.decode()
                     .split('id="main"')[1].split("</main>")[0].replace(f"#{number}", "#N")
                     for number in (game.pk, missing))
    assert private == none
