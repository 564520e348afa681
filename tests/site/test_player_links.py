"""Every player's name on the status, game, ladder, tournament and replay pages is a link to
their profile (and never inside the board's SVG)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from gamebuilder import fast_passwords, start_game  # noqa: F401
from tournament_play import win

from backgammon.services import challenge_create
from tournaments.ladders import ladder_create, ladder_join
from tournaments.models import TournamentMatch
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db


def linked_names(html: str) -> set[str]:
    return set(re.findall(r'<a class="player-link" href="/players/([^/"]+)/">\1</a>', html))


def test_the_status_page_links_opponents_and_challengers(alice: Any, bob: Any, charlie: Any,
                                                         alice_client: Client) -> None:
    start_game(alice, bob)
    challenge_create(challenger=charlie, opponent="alice", variant="BX", time_limit=timedelta(days=3))
    html = alice_client.get(reverse("backgammon:status")).content.decode()
    assert {"bob", "charlie"} <= linked_names(html)


def test_the_game_page_links_both_players_outside_the_board(alice: Any, bob: Any, charlie: Any,
                                                            client_for: Any) -> None:
    game = start_game(alice, bob)
    html = client_for(charlie).get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert {"alice", "bob"} <= linked_names(html)
    for svg in re.findall(r"<svg.*?</svg>", html, flags=re.DOTALL):
        assert "player-link" not in svg


def test_the_ladder_page_links_every_rung(alice: Any, bob: Any, admin_user: Any, client: Client) -> None:
    ladder = ladder_create(staff=admin_user, name="Links", variant="BX", match_length=None,
                           time_limit=timedelta(days=2))
    ladder_join(ladder_id=ladder.pk, player=alice)
    ladder_join(ladder_id=ladder.pk, player=bob)
    assert {"alice", "bob"} <= linked_names(client.get(reverse("tournaments:ladders")).content.decode())


def test_the_tournament_pages_link_players_and_the_winner(alice: Any, bob: Any, admin_user: Any,
                                                          client: Client) -> None:
    cup = tournament_create(staff=admin_user, name="Cup", variant="BX", format="single_elimination",
                            size=2, time_limit=timedelta(days=2))
    tournament_join(tournament_id=cup.pk, player=alice)
    tournament_join(tournament_id=cup.pk, player=bob)
    win(TournamentMatch.objects.get(tournament=cup).game, alice)
    page = client.get(reverse("tournaments:tournament", args=[cup.pk])).content.decode()
    assert {"alice", "bob"} <= linked_names(page)
    assert "alice" in linked_names(client.get(reverse("tournaments:tournaments")).content.decode())


def test_names_are_escaped_inside_the_link(db: None) -> None:
    from accounts.templatetags.players import player_link

    assert player_link("<b>") == '<a class="player-link" href="/players/%3Cb%3E/">&lt;b&gt;</a>'
