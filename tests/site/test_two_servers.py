"""Two app servers, one game (issue 10, item 5): two uvicorn processes on the one PostgreSQL test
database and the real Redis (127.0.0.1:6379, or $TEST_REDIS_URL), Alice playing through the
first and Bob through the second, with the pages' own forms.

Every action applies once (the same submission sent to both servers at once applies on one and
is refused as out of date on the other), both servers roll from the same keyed dice table (every
roll in the log is the table's entry for its instant under the suite's DICE_KEY, whichever
server rolled it), both players' pages show the same position, and a move made through one
server is pushed to a page's event stream held open on the other within a second.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from django.conf import settings

from backgammon.engine.dice import roll_at
from backgammon.engine.match import Phase
from backgammon.engine.notation import format_play
from backgammon.models import Game
from gamesite.testenv import SERVER_ENVIRONMENT
from tests.e2e.asgi_server import TEST_REDIS_URL, free_port
from tests.e2e.scenes import session_cookie
from tests.site.gamebuilder import start_game
from tests.site.worker_process import ROOT, test_database_url, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PUSHED_SECONDS = 1.0
# A Redis database of their own besides the channel prefix: their cache (REDIS_URL also moves the
# cache there) stays apart from a development site on the default database 0.
SERVERS_REDIS_DB = 9


def _servers_redis_url() -> str:
    return re.sub(r"/\d*$", "", TEST_REDIS_URL) + f"/{SERVERS_REDIS_DB}"


@dataclass
class AppServer:
    process: subprocess.Popen[bytes]
    url: str


@pytest.fixture
def two_servers() -> Iterator[tuple[AppServer, AppServer]]:
    prefix = f"two-servers-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DATABASE_URL": test_database_url(), "REDIS_URL": _servers_redis_url(),
           "CHANNEL_PREFIX": prefix, "DATABASE_CONN_MAX_AGE": "0", "LOG_LEVEL": "WARNING",
           **SERVER_ENVIRONMENT}
    servers = []
    for _ in range(2):
        port = free_port()
        # A stream still open when the test ends is cut after a second, rather than waited for
        # (uvicorn's default) until the fixture gives up and kills the server: 20 s a run.
        command = [sys.executable, "-m", "uvicorn", "gamesite.asgi:application", "--host", "127.0.0.1",
                   "--port", str(port), "--lifespan", "off", "--log-level", "warning",
                   "--timeout-graceful-shutdown", "1"]
        servers.append(AppServer(subprocess.Popen(command, cwd=ROOT, env=env), f"http://127.0.0.1:{port}"))
    try:
        for server in servers:
            def answers(server: AppServer = server) -> bool:
                """the app server to answer"""
                assert server.process.poll() is None, "an app server stopped"
                try:
                    return httpx.get(server.url + "/help/", timeout=2).status_code == 200
                except httpx.TransportError:
                    return False

            wait_for(answers, seconds=60, poll=0.2)
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.process.terminate()
        for server in servers:
            try:
                server.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait(timeout=10)


@dataclass
class Player:
    """A player's browser on one server: its session (shared by both servers: it lives in the
    database) and CSRF cookie."""

    user: Any
    server: AppServer
    client: httpx.Client = field(init=False)

    def __post_init__(self) -> None:
        name, value = session_cookie(self.user)
        self.client = httpx.Client(base_url=self.server.url, cookies={name: value}, timeout=10)

    def page(self, game: Game) -> str:
        response = self.client.get(f"/games/{game.pk}/")
        assert response.status_code == 200
        return response.text

    def submit(self, game: Game, form: dict[str, str]) -> httpx.Response:
        """Post one of the page's forms, as the browser would (CSRF token from the cookie)."""
        self.page(game)  # the CSRF cookie comes with the page
        return self.post(game, form)

    def post(self, game: Game, form: dict[str, str]) -> httpx.Response:
        token = self.client.cookies[settings.CSRF_COOKIE_NAME]
        return self.client.post(f"/games/{game.pk}/act/", data={"csrfmiddlewaretoken": token, **form})


def ids_shown(page: str) -> tuple[str, str]:
    """The Position ID and Match ID on a game page."""
    found = re.search(r"<dt>Position ID</dt><dd><code>([^<]+)</code>.*?<dt>Match ID</dt><dd><code[^>]*>([^<]+)</code>",
                      page, re.DOTALL)
    assert found is not None
    return found.group(1), found.group(2)


