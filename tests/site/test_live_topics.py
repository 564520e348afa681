"""Live pages beyond the game (issue 28, item 4): the Waiting Room, the ladders and tournaments,
a profile's current games, a finished game's analysis and the main screen hear of a change by a
pushed event on the stream they already hold, and then ask their own view.

Streams are read as in tests/site/test_live_push.py (the app server's ASGI application, the
in-memory layer); every change is made through the services, whose publications go out on
commit. What a browser does with the events (ask, spread, swap) is in
tests/e2e/test_live_pages_e2e.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client

from analysis.models import GameAnalysis
from analysis.services import analysis_request, analysis_run
from backgammon.engine.actions import Action
from backgammon.live_topics import open_pages, spread_ms, topic_mark, topic_messages
from backgammon.models import Challenge, Game
from backgammon.services import (
    challenge_create,
    challenge_decline,
    open_challenge_create,
    open_challenge_join,
    open_challenge_withdraw,
)
from tests.site.gamebuilder import act, scripted_dice, start_game
from tests.site.test_analysis import finish_a_short_game
from tests.site.test_live_push import LIVE, async_client_for, next_message, open_stream, run
from tests.site.tournament_play import win
from tournaments.ladders import ladder_create, ladder_join
from tournaments.models import TournamentMatch
from tournaments.tournaments import tournament_create, tournament_join

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HTTP_HX_REQUEST": "true"}
DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _no_app_server_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from backgammon import live

    monkeypatch.setattr(live, "_server_loop", None)


async def next_changed(stream: AsyncIterator[bytes], seconds: float = 1.0) -> dict[str, Any]:
    """The next ``changed`` event's data (a game's or status news on the way is skipped)."""
    while True:
        name, data = await next_message(stream, seconds)
        if name == "changed":
            return dict(data)


async def nothing_changed(stream: AsyncIterator[bytes], seconds: float = 0.3) -> bool:
    try:
        await next_changed(stream, seconds)
    except TimeoutError:
        return True
    return False


def test_the_waiting_room_hears_a_challenge_put_in_taken_and_withdrawn(alice: Any, bob: Any, charlie: Any) -> None:
    charlies_page = async_client_for(charlie)

    async def scenario() -> None:
        room = await open_stream(charlies_page, "?topic=lobby")
        first = await sync_to_async(open_challenge_create)(challenger=alice, variant="BP", time_limit=DAY)
        assert await next_changed(room) == {"topic": "lobby", "spread": 1000}
        second = await sync_to_async(open_challenge_create)(challenger=alice, variant="BX", time_limit=DAY)
        assert (await next_changed(room))["topic"] == "lobby"
        await sync_to_async(open_challenge_join)(challenge_id=first.pk, actor=bob)
        assert (await next_changed(room))["topic"] == "lobby"
        await sync_to_async(open_challenge_withdraw)(challenge_id=second.pk, actor=alice)
        assert (await next_changed(room))["topic"] == "lobby"
        # A named challenge is not the Waiting Room's: its page hears nothing of it.
        await sync_to_async(challenge_create)(challenger=alice, opponent="bob", variant="BP", time_limit=DAY)
        assert await nothing_changed(room)

    run(scenario)


def test_the_waiting_room_asks_for_its_list_alone(alice: Any, bob: Any, client_for: Callable[[Any], Client]) -> None:
    page = client_for(bob).get("/games/waiting-room/").content.decode()
    assert 'sse-connect="/live/?topic=lobby"' in page
    assert 'data-live-topic="lobby"' in page and 'hx-trigger="live:changed, live:poll"' in page
    challenge = open_challenge_create(challenger=alice, variant="BP", time_limit=DAY, message="<b>hi</b>")
    region = client_for(bob).get("/games/waiting-room/?variant=BP", **HX)
    html = region.content.decode()
    assert region.status_code == 200 and "<html" not in html and html.strip().startswith('<div id="open-challenges-live"')
    assert f'id="open-challenge-{challenge.pk}"' in html and "&lt;b&gt;hi&lt;/b&gt;" in html
    assert 'hx-get="/games/waiting-room/?variant=BP"' in html  # it keeps asking with the page's filters
    assert "HX-Request" in region["Vary"]
    # Filtered out: the same view, the same rules.
    assert f"open-challenge-{challenge.pk}" not in client_for(bob).get("/games/waiting-room/?variant=BX", **HX).content.decode()


def test_the_main_screen_hears_a_challenge_declined_and_asks_for_its_lists(
    alice: Any, bob: Any, client_for: Callable[[Any], Client]
) -> None:
    challenge = challenge_create(challenger=alice, opponent="bob", variant="BP", time_limit=DAY)
    main = client_for(bob).get("/").content.decode()
    assert 'id="main-screen"' in main and 'hx-trigger="sse:status, live:poll"' in main
    lists = client_for(bob).get("/", **HX).content.decode()
    assert lists.strip().startswith("<div class=\"main-screen\" id=\"main-screen\"") and "<html" not in lists
    assert "Challenges to you <span class=\"count\">(1)</span>" in lists
    alices_page = async_client_for(alice)
    bobs_page = async_client_for(bob)

    async def scenario() -> None:
        alices_screen, bobs_screen = await open_stream(alices_page), await open_stream(bobs_page)
        await sync_to_async(challenge_decline)(challenge_id=challenge.pk, actor=bob)
        for screen in (alices_screen, bobs_screen):  # her sent list, his received one
            assert (await next_message(screen))[0] == "status"

    run(scenario)
    assert "Challenges to you <span class=\"count\">(0)</span>" in client_for(bob).get("/", **HX).content.decode()


def test_a_tournament_page_and_the_list_hear_sign_ups_results_and_the_next_round(
    admin_user: Any, make_user: Callable[..., Any], client_for: Callable[[Any], Client]
) -> None:
    players = [make_user(f"p{number}") for number in range(4)]
    cup = tournament_create(staff=admin_user, name="Cup", variant="BX", format="single_elimination", size=4,
                            time_limit=timedelta(days=2))
    page = client_for(players[0]).get(f"/tournaments/{cup.pk}/").content.decode()
    assert f'sse-connect="/live/?topic=tournament-{cup.pk}"' in page
    assert 'sse-connect="/live/?topic=tournaments"' in client_for(players[0]).get("/tournaments/").content.decode()
    watcher = async_client_for(players[3])

    async def scenario() -> None:
        cup_page = await open_stream(watcher, f"?topic=tournament-{cup.pk}")
        area_page = await open_stream(watcher, "?topic=tournaments")
        for player in players:
            await sync_to_async(tournament_join)(tournament_id=cup.pk, player=player)
            assert await next_changed(cup_page) == {"topic": f"tournament-{cup.pk}", "spread": 1000}
            assert await next_changed(area_page) == {"topic": "tournaments", "spread": 1000}
        # Full: it started. A first-round result moves the winner on: the page hears it.
        match = await sync_to_async(lambda: TournamentMatch.objects.filter(tournament=cup, round=1)
                                    .select_related("game", "player_a").first())()
        await sync_to_async(win)(match.game, match.player_a)
        assert (await next_changed(cup_page))["topic"] == f"tournament-{cup.pk}"

    run(scenario)
    region = client_for(players[3]).get(f"/tournaments/{cup.pk}/", **HX).content.decode()
    assert region.strip().startswith('<div id="tournament-live"') and "won" in region


def test_the_ladders_page_hears_a_player_join(admin_user: Any, alice: Any, bob: Any,
                                              client_for: Callable[[Any], Client]) -> None:
    ladder = ladder_create(staff=admin_user, name="Main", variant="BX", match_length=None, time_limit=DAY * 3)
    assert 'sse-connect="/live/?topic=ladders"' in client_for(bob).get("/ladders/").content.decode()
    bobs_page = async_client_for(bob)

    async def scenario() -> None:
        ladders = await open_stream(bobs_page, "?topic=ladders")
        await sync_to_async(ladder_join)(ladder_id=ladder.pk, player=alice)
        assert (await next_changed(ladders))["topic"] == "ladders"

    run(scenario)
    region = client_for(bob).get("/ladders/", **HX).content.decode()
    assert region.strip().startswith('<div id="ladders-live"') and "alice" in region and "<html" not in region


def test_a_profile_hears_its_players_turns_but_not_their_rolls(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch, client_for: Callable[[Any], Client]
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(alice, bob, "BP", match_length=3)  # alice moves first; then bob may double
    profile = client_for(charlie).get("/players/alice/").content.decode()
    assert f'sse-connect="/live/?topic=player-{alice.pk}"' in profile
    assert f'data-live-topic="player-{alice.pk}"' in profile
    charlies_page = async_client_for(charlie)

    async def scenario() -> None:
        alices_profile = await open_stream(charlies_page, f"?topic=player-{alice.pk}")
        played = await sync_to_async(act)(game, alice, Action.play(((8, 5), (6, 5))))
        assert await next_changed(alices_profile) == {"topic": f"player-{alice.pk}", "spread": 1000}
        await sync_to_async(act)(played, bob, Action.roll(4, 2))  # a roll passes no turn
        assert await nothing_changed(alices_profile)

    run(scenario)
    region = client_for(charlie).get("/players/alice/", **HX).content.decode()
    assert region.strip().startswith('<div id="current-games-live"') and f"#{game.pk}" in region
    assert "<html" not in region


def test_a_topic_nobody_shows_is_not_published_and_many_pages_spread_their_asking() -> None:
    assert topic_messages(["lobby", "player-7"], open_pages(["lobby", "player-7"])) == []
    cache.set(topic_mark("lobby"), 350)
    cache.set(topic_mark("player-7"), 2)
    assert topic_messages(["lobby", "player-7"], open_pages(["lobby", "player-7"])) == [
        ("topic-lobby", [("changed", {"topic": "lobby", "spread": 3500})]),
        ("topic-player-7", [("changed", {"topic": "player-7", "spread": 1000})]),
    ]
    # The cache out of reach: every topic is told, with the shortest spread.
    assert topic_messages(["lobby"], None) == [("topic-lobby", [("changed", {"topic": "lobby", "spread": 1000})])]
    assert spread_ms(10_000) == 20_000  # at most 20 s, beyond 2,000 open pages


def test_a_streams_topics_are_counted_while_it_is_open(alice: Any) -> None:
    alices_page = async_client_for(alice)

    async def scenario() -> None:
        await open_stream(alices_page, "?topic=lobby")
        await open_stream(alices_page, "?topic=lobby&topic=ladders")
        assert await sync_to_async(open_pages)(["lobby", "ladders", "tournaments"]) == {"lobby": 2, "ladders": 1}

    run(scenario)
    assert open_pages(["lobby", "ladders"]) == {}  # closed: no page shows them


def test_the_game_pages_analysis_panel_hears_queued_progress_and_done(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch, client_for: Callable[[Any], Client]
) -> None:
    game = finish_a_short_game(alice, bob, monkeypatch)
    bobs_page, charlies_page = async_client_for(bob), async_client_for(charlie)

    async def scenario() -> None:
        bobs_game = await open_stream(bobs_page, f"?game={game.pk}")  # a player: his own group
        charlies_game = await open_stream(charlies_page, f"?game={game.pk}")  # a watcher: the game's
        charlies_other_page = await open_stream(charlies_page)
        analysis = await sync_to_async(analysis_request)(game_id=game.pk, user=charlie)
        for page in (bobs_game, charlies_game):
            assert await next_changed(page) == {"topic": f"analysis-{game.pk}", "spread": 300}
        await sync_to_async(analysis_run)(analysis.pk)  # what the worker does
        for page in (bobs_game, charlies_game):
            assert (await next_changed(page))["topic"] == f"analysis-{game.pk}"  # running
            assert (await next_changed(page, seconds=5))["topic"] == f"analysis-{game.pk}"  # done
        assert await nothing_changed(charlies_other_page)  # not his game: his own group hears nothing

    run(scenario)
    assert GameAnalysis.objects.get().status == "done"
    panel = client_for(bob).get(f"/games/{game.pk}/analysis/", **HX).content.decode()
    assert "The analysis is ready." in panel


def test_a_private_games_analysis_and_things_that_do_not_exist_are_refused(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = finish_a_short_game(alice, bob, monkeypatch)
    Game.objects.filter(pk=game.pk).update(private_black=True)
    charlies_page, alices_page = async_client_for(charlie), async_client_for(alice)

    async def scenario() -> None:
        for query, status in ((f"?topic=analysis-{game.pk}", 404), ("?topic=analysis-999999", 404),
                              ("?topic=tournament-999999", 404), ("?topic=player-999999", 404),
                              ("?topic=nonsense", 404), ("?topic=player-07", 404), ("?topic=lobby-1", 404),
                              ("?topic=lobby&topic=ladders&topic=tournaments&topic=player-1", 400)):
            response = await charlies_page.get(LIVE + query)
            assert response.status_code == status, query
        await open_stream(alices_page, f"?topic=analysis-{game.pk}")  # her own game: she may

    run(scenario)


def test_a_visitor_has_no_stream(client: Client) -> None:
    response = client.get(LIVE + "?topic=lobby")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert "sse-connect" not in client.get("/ladders/").content.decode()


def test_an_open_challenge_rolled_back_tells_nobody(alice: Any, charlie: Any) -> None:
    from django.db import transaction

    charlies_page = async_client_for(charlie)

    async def scenario() -> None:
        room = await open_stream(charlies_page, "?topic=lobby")

        def put_in_then_roll_back() -> None:
            with transaction.atomic():
                open_challenge_create(challenger=alice, variant="BP", time_limit=DAY)
                transaction.set_rollback(True)

        await sync_to_async(put_in_then_roll_back)()
        assert await nothing_changed(room)

    run(scenario)
    assert not Challenge.objects.exists()
