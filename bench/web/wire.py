"""Each request's server time, one at a time, on the idle server.

`make bench-web` runs this before the ceiling and the locust levels (bench/web/bench_web.py):
one keep-alive connection plays the seeded short games through the pages' own links and forms,
as the locust players do (bench/web/locustfile.py), but never two requests at once, with no
load generator competing for the cores. Each request is timed twice: on the wire (the app, the
ASGI server and a loopback round trip) and in the app, as its Server-Timing header tells
(gamesite/request_log.py: Django's middleware and view). The app's time is item 2's "server
time" of a game page and a move."""

from __future__ import annotations

import html
import http.client
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

from page_forms import CSRF, EXPECTED_NUMBER, MOVE_LINK, ROLL_BUTTON, STEPS, SUBMIT_PLAY, SWAP

SERVER_TIMING = re.compile(r"\bapp;dur=([0-9.]+)")  # gamesite/request_log.py


class _Client:
    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.csrf: dict[str, str] = {}
        self.times: dict[str, list[float]] = defaultdict(list)
        self.app_times: dict[str, list[float]] = defaultdict(list)

    def ask(self, label: str, path: str, session: str, *, htmx: bool = True, target: str = "",
            form: dict[str, str] | None = None, expect: int = 200) -> str:
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
        self.times[label].append((time.perf_counter() - start) * 1000.0)
        timing = SERVER_TIMING.search(answer.getheader("Server-Timing") or "")
        if timing is None:
            raise RuntimeError(f"{label} {path} answered without its Server-Timing header")
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
        return self.ask(label, f"/games/{game_id}/act/", session, form=form)


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


def measure(port: int, players_file: Path, *, games: int = 12, rounds: int = 10) -> list[WireRow]:
    """Each kind of request's count and its times on the wire and in the app."""
    client = _Client(port)
    chosen = sorted(_games(players_file).items())[:games]
    for _round in range(rounds):
        for game_id, pair in chosen:
            for session in pair:
                _turn(client, game_id, session)
    return [WireRow(label, len(samples), *_p50_p90(samples), *_p50_p90(client.app_times[label]))
            for label, samples in client.times.items()]