def next_form(game: Game) -> dict[str, str]:
    """What the player on turn submits next: a roll, or the first legal play (typed)."""
    state = game.state()
    form = {"expected_number": str(game.action_count)}
    if state.phase is Phase.ROLL:
        return {**form, "kind": "roll"}
    assert state.phase is Phase.MOVE
    play = state.legal_plays()[0]
    return {**form, "kind": "play", "moves_text": format_play(play) if play.moves else ""}


class EventStream:
    """A page's event stream held open on a server, read in a thread of its own."""

    def __init__(self, player: Player, game: Game) -> None:
        self.events: queue.Queue[tuple[float, str]] = queue.Queue()
        self._client = httpx.Client(base_url=player.server.url, cookies=player.client.cookies,
                                    timeout=httpx.Timeout(10, read=None))
        self._path = f"/live/?game={game.pk}"
        threading.Thread(target=self._read, daemon=True).start()
        assert self.next() == "hello"

    def _read(self) -> None:
        try:
            with self._client.stream("GET", self._path) as response:
                assert response.status_code == 200
                for line in response.iter_lines():
                    if line.startswith("event: "):
                        self.events.put((time.monotonic(), line.removeprefix("event: ")))
        except httpx.HTTPError:
            pass  # closed at the end of the test

    def next(self, seconds: float = 10) -> str:
        return self.events.get(timeout=seconds)[1]

    def event_after(self, instant: float, name: str, seconds: float = 5) -> float:
        """Seconds from ``instant`` until the next ``name`` event."""
        while True:
            arrived, event = self.events.get(timeout=seconds)
            if event == name:
                return arrived - instant

    def close(self) -> None:
        self._client.close()


def test_two_players_play_one_game_through_two_app_servers(two_servers: tuple[AppServer, AppServer],
                                                           alice: Any, bob: Any) -> None:
    first, second = two_servers
    game = start_game(alice, bob, "BX", match_length=0)
    players = {alice.pk: Player(alice, first), bob.pk: Player(bob, second)}
    watching = {alice.pk: EventStream(players[alice.pk], game), bob.pk: EventStream(players[bob.pk], game)}
    try:
        for _turn in range(8):
            game = Game.objects.get(pk=game.pk)
            if not game.is_active:
                break
            mover = players[game.actor_id]
            other = next(user_id for user_id in players if user_id != game.actor_id)
            form = next_form(game)

            # The same submission reaches both servers at once (a double click, two tabs): once.
            twin = Player(mover.user, second if mover.server is first else first)
            mover.page(game)
            twin.page(game)
            sent = time.monotonic()
            with ThreadPoolExecutor(2) as pool:
                posts = [pool.submit(player.post, game, form) for player in (mover, twin)]
                answers = [posted.result() for posted in posts]
            statuses = sorted(answer.status_code for answer in answers)
            assert statuses == [302, 409], [answer.text[:300] for answer in answers]
            after = Game.objects.get(pk=game.pk)
            assert after.action_count > game.action_count
            assert after.actions.filter(number__gt=game.action_count, kind=form["kind"]).count() == 1

            # The other player's page, held open on the other server, hears of it within a second.
            assert watching[other].event_after(sent, "game") < PUSHED_SECONDS + _took(answers)

            # Both players' pages, from different servers, show the same state.
            shown = {ids_shown(player.page(after)) for player in players.values()}
            assert shown == {(after.position_id, after.match_id)}
        assert Game.objects.get(pk=game.pk).actions.filter(kind="play").count() >= 3

        # One keyed dice table on both servers: every roll is the table's entry for its instant.
        key = settings.DICE_KEY
        rolls = list(Game.objects.get(pk=game.pk).actions.filter(kind="roll"))
        assert len(rolls) >= 3
        for roll in rolls:
            assert tuple(roll.data["dice"]) == roll_at(key, roll.created_at), roll.number
    finally:
        for stream in watching.values():
            stream.close()


def _took(answers: list[httpx.Response]) -> float:
    """How long the slower of the twin submissions took: the push is timed from the commit,
    which happened somewhere inside it."""
    return max(answer.elapsed.total_seconds() for answer in answers)
