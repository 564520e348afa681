"""Each request's server time, one at a time, on the idle server.

`make bench-web` runs this before the ceiling and the locust levels (bench/web/bench_web.py):
one keep-alive connection plays the seeded short games through the pages' own links and forms,
as the locust players do (bench/web/locustfile.py), but never two requests at once, with no
load generator competing for the cores; both players' pages of each game stay open (their
live streams), so a move pushes the opponent's region as in play. Each request is timed twice: on the wire (the app, the
ASGI server and a loopback round trip) and in the app, as its Server-Timing header tells
(gamesite/request_log.py: Django's middleware and view). The app's time is item 2's "server
time" of a game page and a move.

Then pairs of players with no game ask Auto-Match for the same correspondence game, one after
the other: the first request finds nobody to pair with, the second pairs the two and starts
their game (issue 31: the live scenario's slowest request, measured here without the load).
They ask for correspondence play, whose pairing runs the same code as a live one's but starts no
clock: a live game left unplayed would run out its reserve during the levels that follow, and
its timeout would be counted among theirs."""

from __future__ import annotations

import html
import http.client
import re
import socket
import statistics
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

from page_forms import CSRF, EXPECTED_NUMBER, MOVE_LINK, ROLL_BUTTON, STEPS, SUBMIT_PLAY, SWAP

PUSH_WITHIN_SECONDS = 2.0
SERVER_TIMING = re.compile(r"\bapp;dur=([0-9.]+)")  # gamesite/request_log.py


class _Client:
    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.csrf: dict[str, str] = {}
        self.times: dict[str, list[float]] = defaultdict(list)
        self.app_times: dict[str, list[float]] = defaultdict(list)
        self.opponents_pages: dict[tuple[int, str], _OpenPage] = {}  # (game, mover's session)

    def ask(self, label: str, path: str, session: str, *, htmx: bool = True, target: str = "",
            form: dict[str, str] | None = None, expect: int = 200, timed: bool = True) -> str:
        cookie = f"sessionid={session}" + (f"; csrftoken={self.csrf[session]}" if session in self.csrf else "")
        headers = {"Cookie": cookie, **({"HX-Request": "true"} if htmx else {}),
                   **({"HX-Target": target} if target else {})}
        body = None
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urlencode(form)
        start = time.perf_counter()
        self.connection.request("POST" if form is not None else "GET", path, body=body, headers=headers)
        answer = self.connection.getresponse()
        text = answer.read().decode("utf-8", "replace")
        elapsed = (time.perf_counter() - start) * 1000.0
        timing = SERVER_TIMING.search(answer.getheader("Server-Timing") or "")
        if timing is None:
            raise RuntimeError(f"{label} {path} answered without its Server-Timing header")
        if timed:
            self.times[label].append(elapsed)
            self.app_times[label].append(float(timing.group(1)))
        if answer.status != expect:
            raise RuntimeError(f"{label} {path} answered {answer.status}, not {expect}")
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                self.csrf[session] = value.split(";", 1)[0].split("=", 1)[1]
        return text

    def act(self, label: str, game_id: int, session: str, page: str, fields: dict[str, str]) -> str:
        token, number = CSRF.search(page), EXPECTED_NUMBER.search(page)
        if token is None or number is None:
            raise RuntimeError(f"{label}: the page has no form to post")
        form = {"csrfmiddlewaretoken": token.group(1), "expected_number": number.group(1), **fields}
        opponents_page = self.opponents_pages.get((game_id, session))
        if opponents_page is not None:
            opponents_page.forget_told()
        answer = self.ask(label, f"/games/{game_id}/act/", session, form=form)
        if opponents_page is not None:
            # In play the next request comes seconds later: the push drawn after this answer has
            # reached the opponent's page before it (not measured in either request).
            opponents_page.wait_told()
        return answer


def _games(players_file: Path) -> dict[int, list[str]]:
    """Each seeded game's two players' sessions (the players file of bench_web)."""
    sessions: dict[int, list[str]] = defaultdict(list)
    for line in players_file.read_text(encoding="utf-8").splitlines():
        _name, session, *game_ids = line.split()
        for game_id in game_ids:
            sessions[int(game_id)].append(session)
    return {game: pair for game, pair in sessions.items() if len(pair) == 2}


def _turn(client: _Client, game_id: int, session: str) -> None:
    """The player's page, their roll, their clicks and their submission, when it is their turn."""
    page = client.ask("game page", f"/games/{game_id}/", session, htmx=False)
    client.ask("game region", f"/games/{game_id}/", session)
    number = EXPECTED_NUMBER.search(page)
    if number is not None and 'id="game-poll"' in page:  # the game is still going
        client.ask("poll, unchanged", f"/games/{game_id}/poll/?n={number.group(1)}", session, expect=204)
    client.ask("menu count", "/menu-counts/?play=-1", session)
    client.ask("trivial view (404)", "/no-such-page/", session, htmx=False, expect=404)
    if ROLL_BUTTON.search(page):
        page = client.act("roll", game_id, session, page, {"kind": "roll"})
    for _step in range(5):
        if SUBMIT_PLAY.search(page):
            steps, swap = STEPS.search(page), SWAP.search(page)
            client.act("submit move", game_id, session, page, {
                "kind": "play",
                "steps": html.unescape(steps.group(1)) if steps else "",
                "swap": swap.group(1) if swap else "",
            })
            return
        link = MOVE_LINK.search(page)
        if link is None:
            return
        # The checker's link asks for the region's main column alone, as the page's links do.
        page = client.ask("move click", html.unescape(link.group(1)), session, target="game-main")


