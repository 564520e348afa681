"""The Tournaments pages: the list by area and status, Sign up and Withdraw, refusals with the
reason, the bracket and the table, the live region htmx polls, and staff replacing a player."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from tournament_play import win

from accounts.templatetags.players import player_link as link
from tournaments.models import Entry, Replacement, Tournament, TournamentMatch
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def make(admin_user: Any, name: str, format: str = "single_elimination", size: int = 4,
         **options: Any) -> Tournament:
    return tournament_create(staff=admin_user, name=name, variant="BX", format=format, size=size,
                             time_limit=timedelta(days=2), **options)


def fill(tournament: Tournament, players: list[Any]) -> Tournament:
    for player in players:
        tournament_join(tournament_id=tournament.pk, player=player)
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(f"p{n}") for n in range(1, 7)]


def test_the_list_shows_areas_statuses_and_the_buttons_the_service_allows(
    admin_user: Any, players: list[Any], alice: Any, alice_client: Any
) -> None:
    open_cup = make(admin_user, "Open cup")
    joined = fill(make(admin_user, "Joined cup"), [alice])
    fill(make(admin_user, "Full cup", size=2), players[:2])
    make(admin_user, "Casual cup", area="casual")
    html = alice_client.get(reverse("tournaments:tournaments")).content.decode()
    assert "<h2 id=\"area-standard\">Backgammon</h2>" in html
    assert "<h2 id=\"area-casual\">Casual backgammon</h2>" in html
    signup, running = html.split('id="area-standard-signup"')[1].split('id="area-standard-running"')
    assert "Sign up for Open cup" in signup and "Withdraw from Joined cup" in signup
    assert "1 of 4" in signup and "Single elimination" in signup and "2 days" in signup
    assert "Full cup" in running.split('id="area-standard-finished"')[0]
    assert "Sign up for Full cup" not in html and "Sign up for Casual cup" in html
    assert reverse("tournaments:tournament", args=[open_cup.pk]) in html
    assert joined.status == "signup"


def test_the_play_menu_links_the_page_and_strangers_see_no_buttons(
    admin_user: Any, alice_client: Any, client: Any
) -> None:
    make(admin_user, "Open cup")
    assert reverse("tournaments:tournaments") in alice_client.get(reverse("backgammon:status")).content.decode()
    html = client.get(reverse("tournaments:tournaments")).content.decode()
    assert "Open cup" in html and "Sign up for Open cup" not in html and "<form" not in html.split("<main")[1]


def test_sign_up_and_withdraw_through_the_page(admin_user: Any, alice: Any, alice_client: Any) -> None:
    cup = make(admin_user, "Open cup")
    joined = alice_client.post(reverse("tournaments:tournament_join", args=[cup.pk]), follow=True)
    assert "You signed up for Open cup." in joined.content.decode()
    assert Entry.objects.filter(tournament=cup, player=alice).exists()
    left = alice_client.post(reverse("tournaments:tournament_leave", args=[cup.pk]), follow=True)
    assert "You withdrew from Open cup." in left.content.decode()
    assert not Entry.objects.exists()


def test_refusals_show_the_reason_with_a_4xx_and_change_nothing(
    admin_user: Any, players: list[Any], alice: Any, alice_client: Any
) -> None:
    full = fill(make(admin_user, "Full cup", size=2), players[:2])
    late = alice_client.post(reverse("tournaments:tournament_join", args=[full.pk]))
    assert late.status_code == 409
    assert "This tournament is no longer taking sign-ups" in late.content.decode()
    casual = fill(make(admin_user, "Casual cup", area="casual"), [alice])
    standard = make(admin_user, "Standard cup")
    other_area = alice_client.post(reverse("tournaments:tournament_join", args=[standard.pk]))
    assert other_area.status_code == 409 and "only one of the two areas" in other_area.content.decode()
    not_in = alice_client.post(reverse("tournaments:tournament_leave", args=[standard.pk]))
    assert not_in.status_code == 409 and "You are not signed up" in not_in.content.decode()
    missing = alice_client.post(reverse("tournaments:tournament_join", args=[999999]))
    assert missing.status_code == 404 and "There is no such tournament" in missing.content.decode()
    assert Entry.objects.filter(player=alice).get().tournament == casual
    assert alice_client.get(reverse("tournaments:tournament_join", args=[standard.pk])).status_code == 405


def test_a_single_elimination_bracket_shows_rounds_byes_games_and_the_winner(
    admin_user: Any, players: list[Any], client: Any
) -> None:
    cup = fill(make(admin_user, "Bye cup", size=3), players[:3])
    html = client.get(reverse("tournaments:tournament", args=[cup.pk])).content.decode()
    assert "Semi-finals" in html and "Final" in html and "bracket--columns" in html
    assert "bracket__player--bye\">bye</span>" in html
    played = TournamentMatch.objects.get(tournament=cup, round=1, bye=False)
    # A visitor gets no game link (the game page needs a log-in); see test_tournament_game_links.
    assert reverse("backgammon:game", args=[played.game_id]) not in html
    assert "to be decided" in html and 'hx-trigger="live:changed, live:poll"' in html
    assert f'data-live-topic="tournament-{cup.pk}"' in html
    win(played.game, played.player_a)
    final = TournamentMatch.objects.get(tournament=cup, round=2)
    win(final.game, final.player_b)
    html = client.get(reverse("tournaments:tournament", args=[cup.pk])).content.decode()
    assert f'tournament-winner">{link(final.player_b)}<' in html
    assert "Final standings" in html and "hx-trigger" not in html.split('id="tournament-live"')[1]


def test_double_elimination_lists_rounds_per_bracket(admin_user: Any, players: list[Any],
                                                      client: Any) -> None:
    cup = fill(make(admin_user, "Double cup", format="double_elimination", size=4), players[:4])
    for match in TournamentMatch.objects.filter(tournament=cup, round=1):
        win(match.game, match.player_a)
    html = client.get(reverse("tournaments:tournament", args=[cup.pk])).content.decode()
    assert "Round 1, unbeaten" in html and "Round 2, unbeaten" in html
    assert "Round 2, once beaten" in html


def test_round_robin_shows_the_table_and_the_matches(admin_user: Any, players: list[Any],
                                                      client: Any) -> None:
    cup = fill(make(admin_user, "Table cup", format="round_robin", size=3), players[:3])
    first = TournamentMatch.objects.filter(tournament=cup).first()
    assert first is not None
    win(first.game, first.player_b)
    html = client.get(reverse("tournaments:tournament", args=[cup.pk])).content.decode()
    assert "<h2 id=\"standings\">Standings</h2>" in html and "Round 1" in html and "Round 3" in html
    table = html.split('id="standings"')[1].split("</table>")[0]
    leader = first.player_b.get_username()
    assert f'data-label="Player">{link(leader)}</td><td role="cell" data-label="Wins">1</td>' in table
    assert "bracket--columns" not in html


def test_the_asked_partial_is_the_live_region_which_stops_listening_when_finished(
    admin_user: Any, players: list[Any], client: Any
) -> None:
    cup = fill(make(admin_user, "Duel", size=2), players[:2])
    url = reverse("tournaments:tournament", args=[cup.pk])
    live = client.get(url, **HTMX)
    body = live.content.decode()
    assert live.status_code == 200
    assert body.strip().startswith('<div id="tournament-live"') and "<html" not in body
    match = TournamentMatch.objects.get(tournament=cup)
    win(match.game, match.player_a)
    over = client.get(url, **HTMX)
    assert over.status_code == 200 and "hx-trigger" not in over.content.decode()
    assert f'tournament-winner">{link(match.player_a)}<' in over.content.decode()
    assert client.get(reverse("tournaments:tournament", args=[999999])).status_code == 404


def test_staff_replace_a_player_on_the_page_and_others_may_not(
    admin_user: Any, admin_client: Any, players: list[Any], alice_client: Any
) -> None:
    cup = fill(make(admin_user, "Open cup"), players[:2])
    url = reverse("tournaments:tournament_replace", args=[cup.pk])
    form = {"old": "p1", "new": "p5", "reason": "Gone abroad"}
    assert "Replace a player (staff)" not in alice_client.get(
        reverse("tournaments:tournament", args=[cup.pk])).content.decode()
    refused = alice_client.post(url, form)
    assert refused.status_code == 403 and "Only staff can replace a player" in refused.content.decode()
    unknown = admin_client.post(url, {**form, "new": "nobody"})
    assert unknown.status_code == 400 and "Name two players" in unknown.content.decode()
    assert not Replacement.objects.exists()
    done = admin_client.post(url, form, follow=True)
    html = done.content.decode()
    assert "p5 replaced p1." in html
    assert f"{link('p5')} replaced {link('p1')} (Gone abroad, {link('admin')}" in html
    assert set(Entry.objects.values_list("player__username", flat=True)) == {"p2", "p5"}


def test_the_player_page_and_the_profile_show_tournaments_won_and_recent_places(
    admin_user: Any, players: list[Any], client: Any, client_for: Any
) -> None:
    cup = fill(make(admin_user, "Spring cup", size=2), players[:2])
    make(admin_user, "Summer cup")
    match = TournamentMatch.objects.get(tournament=cup)
    winner, loser = match.player_a, match.player_b
    win(match.game, winner)
    champion = client.get(reverse("people:profile", args=[winner.get_username()])).content.decode()
    cup_url = reverse("tournaments:tournament", args=[cup.pk])
    assert f'Won: <a href="{cup_url}">Spring cup</a>.' in champion
    assert "Spring cup</a>: place 1 of 2" in champion and "Summer cup" not in champion
    profile = client_for(loser).get(reverse("accounts:profile")).content.decode()
    assert "No tournament won yet." in profile and "Spring cup</a>: place 2 of 2" in profile


def test_a_knock_outs_two_beaten_semi_finalists_share_third_place_on_the_page(
    admin_user: Any, players: list[Any], client: Any
) -> None:
    """Issue 29, item 19: a knock-out has no 4th place; both semi-final losers are 3rd."""
    cup = fill(make(admin_user, "Four cup", size=4), players[:4])
    for match in TournamentMatch.objects.filter(tournament=cup, round=1):
        win(match.game, match.player_a)
    final = TournamentMatch.objects.get(tournament=cup, round=2)
    win(final.game, final.player_a)
    html = client.get(reverse("tournaments:tournament", args=[cup.pk])).content.decode()
    table = html.split('id="standings"')[1].split("</table>")[0]
    places = [cell.split("<")[0] for cell in table.split('data-label="Place">')[1:]]
    assert places == ["1", "2", "3", "3"]
