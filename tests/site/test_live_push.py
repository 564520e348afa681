"""Live updates by push (issue 10, item 3): the event stream at /live/ and who may hear what.

The stream is read through the app server's own ASGI application (tests/site/asgi_client.py: the
request checked in a page thread, the stream then held on the event loop, as under uvicorn) with
the in-memory channel layer the suite runs on (REDIS_URL unset). A move is made through the
service, whose game_changed signal (sent on commit) publishes the events.
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connections
from django.db.models import F
from django.test import Client
from django.urls import reverse

from backgammon import live
from backgammon.engine import TimeControl
from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import challenge_create, roll_request
from tests.site.asgi_client import AsgiAnswer, AsgiClient, close_every_answer
from tests.site.gamebuilder import THREE_DAYS, act, scripted_dice, start_game
from tests.site.test_settings import ROOT

pytestmark = pytest.mark.django_db(transaction=True)
T = TypeVar("T")

LIVE = reverse("backgammon:live_events")
# Pushed means within a second (issue 10): each event must arrive sooner than this.
WITHIN_SECONDS = 1.0


@pytest.fixture(autouse=True)
def _no_app_server_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """These streams are read on the test's own event loop, as in a process with no app server:
    a browser test's server, still running in its thread, must not be taken for this process's
    (backgammon.live publishes on the app server's loop, which serves the streams there)."""
    from backgammon import live

    monkeypatch.setattr(live, "_server_loop", None)


def async_client_for(user: Any) -> AsgiClient:
    return AsgiClient(user)


async def next_event(stream: AsyncIterator[bytes], seconds: float = WITHIN_SECONDS) -> str:
    """The next event's name, skipping keep-alive comments; fails if none comes in time."""
    while True:
        chunk = (await asyncio.wait_for(anext(stream), seconds)).decode()
        for line in chunk.splitlines():
            if line.startswith("event: "):
                return line.removeprefix("event: ")


async def next_message(stream: AsyncIterator[bytes], seconds: float = WITHIN_SECONDS) -> tuple[str, Any]:
    """The next event's name and its data (JSON), skipping keep-alive comments."""
    name = ""
    while True:
        chunk = (await asyncio.wait_for(anext(stream), seconds)).decode()
        for line in chunk.splitlines():
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: ") and name:
                return name, json.loads(line.removeprefix("data: "))


async def open_page(client: AsgiClient, query: str = "") -> tuple[AsgiAnswer, AsyncIterator[bytes]]:
    """A page's stream, opened, its hello heard: the answer (to close it) and its events."""
    response = await client.get(LIVE + query)
    assert response.status_code == 200, await response.content()
    assert response["Content-Type"] == "text/event-stream" and response["Cache-Control"] == "no-cache"
    assert not response.has_header("Content-Length")
    stream = one_event_at_a_time(response.chunks())
    assert await next_event(stream) == "hello"
    return response, stream


async def open_stream(client: AsgiClient, query: str = "") -> AsyncIterator[bytes]:
    return (await open_page(client, query))[1]


async def one_event_at_a_time(chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """The stream's events one by one, however the server grouped them into writes."""
    pending = ""
    async for chunk in chunks:
        pending += chunk.decode()
        while "\n\n" in pending:
            event, pending = pending.split("\n\n", 1)
            yield f"{event}\n\n".encode()


def a_move_by_alice(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[[], Game]:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX", match_length=0)  # alice won the opening roll: her turn

    def move() -> Game:
        return act(game, alice, Action.play(((8, 5), (6, 5))))

    return move


def in_own_thread(call: Callable[[], T]) -> T:
    """``call()`` in a thread of its own: after the browser tests, Playwright's event loop still
    runs in the main thread, where async_to_sync (an async view, an async scenario) refuses to
    work. Its database work uses that thread's connection, closed after."""

    def closing() -> T:
        try:
            return call()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(closing).result()


def run(scenario: Callable[[], Any]) -> Any:
    """Run an async scenario from this sync test (its sync_to_async calls run in its thread); the
    pages it left open are closed after it, as a browser's are when it quits."""

    async def and_close() -> Any:
        try:
            return await scenario()
        finally:
            await close_every_answer()

    return in_own_thread(async_to_sync(and_close))


def test_a_move_reaches_the_opponents_game_page_and_status_within_a_second(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    move = a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk

    bobs_client, charlies_client = async_client_for(bob), async_client_for(charlie)

    async def scenario() -> None:
        bobs_game_page = await open_stream(bobs_client, f"?game={game_id}")
        bobs_status_page = await open_stream(bobs_client)
        charlies_status_page = await open_stream(charlies_client)
        await sync_to_async(move)()
        for page in (bobs_game_page, bobs_status_page):
            assert await next_event(page) == "game"
            assert await next_event(page) == "status"
        with pytest.raises(TimeoutError):  # not charlie's game: he hears nothing
            await next_event(charlies_status_page, seconds=0.3)

    run(scenario)


@pytest.mark.parametrize("live", [True, False])
def test_the_player_whose_live_decision_it_now_is_hears_so_on_their_other_pages(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, live: bool
) -> None:
    """Their clock runs (static/js/live.js tells them on a page other than the match's); by
    correspondence, or for the mover, or after a roll (the roller's own turn goes on), nothing."""
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    options: dict[str, Any] = {"time_control": TimeControl.live(12, 300)} if live else {}
    game = start_game(alice, bob, "BP", match_length=5, **options)  # alice won the opening roll
    alices_client, bobs_client = async_client_for(alice), async_client_for(bob)

    async def game_news(page: AsyncIterator[bytes]) -> dict[str, Any]:
        name, news = await next_message(page)
        assert name == "game"
        return dict(news)

    async def scenario() -> None:
        alices_page, bobs_page = await open_stream(alices_client), await open_stream(bobs_client)
        if live:  # the opening roll made it her decision: her page opened says so at once
            assert (await game_news(alices_page))["live_turn"]["against"] == "bob"
        played = await sync_to_async(act)(game, alice, Action.play(((8, 5), (6, 5))))
        expected = {"url": f"/games/{game.pk}/", "against": "alice"} if live else None
        assert (await game_news(bobs_page)).get("live_turn") == expected
        assert "live_turn" not in await game_news(alices_page)
        await next_event(bobs_page)  # the move's status events
        await next_event(alices_page)
        await sync_to_async(act)(played, bob, roll_request())
        assert "live_turn" not in await game_news(bobs_page)

    run(scenario)


def test_a_page_opened_while_a_live_match_waits_on_its_player_says_so_at_once(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the news would have, had the page been open when the turn came: any page but the
    match's own, and only the player whose decision it is."""
    scripted_dice(monkeypatch).then((3, 1), (5, 2))
    match = start_game(alice, bob, "BP", match_length=5, time_control=TimeControl.live(12, 300))
    other = start_game(alice, charlie, "BX", match_length=0)  # by correspondence, alice to move too
    alices_client, bobs_client = async_client_for(alice), async_client_for(bob)
    expected = ("game", {"g": match.pk, "n": match.action_count,
                         "live_turn": {"url": f"/games/{match.pk}/", "against": "bob"}})

    async def scenario() -> None:
        for query in ("", f"?game={other.pk}"):  # her status page, her other game's page
            page, stream = await open_page(alices_client, query)
            assert await next_message(stream) == expected
            await page.close()
        page, stream = await open_page(alices_client, f"?game={match.pk}")  # the match's own page
        assert (await next_message(stream))[0] == "presence"
        await sync_to_async(live.publish_status)(alice.pk)
        assert (await next_message(stream))[0] == "status"
        await page.close()
        page, stream = await open_page(bobs_client)  # not his decision
        await sync_to_async(live.publish_status)(bob.pk)
        assert (await next_message(stream))[0] == "status"
        await page.close()

    run(scenario)


def test_the_opponents_open_page_is_pushed_its_region_as_it_would_fetch_it(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, client_for: Callable[[Any], Client]
) -> None:
    move = a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk
    bobs_client, alices_client = async_client_for(bob), async_client_for(alice)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        bobs_game_page = await open_stream(bobs_client, f"?game={game_id}")
        alices_game_page = await open_stream(alices_client, f"?game={game_id}")
        await sync_to_async(move)()
        bobs_news = await next_message(bobs_game_page)
        alices_news = await next_message(alices_game_page)
        return bobs_news[1], alices_news[1]

    bobs_news, alices_news = run(scenario)
    played = Game.objects.get()
    # Alice made the move: her page has the region already (the move's answer), so hers has none.
    assert alices_news == {"g": game_id, "n": played.action_count}
    assert set(bobs_news) == {"g", "n", "html"} and bobs_news["n"] == played.action_count
    # Bob's region is the one his page would fetch, but for the CSRF fields: pushed, it has no
    # request to take a token from, and htmx sends the page's token in a header.
    fetched = client_for(bob).get(f"/games/{game_id}/poll/?n=0", HTTP_HX_REQUEST="true").content.decode()
    without_tokens = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">', "", fetched)
    assert "csrfmiddlewaretoken" in fetched and "csrfmiddlewaretoken" not in bobs_news["html"]
    assert bobs_news["html"] == without_tokens
    assert "game__prompt--yours" in bobs_news["html"]


def test_a_page_request_publishes_once_its_answer_has_gone_out(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, client_for: Callable[[Any], Client]
) -> None:
    """The mover's answer does not wait for the opponent's pushed region: the app server's page
    door (gamesite/asgi.py) sends what a request published when the server closes its answer."""
    from django.core.cache import cache

    from tests.site.page_door import post_environ, through_the_door

    a_move_by_alice(alice, bob, monkeypatch)
    game = Game.objects.get()
    cache.set(live.listening_key(bob.pk), 1)  # bob has the game's page open
    cache.set(live.listening_key(bob.pk, game.pk), 1)
    layer = live.get_channel_layer()
    environ = post_environ(f"/games/{game.pk}/act/", client_for(alice).cookies["sessionid"].value,
                           {"kind": "play", "moves_text": "8/5 6/5", "expected_number": game.action_count},
                           HTTP_HX_REQUEST="true")

    def answer_then_close() -> tuple[str, Any, Any]:  # in a thread of its own: async_to_sync
        bobs_page = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(live.user_group(bob.pk), bobs_page)

        def published() -> Any:
            try:
                return async_to_sync(asyncio.wait_for)(layer.receive(bobs_page), 0.2)
            except TimeoutError:
                return None

        answer = through_the_door(environ, before_close=published)
        return answer.status + answer.body, answer.before_close, published()

    answered, before_close, after_close = in_own_thread(answer_then_close)
    assert answered.startswith("200") and "game__prompt--yours" not in answered  # bob's turn now
    assert before_close is None
    news = dict(after_close["events"])
    assert news["game"]["n"] == Game.objects.get().action_count
    assert "game__prompt--yours" in news["game"]["html"] and "counts" in news["status"]


def test_a_pushed_region_reads_the_moves_message_and_a_closed_page_gets_none(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from messaging.models import Message

    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(alice, bob, "BX", match_length=0)
    bobs_client = async_client_for(bob)

    async def scenario() -> None:
        bobs_game_page = await open_stream(bobs_client, f"?game={game.pk}")
        await sync_to_async(act)(game, alice, Action.play(((8, 5), (6, 5))), message="Your go")
        heard = dict([await next_message(bobs_game_page) for _ in range(3)])  # the message's status too
        assert "Your go" in heard["game"]["html"]

    run(scenario)
    # His page shows the message with the move: it is read, as when his page fetched the region.
    assert Message.objects.get(body="Your go").read_at is not None

    async def closed_page() -> None:
        bobs_status_page = await open_stream(bobs_client)  # no page of the game open
        game_now = await sync_to_async(Game.objects.get)(pk=game.pk)
        await sync_to_async(act)(game_now, bob, Action.play(((8, 4), (6, 4))))
        rolled = await sync_to_async(Game.objects.get)(pk=game.pk)
        name, news = await next_message(bobs_status_page)
        assert (name, news) == ("game", {"g": game.pk, "n": rolled.action_count})

    run(closed_page)


def test_a_stream_marks_its_player_listening_while_it_is_open(alice: Any, bob: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk
    bobs_client = async_client_for(bob)
    marks = [live.listening_key(bob.pk), live.listening_key(bob.pk, game_id)]

    async def scenario() -> None:
        page, _ = await open_page(bobs_client, f"?game={game_id}")
        assert set(await cache.aget_many(marks)) == set(marks)
        await page.close()  # the browser went away: the server hears it, the stream ends
        assert await cache.aget_many(marks) == {}

    run(scenario)


def test_a_live_games_stream_tells_its_page_whether_the_opponent_is_here_once_it_listens(
        alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Right after hello: the opponent's page may have said it was here before this stream
    joined the player's group (both pages open at once), and the page's region was drawn before."""
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BP", match_length=3, time_control=TimeControl.live(12, 180))
    alices_client, bobs_client = async_client_for(alice), async_client_for(bob)

    async def scenario() -> None:
        alices_page, _ = await open_page(alices_client, f"?game={game.pk}")
        assert await next_message(_) == ("presence", {"g": game.pk, "here": False})  # bob's page is not open
        bobs_page, bobs_stream = await open_page(bobs_client, f"?game={game.pk}")
        assert await next_message(bobs_stream) == ("presence", {"g": game.pk, "here": True})
        await bobs_page.close()
        await alices_page.close()

    run(scenario)


def test_a_stream_tells_no_presence_of_a_computer_opponent(alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer player opens no page and is always here (game_reads): nothing to tell."""
    from django.contrib.auth import get_user_model

    from accounts.computer_players import forget_computer_players
    from accounts.models import Profile
    from bots.accounts import create_bot_accounts
    from bots.models import Bot

    create_bot_accounts(get_user_model(), Profile, Bot)
    forget_computer_players()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, get_user_model().objects.get(username="gnubg-easy"), "BP", match_length=3,
                      time_control=TimeControl.live(12, 180))
    alices_client = async_client_for(alice)

    async def scenario() -> None:
        page, stream = await open_page(alices_client, f"?game={game.pk}")
        await sync_to_async(live.publish_status)(alice.pk)
        assert (await next_message(stream))[0] == "status"  # the first event after hello
        await page.close()

    run(scenario)


def test_an_open_stream_holds_no_thread_and_leaves_its_groups_when_its_page_closes(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream waits on the event loop: a thousand open pages are not a thousand threads, and a
    page gone is a stream gone, out of its groups."""
    import threading

    a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk
    layer = live.get_channel_layer()
    watching = [live.user_group(charlie.pk), live.game_group(game_id)]

    def members() -> int:
        return sum(len(layer.groups.get(group, {})) for group in watching)

    def page_threads() -> list[str]:
        return [thread.name for thread in threading.enumerate() if thread.name.startswith("WSGI_")]

    def other_threads() -> list[str]:
        return sorted(thread.name for thread in threading.enumerate() if not thread.name.startswith("WSGI_"))

    charlies_client = async_client_for(charlie)

    async def scenario() -> None:
        # The first few start the loop's shared threads (for the marks); the page threads are
        # WEB_THREADS at most, however many pages are open, and free once each is checked.
        first = [(await open_page(charlies_client, f"?game={game_id}"))[0] for _ in range(3)]
        threads = other_threads()
        pages = [(await open_page(charlies_client, f"?game={game_id}"))[0] for _ in range(10)]
        assert other_threads() == threads, other_threads()
        assert len(page_threads()) <= settings.WEB_THREADS
        assert members() == 26
        for page in [*first, *pages]:
            await page.close()
        assert members() == 0

    async def and_close() -> None:
        try:
            await scenario()
        finally:
            await close_every_answer()

    # On an event loop of its own, as uvicorn's: under async_to_sync (run) asgiref would run every
    # request's thread-sensitive work in the calling thread, and no stream could start one.
    in_own_thread(lambda: asyncio.run(and_close()))


def test_a_mark_stays_while_any_of_the_players_pages_under_it_is_open(alice: Any, bob: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # Two tabs of the game, or the game page closed after the next game's page opened: closing
    # one page must not tell publications that the player has none open.
    from django.core.cache import cache

    a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk
    bobs_client = async_client_for(bob)
    any_page, game_page = live.listening_key(bob.pk), live.listening_key(bob.pk, game_id)

    async def opened(query: str) -> AsgiAnswer:
        return (await open_page(bobs_client, query))[0]

    async def closed(page: AsgiAnswer) -> None:
        await page.close()

    async def scenario() -> None:
        first_tab, second_tab = await opened(f"?game={game_id}"), await opened(f"?game={game_id}")
        status_page = await opened("")
        assert await cache.aget_many([any_page, game_page]) == {any_page: 3, game_page: 2}
        await closed(first_tab)
        assert set(await cache.aget_many([any_page, game_page])) == {any_page, game_page}
        await closed(second_tab)
        assert await cache.aget_many([any_page, game_page]) == {any_page: 1}
        await closed(status_page)
        assert await cache.aget_many([any_page, game_page]) == {}

    run(scenario)


def _rolled_by_bob(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, *, live: bool,
                   message: str = "") -> tuple[Callable[[], dict[str, Any]], Game]:
    """A match where bob is to roll, and a scenario in which he rolls 4-2 while alice's page of
    the game is open: what her page is pushed."""
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    options: dict[str, Any] = {"time_control": TimeControl.live(12, 300)} if live else {}
    game = start_game(alice, bob, "BP", match_length=5, **options)  # alice won the opening roll
    game = act(game, alice, Action.play(((8, 5), (6, 5))))  # bob to roll, or to double
    alices_client = async_client_for(alice)

    async def scenario() -> dict[str, Any]:
        alices_game_page = await open_stream(alices_client, f"?game={game.pk}")
        await sync_to_async(act)(game, bob, roll_request(), message=message)
        name, news = await next_message(alices_game_page)
        # A live game's stream tells first whether the opponent is here; a move's message is
        # news for her counts too.
        while name in ("presence", "status"):
            name, news = await next_message(alices_game_page)
        assert name == "game"
        return news

    return scenario, game


def _part(pattern: str, region: str) -> str:
    found = re.search(pattern, region, re.DOTALL)
    assert found, pattern
    return found.group(1)


def _region(client: Client, game: Game) -> str:
    """The game region as the page asks for it, its forms' CSRF tokens (masked afresh on each
    answer) written alike."""
    fetched = client.get(f"/games/{game.pk}/poll/?n=0", HTTP_HX_REQUEST="true").content.decode()
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken" value="-"', fetched)


def _with_roll_put_in(region: str, news: dict[str, Any]) -> str:
    """What static/js/live.js putRoll makes of the page's region with a pushed roll: its dice,
    prompt, match ID and clock (a live game's clocks, a correspondence game's time left) put in,
    the count it shows raised, its class and its main column's phase a move's."""
    roll = news["roll"]

    def put(pattern: str, inner: str, page: str) -> str:
        changed, count = re.subn(pattern, lambda found: found.group(1) + inner + found.group(2), page, flags=re.DOTALL)
        assert count == 1, pattern
        return changed

    for owner in ("mine", "theirs"):
        region = put(f'(<g id="board-dice-{owner}">).*?(</g>)', roll["dice"][owner], region)
    region = put(r'(<p class="game__prompt"[^>]*>).*?(</p>)', html.escape(roll["prompt"]), region)
    region = put(r'(<code id="match-id">).*?(</code>)', roll["match_id"], region)
    if roll["time_left"]:
        region = put(r'(<span id="time-left">).*?(</span>)', html.escape(roll["time_left"]), region)
    assert region.count('class="game game--roll"') == 1 and region.count('id="game-main" data-phase="roll"') == 1
    region = region.replace('class="game game--roll"', 'class="game game--move"')
    region = region.replace('id="game-main" data-phase="roll"', 'id="game-main" data-phase="move"')
    return re.sub(r'data-number="\d+"', f'data-number="{news["n"]}"', region)


def _same_but_for_the_count_asked_and_the_clocks(page: str, fetched: str) -> None:
    """The region putRoll makes is the one fetched but for what live.js does not change and the
    page never reads: the count in the slow poll's URL (live.js asks with the count it shows),
    and the clocks' reading, a few milliseconds apart (compared on their own)."""
    def plain(region: str) -> str:
        region = re.sub(r"/poll/\?n=\d+", "/poll/?n=-", region)
        return re.sub(r"data-match-clock='[^']*'", "data-match-clock='-'", region)

    assert plain(page) == plain(fetched)


@pytest.mark.parametrize("live,home_left", [(True, False), (True, True), (False, False)])
def test_a_roll_reaches_the_waiting_page_as_the_parts_its_region_would_change(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, client_for: Callable[[Any], Client], live: bool,
    home_left: bool
) -> None:
    alice.profile.home_board_left = home_left
    alice.profile.save()
    scenario, game = _rolled_by_bob(alice, bob, monkeypatch, live=live)
    if not live:  # bob rolls five hours into the three days her move gave him
        Game.objects.filter(pk=game.pk).update(deadline=F("deadline") - timedelta(hours=5))
    alices_client = client_for(alice)
    before = _region(alices_client, game)
    news = run(scenario)
    rolled = Game.objects.get(pk=game.pk)
    assert set(news) == {"g", "n", "roll"} and news["n"] == rolled.action_count == game.action_count + 1
    fetched = _region(alices_client, rolled)
    roll = news["roll"]
    # Each part as the region alice's page would fetch now draws it, and nothing else changed.
    assert roll["dice"]["theirs"].count('class="die die-theirs"') == 2 and roll["dice"]["mine"] == ""
    assert roll["prompt"] == "Waiting for bob to move." and roll["match_id"] == rolled.match_id
    _same_but_for_the_count_asked_and_the_clocks(_with_roll_put_in(before, news), fetched)
    if live:
        assert roll["time_left"] == ""
        shown_clock = json.loads(html.unescape(_part(r"data-match-clock='([^']*)'", fetched)))
        assert {key: roll["clock"][key] for key in ("black_ms", "white_ms", "running")} == {
            key: shown_clock[key] for key in ("black_ms", "white_ms", "running")} and roll["clock"]["running"] == "white"
        assert 0 <= roll["clock"]["delay_left_ms"] - shown_clock["delay_left_ms"] < 2000
    else:
        # The roll started bob's time limit afresh: her page says so.
        assert _part(r'<span id="time-left">(.*?)</span>', before) == "2 days 18 hours left"
        assert roll["clock"] is None and roll["time_left"] == "2 days 23 hours left"


def test_a_live_roll_with_a_message_reaches_the_waiting_page_as_its_region(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario, _ = _rolled_by_bob(alice, bob, monkeypatch, live=True, message="Here goes")
    news = run(scenario)
    # A message is read on the page it reaches (live._region_for): the region goes, as for a move.
    assert set(news) == {"g", "n", "html"} and "Waiting for bob to move." in news["html"]


def test_a_game_event_tells_the_action_count_and_a_roll_leaves_the_players_status_alone(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, client_for: Callable[[Any], Client]
) -> None:
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    game = start_game(alice, bob, "BP", match_length=5)  # alice won the opening roll: her turn
    game = act(game, alice, Action.play(((8, 5), (6, 5))))  # bob to roll, or to double
    alices_client, bobs_client = async_client_for(alice), async_client_for(bob)
    alices_page_client = client_for(alice)

    async def scenario() -> None:
        bobs_game_page = await open_stream(bobs_client, f"?game={game.pk}")
        alices_status_page = await open_stream(alices_client)
        rolled = await sync_to_async(act)(game, bob, roll_request())
        assert await next_message(bobs_game_page) == ("game", {"g": game.pk, "n": rolled.action_count})
        assert await next_message(alices_status_page) == ("game", {"g": game.pk, "n": rolled.action_count})
        # Bob still has to move: nobody's lists or PLAY count changed, so no status event came
        # (a timeout would end the stream: the play's events show what came in between).
        played = await sync_to_async(act)(rolled, bob, Action.play(((8, 4), (6, 4))))
        assert await next_message(bobs_game_page) == ("game", {"g": game.pk, "n": played.action_count})
        name, bobs_status = await next_message(bobs_game_page)
        assert name == "status" and "<span id=\"play-badge\"" in bobs_status["counts"]
        assert await next_message(alices_status_page) == ("game", {"g": game.pk, "n": played.action_count})
        name, alices_status = await next_message(alices_status_page)
        # Her counts as the badge's own request would answer them: now one game waits for her.
        asked = await sync_to_async(alices_page_client.get)("/menu-counts/?play=0&talk=0", HTTP_HX_REQUEST="true")
        assert name == "status" and alices_status["counts"] == asked.content.decode()
        assert '<span class="badge">1<' in alices_status["counts"]
        with pytest.raises(TimeoutError):  # and only the play's
            await next_message(alices_status_page, seconds=0.3)

    run(scenario)


def test_a_watcher_of_a_public_game_hears_its_moves(alice: Any, bob: Any, charlie: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    move = a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk

    charlies_client = async_client_for(charlie)

    async def scenario() -> None:
        watching = await open_stream(charlies_client, f"?game={game_id}")
        await sync_to_async(move)()
        name, news = await next_message(watching)
        # A watcher is told the count and asks the page's view: no region is rendered for them.
        assert name == "game" and set(news) == {"g", "n"}

    run(scenario)


def test_a_new_challenge_reaches_the_challenged_players_status(alice: Any, bob: Any) -> None:
    bobs_client = async_client_for(bob)

    async def scenario() -> None:
        bobs_page = await open_stream(bobs_client)
        await sync_to_async(challenge_create)(challenger=alice, opponent="bob", variant="BP",
                                              time_limit=THREE_DAYS)
        assert await next_event(bobs_page) == "status"

    run(scenario)


def test_a_new_message_reaches_the_recipients_status(alice: Any, bob: Any) -> None:
    from messaging.services import message_send

    bobs_client = async_client_for(bob)

    async def scenario() -> None:
        bobs_page = await open_stream(bobs_client)
        await sync_to_async(message_send)(sender=alice, to="bob", body="Rematch?")
        assert await next_event(bobs_page) == "status"

    run(scenario)


def test_a_private_game_refuses_a_watcher_as_a_missing_one_and_keeps_its_players(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    a_move_by_alice(alice, bob, monkeypatch)
    game = Game.objects.get()
    if any(field.name == "private_black" for field in Game._meta.get_fields()):
        Game.objects.filter(pk=game.pk).update(private_black=True)  # the watching feature's flag
    else:  # before that feature is merged here: its rule, for a game made private
        monkeypatch.setattr(Game, "visible_to", lambda self, user: self.side_of(user) is not None,
                            raising=False)

    charlies_client, bobs_client = async_client_for(charlie), async_client_for(bob)

    async def scenario() -> None:
        refused = await charlies_client.get(f"{LIVE}?game={game.pk}")
        missing = await charlies_client.get(f"{LIVE}?game={game.pk + 1000}")
        # The same 404 as for a game that does not exist: nothing tells that a private one does.
        assert refused.status_code == missing.status_code == 404
        assert refused["Content-Type"] == missing["Content-Type"]
        assert b"event:" not in await refused.content()  # the answer whole: no stream
        await open_stream(bobs_client, f"?game={game.pk}")

    run(scenario)


def test_a_watchers_stream_ends_when_a_player_makes_the_game_private(
    alice: Any, bob: Any, charlie: Any, client_for: Callable[[Any], Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, item 5: the watcher's open page hears that the game is private, last; its
    stream ends there, the next one is refused, and the game's later moves reach only its
    players; open profile pages of its players ask again (and then no longer list it)."""
    move = a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk
    charlies_client, alices_client = async_client_for(charlie), async_client_for(alice)
    bobs_page = client_for(bob)

    async def scenario() -> None:
        watching = await open_stream(charlies_client, f"?game={game_id}")
        bobs_profile = await open_stream(charlies_client, f"?topic=player-{bob.pk}")
        alices_page = await open_stream(alices_client, f"?game={game_id}")
        answer = await sync_to_async(bobs_page.post)(reverse("backgammon:game_privacy", args=[game_id]),
                                                     {"private": "1"})
        assert answer.status_code == 302
        assert await next_message(watching) == ("private", {"g": game_id})
        # An open profile that listed the game asks again, and no longer lists it.
        name, changed = await next_message(bobs_profile)
        assert name == "changed" and changed["topic"] == f"player-{bob.pk}"
        with pytest.raises(StopAsyncIteration):  # the stream is over
            await next_event(watching)
        refused = await charlies_client.get(f"{LIVE}?game={game_id}")
        assert refused.status_code == 404
        await sync_to_async(move)()
        assert await next_event(alices_page) == "game"  # the players' pages go on as before

    run(scenario)


def test_a_private_games_news_reaches_no_watcher_whose_stream_missed_the_change(
    alice: Any, bob: Any, charlie: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watcher's stream opened just as the game became private (checked before, in its group
    after the change's last word): the publication itself leaves the watchers out, and the
    players' profile pages, which show nobody else a private game, hear nothing of it either."""
    move = a_move_by_alice(alice, bob, monkeypatch)
    game_id = Game.objects.get().pk
    charlies_client = async_client_for(charlie)

    async def scenario() -> None:
        watching = await open_stream(charlies_client, f"?game={game_id}&topic=player-{bob.pk}")
        # The wish written as the service writes it, without its signal: the stream never heard.
        await sync_to_async(Game.objects.filter(pk=game_id).update)(private_white=True)
        await sync_to_async(move)()
        with pytest.raises(TimeoutError):
            await next_event(watching, seconds=0.5)

    run(scenario)


@pytest.mark.parametrize(("query", "status"), [
    ("?game=999999", 404), ("?game=abc", 404), ("?game=", 404), ("?game=1e3", 404), ("?game=-4", 404),
    ("?game=99999999999999999999999999", 404),
    ("?game=%00", 400),  # refused at the door like every address with a NUL (gamesite/bad_requests.py)
])
def test_an_unknown_or_malformed_game_is_refused(alice: Any, query: str, status: int) -> None:
    alices_client = async_client_for(alice)

    async def scenario() -> None:
        response = await alices_client.get(LIVE + query)
        assert response.status_code == status

    run(scenario)


def test_visitors_are_sent_to_log_in_and_only_get_is_allowed(alice: Any) -> None:
    alices_client = async_client_for(alice)

    async def scenario() -> None:
        visitor = await AsgiClient().get(LIVE)
        assert visitor.status_code == 302 and visitor["Location"].startswith(reverse("accounts:login"))
        posted = await alices_client.post(LIVE)
        assert posted.status_code == 405

    run(scenario)


def test_a_wsgi_server_answers_503_so_the_page_polls(alice: Any, client_for: Callable[[Any], Client]) -> None:
    client = client_for(alice)
    response = client.get(LIVE)  # Django's WSGI handler, as under gunicorn's sync workers
    assert response.status_code == 503 and response["Retry-After"]
    assert "polls instead" in response.content.decode()


def test_an_unreachable_redis_answers_503_and_moves_still_apply(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    move = a_move_by_alice(alice, bob, monkeypatch)
    from gamesite.live_layers import redis_channel_layers

    settings.CHANNEL_LAYERS = redis_channel_layers("redis://127.0.0.1:9/0", "nobody")  # nothing listens there

    bobs_client = async_client_for(bob)

    async def scenario() -> None:
        response = await bobs_client.get(LIVE)
        assert response.status_code == 503 and response["Retry-After"] == "30"
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert b"polls instead" in await response.content()
        assert response.has_header("X-Frame-Options")  # Django's headers, but not a stream's
        await response.close()

    run(scenario)
    before = Game.objects.get().action_count
    assert move().action_count > before  # the publish failed quietly; the move stands


def test_the_pages_listen_for_push_and_for_the_fallback_poll(alice: Any, bob: Any,
                                                            client_for: Callable[[Any], Client],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    a_move_by_alice(alice, bob, monkeypatch)
    game = Game.objects.get()
    page = client_for(bob).get(reverse("backgammon:game", args=[game.pk])).content.decode()
    assert f'hx-ext="sse" sse-connect="{LIVE}?game={game.pk}"' in page
    assert f'data-game="{game.pk}"' in page and 'js/live.js' in page and "hx-sse-2" in page
    status = client_for(bob).get(reverse("backgammon:status")).content.decode()
    assert f'sse-connect="{LIVE}"' in status and 'hx-trigger="sse:status, live:poll"' in status
    assert '<span id="play-badge" class="play-badge"' in status
    visitor = Client().get(reverse("help_rules")).content.decode()
    assert "sse-connect" not in visitor and "live.js" not in visitor


def test_the_suite_and_make_run_use_the_in_memory_layer_without_redis(alice: Any) -> None:
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert not live.layer_is_shared()
    alices_client = async_client_for(alice)

    async def scenario() -> None:
        # That layer does not hear the task worker (another process): pages look now and then too.
        response = await alices_client.get(LIVE)
        first = (await anext(response.chunks())).decode()
        assert first == 'retry: 2000\nevent: hello\ndata: {"poll": 15}\n\n'

    run(scenario)


@pytest.fixture
def private_redis() -> Iterator[str]:
    """A Redis of this test's own (never the shared one: this test stops it)."""
    import shutil
    import socket
    import time

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.kill()
        server.wait(5)


def test_a_stream_whose_redis_went_away_ends_so_the_page_reconnects_and_polls(
    alice: Any, private_redis: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backgammon.views import live as live_view
    from gamesite.live_layers import redis_channel_layers

    settings.CHANNEL_LAYERS = redis_channel_layers(private_redis, "stream-check")
    monkeypatch.setattr(live_view, "KEEPALIVE_SECONDS", 0.2)
    alices_client = async_client_for(alice)
    port = int(private_redis.rsplit(":", 1)[1].split("/")[0])

    async def scenario() -> None:
        stream = await open_stream(alices_client)
        # Quiet and well: each quiet spell checks delivery, and the check comes back.
        for _ in range(3):
            assert (await asyncio.wait_for(anext(stream), 2)).decode() == ": still here\n\n"
        await asyncio.to_thread(subprocess.run, ["redis-cli", "-p", str(port), "shutdown", "nosave"],
                                check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The subscription broke without a word: within two quiet spells the stream ends.
        give_up = asyncio.get_running_loop().time() + 5
        with pytest.raises(StopAsyncIteration):
            while asyncio.get_running_loop().time() < give_up:
                await asyncio.wait_for(anext(stream), 3)

    run(scenario)


def test_an_open_page_keeps_its_player_here_for_live_play(alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player reading a page without a click makes no request: the page's stream marks them seen,
    as the presence rule of live offers and requests asks (accounts.presence.keep_seen)."""
    from django.core.cache import cache
    from django.utils import timezone

    from accounts.models import Profile
    from accounts.presence import here_for_live, seen_key
    from backgammon.views import live as live_view

    monkeypatch.setattr(live_view, "KEEPALIVE_SECONDS", 0.2)
    alices_client = async_client_for(alice)

    def away_for(minutes: int) -> None:
        Profile.objects.filter(user=alice).update(last_seen=timezone.now() - timedelta(minutes=minutes))
        cache.delete(seen_key(alice.pk))  # the minute's mark lapsed too

    def is_here() -> bool:
        return here_for_live().filter(user=alice).exists()

    async def scenario() -> None:
        stream = await open_stream(alices_client)
        await sync_to_async(away_for)(3)
        assert not await sync_to_async(is_here)()
        for _ in range(3):  # a few quiet spells, each renewing the page's marks
            assert (await asyncio.wait_for(anext(stream), 2)).decode() == ": still here\n\n"
        assert await sync_to_async(is_here)()
        # Within the minute the mark stands: the stream writes nothing more.
        await sync_to_async(Profile.objects.filter(user=alice).update)(
            last_seen=timezone.now() - timedelta(seconds=30))
        for _ in range(2):
            await asyncio.wait_for(anext(stream), 2)
        seen = await sync_to_async(lambda: Profile.objects.get(user=alice).last_seen)()
        assert timezone.now() - seen >= timedelta(seconds=30)

    run(scenario)
    # The page closed: nothing keeps her here any longer.
    away_for(3)
    assert not is_here()


def test_redis_url_selects_the_redis_layer_with_its_prefix() -> None:
    code = ("import gamesite.settings as s; layer = s.CHANNEL_LAYERS['default']; "
            "host = layer['CONFIG']['hosts'][0]; "
            "print(layer['BACKEND'], host['address'], host['socket_timeout'], layer['CONFIG']['prefix'])")
    env = {"PATH": os.environ.get("PATH", ""), "DEBUG": "1", "SECRET_KEY": "k" * 40, "DICE_KEY": "00ff" * 8,
           "REDIS_URL": "redis://127.0.0.1:6379/3", "CHANNEL_PREFIX": "site-a"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    # Publish/subscribe (gamesite/live_layers.py); a command waits at most half a second for a
    # stalled Redis (REDIS_TIMEOUT_SECONDS), after which the process's breaker stops asking.
    assert result.stdout.split() == ["gamesite.live_layers.PublishingTogether", "redis://127.0.0.1:6379/3",
                                     "0.5", "site-a"]


def test_a_moves_news_goes_to_redis_in_one_write_and_arrives_in_order(private_redis: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A move tells three groups (its game's, each player's): one pipelined round trip to Redis,
    each group's streams hearing its own message, in the order sent."""
    from redis.asyncio.connection import AbstractConnection

    from gamesite.live_layers import PublishingTogether, group_send_all

    writes: list[int] = []
    sent_before = AbstractConnection.send_packed_command

    async def counted(self: Any, command: Any, check_health: bool = True) -> None:
        if any(b"PUBLISH" in bytes(part) for part in (command if isinstance(command, list) else [command])):
            writes.append(1)
        await sent_before(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    layer = PublishingTogether(hosts=[{"address": private_redis}], prefix="together")

    async def scenario() -> None:
        game_pages, alices_pages = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game-7", game_pages)
        await layer.group_add("user-1", alices_pages)
        await layer.group_add("user-1", game_pages)
        await group_send_all(layer, [("game-7", {"type": "t", "n": 1}), ("user-1", {"type": "t", "n": 2}),
                                     ("user-2", {"type": "t", "n": 3}), ("user-1", {"type": "t", "n": 4})])
        heard = [(await asyncio.wait_for(layer.receive(game_pages), 2))["n"] for _ in range(3)]
        assert heard == [1, 2, 4]
        assert [(await asyncio.wait_for(layer.receive(alices_pages), 2))["n"] for _ in range(2)] == [2, 4]
        await layer.flush()

    run(scenario)
    assert writes == [1]


def test_a_player_opening_streams_without_end_is_refused_with_429(alice: Any, settings: Any) -> None:
    settings.LIVE_STREAMS_RATE = "3/m"
    alices_client = async_client_for(alice)

    async def scenario() -> None:
        for _ in range(3):
            await open_stream(alices_client)
        refused = await alices_client.get(LIVE)
        assert refused.status_code == 429 and refused["Retry-After"]

    run(scenario)