PAIRING_FIELDS = {"variants": "BP", "time_limits": "259200", "rated": "either", "max_games": "1"}  # 3 days a move
GAME_LINK = re.compile(r'href="/games/\d+/"')
WORKER_TICK_SECONDS = 5  # settings.WORKER_TICK_SECONDS's default


def _pair(client: _Client, first: str, second: str) -> None:
    """Two players ask Auto-Match for the same game, each from its page: the second request
    pairs them (a correspondence request's answer goes back to its page, which then lists the
    game it started)."""
    for label, session in (("auto-match, none to pair", first), ("auto-match, paired", second)):
        page = client.ask("auto-match page", "/games/auto-match/", session, htmx=False)
        token = CSRF.search(page)
        if token is None:
            raise RuntimeError("the Auto-Match page has no form to post")
        client.ask(label, "/games/auto-match/", session, htmx=False, expect=302,
                   form={"csrfmiddlewaretoken": token.group(1), **PAIRING_FIELDS})
    if GAME_LINK.search(client.ask("auto-match page", "/games/auto-match/", second, htmx=False)):
        return
    # Now and then the task worker's pairing pass (every 5 s) held the first request locked at
    # that moment, so the second request's own pass skipped it: the worker's next pass pairs them.
    for _second in range(WORKER_TICK_SECONDS * 2):
        time.sleep(1)
        if GAME_LINK.search(client.ask("", "/games/auto-match/", second, htmx=False, timed=False)):
            print("  (one pairing was left to the worker's next pass)", flush=True)
            return
    raise RuntimeError("the pairing requests started no game")


class WireRow(NamedTuple):
    request: str
    count: int
    p50: float  # on the wire: the app's time, the ASGI server's and the loopback's
    p90: float
    app_p50: float  # the app's own time (Django's middleware and view), from Server-Timing
    app_p90: float


def _p50_p90(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


class _OpenPage:
    """A player's game page left open: its live-update stream (/live/?game=N), read in a thread
    of its own. With it open, a move draws the region pushed to the opponent (after its
    answer), as in play, and the streams' deliveries take their share of the server."""

    def __init__(self, port: int, session: str, game_id: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=None)
        self.connection.request("GET", f"/live/?game={game_id}", headers={
            "Cookie": f"sessionid={session}", "Accept": "text/event-stream"})
        self.answer = self.connection.getresponse()
        if self.answer.status != 200:
            raise RuntimeError(f"the live stream of game {game_id} answered {self.answer.status}")
        self.told = threading.Semaphore(0)  # a release for each game event heard
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for line in self.answer:
                if line.startswith(b"event: game"):
                    self.told.release()
        except (OSError, http.client.HTTPException):
            pass  # closed

    def forget_told(self) -> None:
        while self.told.acquire(blocking=False):
            pass

    def wait_told(self) -> None:
        if not self.told.acquire(timeout=PUSH_WITHIN_SECONDS):
            raise RuntimeError(f"an open page heard nothing of a move within {PUSH_WITHIN_SECONDS} s")

    def close(self) -> None:
        self.connection.sock.shutdown(socket.SHUT_RDWR)  # ends the reader's read
        self.reader.join(5)
        self.connection.close()


def measure(port: int, players_file: Path, *, stream_port: int | None = None, games: int = 12,
            rounds: int = 10, pairing_sessions: list[str] | None = None) -> list[WireRow]:
    """Each kind of request's count and its times on the wire and in the app, with both players'
    pages of each game open: their streams on ``stream_port`` when the streams have servers of
    their own (as deployed, and as the locust players open them), else on the app server. Then
    ``pairing_sessions`` (players with no game), two by two, pair through Auto-Match."""
    client = _Client(port)
    chosen = sorted(_games(players_file).items())[:games]
    streams = port if stream_port is None else stream_port
    for game_id, (black, white) in chosen:
        client.opponents_pages[game_id, black] = _OpenPage(streams, white, game_id)
        client.opponents_pages[game_id, white] = _OpenPage(streams, black, game_id)
    open_pages = list(client.opponents_pages.values())
    time.sleep(1)  # the streams have marked their players listening
    try:
        for _round in range(rounds):
            for game_id, pair in chosen:
                for session in pair:
                    _turn(client, game_id, session)
    finally:
        for page in open_pages:
            page.close()
    sessions = pairing_sessions or []
    for first, second in zip(sessions[0::2], sessions[1::2]):
        _pair(client, first, second)
    return [WireRow(label, len(samples), *_p50_p90(samples), *_p50_p90(client.app_times[label]))
            for label, samples in client.times.items()]
