"""The players of `make bench-web`: each keeps one game page open and plays it as a person would.

A player takes a prepared account (a signed-in session made by bench/bench_web.py, so the run
measures play rather than password hashing; a few players also log in through the form), opens
the status page and a game page, and then does what the page does: waits for updates on its
live stream (a "game" event telling of an action the page does not show yet brings the game
region, or the page fetches it; a "status" event brings the menu counts, or the page asks for
them), or without push polls every 2 s (and the menu count every 10 s), and on their turn thinks 5-15 s,
rolls, builds the move from the turn's click map as the page's script does (the clicks ask the
server nothing) and submits the page's own form (through htmx, as the page does: each answer is
the fresh game region). When the game ends they open their next game from the status page;
with every game over they keep that page open, its lists asking only when a status event comes.

Live players (LivePlayer, issue 31; BENCH_LIVE_COUNT of them, from BENCH_LIVE_PLAYERS, a file of
"username sessionid" lines) ask Auto-Match for a live Blitz match, wait on its page (which asks
every 3 s) until they are paired, and play the match on its game page as the others do, but acting
2-8 s (BENCH_LIVE_THINK) after their turn starts; when it ends they ask for another. One in
BENCH_LIVE_LEAVERS_EVERY (10) plays one-point Blitz matches (8 s + 30 s) and, once, walks away
from the page on their turn, so that their reserve runs out under load: bench_web.py reads from
the database how late each such timeout was applied. Every roll and move a player submits is
timed to the moment the opponent's open page reads it on its stream ("push of a roll", "push of a
move"), from the request sent to the event read: BENCH_PUSH_TIMES names where to write them.

Environment: BENCH_PLAYERS (file of "username sessionid game_id ..." lines), BENCH_THINK
("5-15" seconds), BENCH_POLL_SECONDS (2), BENCH_APP_TIMES (where to write each endpoint's times
in the app, as their answers' Server-Timing told), BENCH_QUEUE_TIMES (the same for their waits
for a page thread before it), BENCH_STREAM_HOST (where the pages' /live/
streams connect, when stream servers of their own serve them: bench_web.py, BENCH_STREAM_SERVERS).
"""

from __future__ import annotations

import html
import http.client
import itertools
import json
import os
import random
import re
import time
from typing import Any
from urllib.parse import urlsplit

import gevent
import gevent.event
import orjson
from locust import FastHttpUser, events, task
from page_forms import (  # locust puts this file's folder on the path
    ACCEPT_RESIGN,
    CSRF,
    CSRF_HEADER,
    EXPECTED_NUMBER,
    MENU_COUNTS,
    MOVE_LINK,
    ROLL_BUTTON,
    STEPS,
    SUBMIT_PLAY,
    SWAP,
    TAKE_BUTTON,
    TURN_MAP,
    turn_from_map,
)

THINK_LOW, THINK_HIGH = (float(x) for x in os.environ.get("BENCH_THINK", "5-15").split("-"))
POLL_SECONDS = float(os.environ.get("BENCH_POLL_SECONDS", "2"))
# BENCH_PUSH=1: pages wait on their /live/ stream as they do on an ASGI server; 0: they poll.
PUSH = os.environ.get("BENCH_PUSH", "1") == "1"
SAFETY_POLL_SECONDS = 30.0
MENU_COUNT_SECONDS = 10.0
LOGIN_PASSWORD = os.environ.get("BENCH_PASSWORD", "")
STREAM_HOST = os.environ.get("BENCH_STREAM_HOST", "")
# The figures are reset this long after locust has started the last player (bench_web.py): the
# first pages of the players started last are answered after that moment, and would otherwise
# be measured as play.
SETTLE_SECONDS = float(os.environ.get("BENCH_SETTLE_SECONDS", "0"))
_runner: Any = None
LIVE_COUNT = int(os.environ.get("BENCH_LIVE_COUNT", "0"))
LIVE_THINK_LOW, LIVE_THINK_HIGH = (float(x) for x in os.environ.get("BENCH_LIVE_THINK", "2-8").split("-"))
LEAVERS_EVERY = int(os.environ.get("BENCH_LIVE_LEAVERS_EVERY", "10"))
# Seconds from locust's start to the measurement's (the ramp and the settling): a leaver walks away
# at a moment that lets their reserve run out while the figures are being taken.
MEASURE_FROM_SECONDS = float(os.environ.get("BENCH_MEASURE_FROM_SECONDS", "0"))
# A one-point Blitz match's clock, the leavers' (engine.clock.LIVE_PRESETS["blitz"] at one point).
LEAVER_FLAG_SECONDS = 8 + 30
_STARTED = time.monotonic()


@events.init.add_listener
def _remember_runner(environment: Any, runner: Any = None, **_: Any) -> None:
    global _runner
    _runner = runner or environment.runner


@events.spawning_complete.add_listener
def _measure_once_settled(**_: Any) -> None:
    if SETTLE_SECONDS > 0 and _runner is not None:
        gevent.spawn_later(SETTLE_SECONDS, _reset_figures)


def _reset_figures() -> None:
    _runner.stats.reset_all()
    _app_times.clear()
    _push_times.clear()
    _queue_times.clear()


# Each answer's own time in the app by endpoint (its Server-Timing header, gamesite/request_log.py):
# bench_web.py shows it beside locust's time on the wire, so a level tells how much of a request's
# time was Django's and how much was waiting outside it (for a page thread, the event loop, a
# core). Collected from the reset on, written to BENCH_APP_TIMES when locust quits.
APP_TIMES_FILE = os.environ.get("BENCH_APP_TIMES", "")
_APP_DURATION = re.compile(r"\bapp;dur=([0-9.]+)")
_app_times: dict[str, list[float]] = {}
# And before it, each answer's wait for a page thread (``queue;dur``), into BENCH_QUEUE_TIMES.
QUEUE_TIMES_FILE = os.environ.get("BENCH_QUEUE_TIMES", "")
_QUEUE_DURATION = re.compile(r"\bqueue;dur=([0-9.]+)")
_queue_times: dict[str, list[float]] = {}
# Each push's time, from the mover's request sent to the opponent's page reading the event, by
# kind ("push of a move (live)"): written to BENCH_PUSH_TIMES when locust quits, kept apart from
# locust's rows so that its totals count requests only.
PUSH_TIMES_FILE = os.environ.get("BENCH_PUSH_TIMES", "")
_push_times: dict[str, list[float]] = {}


@events.request.add_listener
def _app_time(name: str, response: Any = None, **_: Any) -> None:
    if not APP_TIMES_FILE or response is None:
        return
    timing = response.headers.get("Server-Timing") or ""
    found = _APP_DURATION.search(timing)
    if found:
        _app_times.setdefault(name, []).append(float(found.group(1)))
    queued = _QUEUE_DURATION.search(timing)
    if queued:
        _queue_times.setdefault(name, []).append(float(queued.group(1)))


@events.quitting.add_listener
def _write_app_times(**_: Any) -> None:
    if APP_TIMES_FILE:
        with open(APP_TIMES_FILE, "w", encoding="utf-8") as out:
            json.dump(_app_times, out)
    if PUSH_TIMES_FILE:
        with open(PUSH_TIMES_FILE, "w", encoding="utf-8") as out:
            json.dump(_push_times, out)
    if QUEUE_TIMES_FILE:
        with open(QUEUE_TIMES_FILE, "w", encoding="utf-8") as out:
            json.dump(_queue_times, out)

# The page's links and forms go through htmx, which says so in this header.
HTMX = {"HX-Request": "true"}
# A checker's link asks for the game region's main column alone (the board and the controls).
CLICK = {**HTMX, "HX-Target": "game-main"}


def _players() -> list[list[str]]:
    with open(os.environ["BENCH_PLAYERS"], encoding="utf-8") as lines:
        return [line.split() for line in lines if line.strip()]


_accounts = itertools.cycle(_players())

# The rolls and moves submitted and not yet read by the opponent's page, by game: who submitted
# them, and each one's action count before it, its row's name and when its request was sent.
_unheard: dict[int, tuple[str, list[tuple[int, str, float]]]] = {}


def _submitted(game_id: int, mover: str, number: int, name: str) -> None:
    """``mover`` sends a roll or move of ``game_id`` at action count ``number`` (the count before it)."""
    mover_before, waiting = _unheard.get(game_id, (mover, []))
    if mover_before != mover:  # the turn has passed: what the opponent never heard is forgotten
        waiting = []
    _unheard[game_id] = (mover, [*waiting, (number, name, time.monotonic())])


def _heard(game_id: int, listener: str, told: int) -> None:
    """The page of ``listener`` read that ``game_id`` reached action ``told``: every roll and move
    of the opponent it covers is timed (BENCH_PUSH_TIMES)."""
    found = _unheard.get(game_id)
    if found is None or found[0] == listener:
        return
    mover, waiting = found
    now = time.monotonic()
    still = [entry for entry in waiting if entry[0] >= told]
    for number, name, sent in waiting:
        if number < told:
            _push_times.setdefault(f"push of a {name}", []).append((now - sent) * 1000)
    _unheard[game_id] = (mover, still)


class GamePagePlayer(FastHttpUser):
    """What every player does on a game page: wait for the opponent, think, roll and move."""

    abstract = True
    # Think time lives inside the play loop: the page's own polling never pauses.
    wait_time = staticmethod(lambda: 0)  # type: ignore[assignment]
    think = (THINK_LOW, THINK_HIGH)
    suffix = ""  # the rows of live players' requests are named apart: "roll (live)"
    leave_at: float | None = None  # a leaver's moment (time.monotonic()) to walk away on their turn
    left = False
    username = ""
    session_id = ""

    def _named(self, name: str) -> str:
        return name + self.suffix

    def _play(self, game_id: int) -> None:
        page = self.client.get(f"/games/{game_id}/", name=self._named("game page")).text or ""
        token = CSRF_HEADER.search(page)
        self.csrf_token = token.group(1) if token else ""
        badge = MENU_COUNTS.search(page)
        self.menu_counts_url = html.unescape(badge.group(1)) if badge else "/menu-counts/"
        events = self._stream(f"/live/?game={game_id}") if PUSH else None
        next_menu_count = time.monotonic() + MENU_COUNT_SECONDS
        try:
            while True:
                if _game_over(page):
                    # A finished game's page asks nothing more (it has no poll element, and
                    # live.js does not ask for it): the player goes on to their next game.
                    return
                news = ""  # "&heard=N", as live.js adds when an event told of action N
                if _my_move(page):
                    if self.leave_at is not None and not self.left and time.monotonic() >= self.leave_at:
                        self.left = True  # closes the page on their turn: their reserve runs out
                        return
                    gevent.sleep(random.uniform(*self.think))
                    page = self._take_turn(game_id, page)
                    continue
                if events is not None and events.alive:
                    # The page waits on its stream: nothing is asked until an event comes (or,
                    # as live.js does, a slow safety poll after a quiet half minute).
                    heard, number, region, rolled, counts = events.wait(SAFETY_POLL_SECONDS, game_id)
                    if counts is not None:  # the menu counts came with the status event
                        self._take_menu_counts(counts)
                    elif "status" in heard:
                        self._menu_counts()
                    if heard and "game" not in heard:
                        continue
                    if "game" in heard and number <= int(_expected_number(page)):
                        continue  # as live.js: the page already shows it (the player's own move)
                    if region is not None:
                        page = region  # the opponent's move came with the region: nothing asked
                        continue
                    if rolled and number == int(_expected_number(page)) + 1:
                        page = _with_count(page, number)  # the roll's parts, put in as live.js does
                        continue
                    if "game" in heard:
                        news = f"&heard={number}"
                else:
                    gevent.sleep(POLL_SECONDS)
                    if events is not None:
                        # The stream ended (a server replaced its worker, say): as the browser's
                        # EventSource, open it again after its "retry" of 2 s; on its hello,
                        # live.js looks once at every region: the counts, and the game below.
                        events.close()
                        events = self._stream(f"/live/?game={game_id}")
                        if events.alive:
                            self._menu_counts()
                    elif time.monotonic() >= next_menu_count:
                        self._menu_counts()
                        next_menu_count += MENU_COUNT_SECONDS
                number = _expected_number(page)
                with self.client.get(f"/games/{game_id}/poll/?n={number}{news}", name=self._named("poll"),
                                     headers=HTMX, catch_response=True) as answer:
                    if answer.status_code == 286:
                        answer.success()
                        return
                    if answer.status_code == 204:
                        answer.success()
                        continue
                    if answer.status_code != 200:
                        answer.failure(f"poll answered {answer.status_code}")
                        continue
                    page = answer.text or ""
        finally:
            if events is not None:
                events.close()

    def _stream(self, path: str) -> _Stream:
        """The page's live stream, from the stream servers when they have their own."""
        return _Stream(STREAM_HOST or self.host, self.session_id, path, self.username)

    def _menu_counts(self) -> None:
        """The header's PLAY badge asks for both menu counts, saying the ones it shows."""
        answer = self.client.get(self.menu_counts_url, name="menu count", headers=HTMX)
        if answer.status_code == 200:
            self._take_menu_counts(answer.text or "")

    def _take_menu_counts(self, counts: str) -> None:
        badge = MENU_COUNTS.search(counts)
        if badge:
            self.menu_counts_url = html.unescape(badge.group(1))

    def _take_turn(self, game_id: int, page: str) -> str:
        """Roll, then build the move in the page (static/js/turn.js asks the server nothing) and
        submit it; a page without the turn's click map (a forced pass) clicks through the
        server's links as a browser without JavaScript does."""
        act = f"/games/{game_id}/act/"
        if ROLL_BUTTON.search(page):
            _submitted(game_id, self.username, int(_expected_number(page)), self._named("roll"))
            page = self._post(act, page, {"kind": "roll"}, "roll")
        elif TAKE_BUTTON.search(page):
            return self._post(act, page, {"kind": "take"}, "take")
        elif ACCEPT_RESIGN.search(page):
            return self._post(act, page, {"kind": "reject_resign"}, "reject resignation")
        built = TURN_MAP.search(page)
        if built:
            steps, swap = turn_from_map(built.group(1))
            _submitted(game_id, self.username, int(_expected_number(page)), self._named("move"))
            return self._post(act, page, {"kind": "play", "steps": steps, "swap": swap}, "submit move")
        for _click in range(5):  # at most four steps, then Submit (or a forced pass)
            if SUBMIT_PLAY.search(page):
                steps_field = STEPS.search(page)
                swap_field = SWAP.search(page)
                return self._post(act, page, {
                    "kind": "play",
                    "steps": html.unescape(steps_field.group(1)) if steps_field else "",
                    "swap": swap_field.group(1) if swap_field else "",
                }, "submit move")
            link = MOVE_LINK.search(page)
            if link is None:
                break
            page = self.client.get(html.unescape(link.group(1)), name=self._named("move click"),
                                   headers=CLICK).text or ""
        return page

    def _post(self, url: str, page: str, fields: dict[str, str], name: str) -> str:
        data = {"expected_number": _expected_number(page), **fields}
        # The page's forms post through htmx (hx-post), with the page's CSRF token in a header,
        # and the answer is the fresh game region, or for a roll that leaves the roller to move
        # its main column (with the turn's click map and forms) and the parts beside it.
        headers = {**HTMX, "X-CSRFToken": self.csrf_token}
        with self.client.post(url, data=data, name=self._named(name), headers=headers, allow_redirects=False,
                              catch_response=True) as answer:
            text = answer.text or ""
            if answer.status_code != 200 or not re.search(r'id="game(-main)?"', text):
                answer.failure(f"{name} answered {answer.status_code}")
            return text


class Player(GamePagePlayer):
    """One person with one browser tab on one game: their correspondence games, one after another."""

    def on_start(self) -> None:
        username, session_id, *game_ids = next(_accounts)
        self.username = username
        self.session_id = session_id
        self.game_ids = [int(g) for g in game_ids]
        if LOGIN_PASSWORD and random.random() < 0.02:
            self._log_in(username)
        else:
            self.client.cookiejar.set_cookie(_cookie("sessionid", session_id, self.host))
        self.client.get("/games/", name="status page")

    def _log_in(self, username: str) -> None:
        page = self.client.get("/accounts/login/", name="log in (form)")
        token = CSRF.search(page.text or "")
        self.client.post(
            "/accounts/login/",
            data={"username": username, "password": LOGIN_PASSWORD,
                  "csrfmiddlewaretoken": token.group(1) if token else ""},
            name="log in",
        )

    @task
    def keep_a_game_open(self) -> None:
        for game_id in self.game_ids:
            self._play(game_id)
            self.client.get("/games/", name="status page")  # where they find their next game
        # Every game of this player is over: they keep their status page open like anyone idle.
        # Its lists ask for themselves when a status event says they changed (and live.js asks
        # once when the stream says hello); without push, live.js polls them with back-off.
        events = self._stream("/live/") if PUSH else None
        delay = POLL_SECONDS
        while True:
            if events is not None and events.alive:
                heard, _number, _region, _rolled, _counts = events.wait(SAFETY_POLL_SECONDS, 0)
                if "status" not in heard:
                    continue
            else:
                gevent.sleep(delay)
                delay = min(delay * 2, 30.0)
            self.client.get("/games/", name="status lists", headers=HTMX)


class _Stream:
    """A page's live-update stream (/live/, Server-Sent Events), read in a greenlet of its own:
    the events it names since the last wait are collected for the player."""

    def __init__(self, host: str, session_id: str, path: str, owner: str = "") -> None:
        parts = urlsplit(host)
        self.owner = owner
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=None)
        self.heard: set[str] = set()
        # game -> the largest count told, its region, and whether it came as a roll's parts
        self.games: dict[int, tuple[int, str | None, bool]] = {}
        self.counts: str | None = None  # the menu counts a status event last brought
        self.arrived = gevent.event.Event()
        self.alive = True
        try:
            self.connection.request("GET", path, headers={"Cookie": f"sessionid={session_id}",
                                                          "Accept": "text/event-stream"})
            self.response = self.connection.getresponse()
            if self.response.status != 200:
                raise OSError(f"the stream answered {self.response.status}")
        except OSError:
            self.alive = False
            return
        self.reader = gevent.spawn(self._read)

    def _read(self) -> None:
        event = ""
        try:
            for raw in self.response:
                # A data line carries a pushed region (kilobytes): orjson reads the bytes as they
                # came, rather than a decoded copy through the standard library's parser.
                line = raw.strip()
                if line.startswith(b"event:"):
                    event = line[6:].decode("utf-8", "replace").strip()
                elif line.startswith(b"data:") and event:
                    data = orjson.loads(line[5:])
                    if event == "game":
                        game, told = int(data.get("g", 0)), int(data.get("n", 0))
                        if told >= self.games.get(game, (0, None, False))[0]:
                            self.games[game] = (told, data.get("html"), data.get("roll") is not None)
                        _heard(game, self.owner, told)
                    elif event == "status":
                        self.counts = data.get("counts")
                    self.heard.add(event)
                    self.arrived.set()
                    event = ""
        except (OSError, http.client.HTTPException):
            pass
        self.alive = False
        self.arrived.set()

    def wait(self, seconds: float, game_id: int) -> tuple[set[str], int, str | None, bool, str | None]:
        """Since the last wait: the events heard (a "game" one only of ``game_id``), the largest
        action count told of that game, the region pushed with it or whether it came as a roll's
        parts, and the menu counts a status event brought."""
        self.arrived.wait(seconds)
        heard, self.heard = self.heard - {"hello"}, set()
        number, region, rolled = self.games.pop(game_id, (0, None, False))
        self.games.clear()
        if not number:
            heard.discard("game")
        counts, self.counts = self.counts, None
        self.arrived.clear()
        return heard, number, region, rolled, counts

    def close(self) -> None:
        self.alive = False
        self.connection.close()


def _my_move(page: str) -> bool:
    return bool(ROLL_BUTTON.search(page) or SUBMIT_PLAY.search(page) or MOVE_LINK.search(page)
                or TAKE_BUTTON.search(page) or ACCEPT_RESIGN.search(page))


def _game_over(page: str) -> bool:
    """Whether the page (or the region answered or pushed) shows a finished game: the game
    region without its poll element, which only a game still going has."""
    return 'id="game"' in page and 'id="game-poll"' not in page


def _expected_number(page: str) -> str:
    found = EXPECTED_NUMBER.search(page)
    if found:
        return found.group(1)
    poll = re.search(r"/poll/\?n=(\d+)", page)
    return poll.group(1) if poll else "0"


def _with_count(page: str, number: int) -> str:
    """The waiting page once an opponent's roll is put in (static/js/live.js putRoll): the same
    page but for the dice, which the player does not read, and the action count it shows."""
    page = re.sub(r'data-number="\d+"', f'data-number="{number}"', page)
    return re.sub(r"/poll/\?n=\d+", f"/poll/?n={number}", page)


def _cookie(name: str, value: str, host: str) -> Any:
    from http.cookiejar import Cookie
    from urllib.parse import urlsplit

    domain = urlsplit(host).hostname or "127.0.0.1"
    return Cookie(0, name, value, None, False, domain, False, False, "/", True, False, None,
                  False, None, None, {})


def _live_players() -> list[list[str]]:
    path = os.environ.get("BENCH_LIVE_PLAYERS", "")
    if not path:
        return []
    with open(path, encoding="utf-8") as lines:
        return [line.split() for line in lines if line.strip()]


_live_accounts = itertools.cycle(enumerate(_live_players()))
GAME_URL = re.compile(r"/games/(\d+)/$")
AUTO_MATCH_WAIT_SECONDS = 3.0  # the waiting request's page asks this often (templates/backgammon/auto_match.html)


class LivePlayer(GamePagePlayer):
    """A person who plays live matches, one after another: Auto-Match, then the match's page."""

    fixed_count = LIVE_COUNT
    think = (LIVE_THINK_LOW, LIVE_THINK_HIGH)
    suffix = " (live)"

    def on_start(self) -> None:
        index, (username, session_id) = next(_live_accounts)
        self.username = username
        self.session_id = session_id
        self.client.cookiejar.set_cookie(_cookie("sessionid", session_id, self.host))
        self.variant = "BP"
        if LEAVERS_EVERY and index % LEAVERS_EVERY == 0:
            # A leaver plays one-point matches (8 s + 30 s) and walks away once, on their first
            # turn after a moment chosen so that their reserve runs out within the measurement.
            self.variant = "BX"
            arrived = time.monotonic()
            latest = _STARTED + MEASURE_FROM_SECONDS + 45 - LEAVER_FLAG_SECONDS
            earliest = max(arrived + 15, _STARTED + MEASURE_FROM_SECONDS - LEAVER_FLAG_SECONDS)
            self.leave_at = random.uniform(earliest, max(earliest, latest))

    @task
    def play_live_matches(self) -> None:
        while not self.left:
            game_id = self._paired()
            if game_id is not None:
                self._play(game_id)
        gevent.sleep(10**6)  # gone: the page is closed and asks nothing more

    def _paired(self) -> int | None:
        """Ask Auto-Match for a live Blitz match and wait on its page until paired: the game's id,
        or None when the request was refused or ended unpaired."""
        page = self.client.get("/games/auto-match/", name="auto-match page").text or ""
        token = CSRF.search(page)
        fields = {"csrfmiddlewaretoken": token.group(1) if token else "", "variants": self.variant,
                  "live_clocks": "blitz", "rated": "either", "max_games": "1"}
        with self.client.post("/games/auto-match/", data=fields, name="auto-match request",
                              allow_redirects=False, catch_response=True) as answer:
            where = answer.headers.get("Location") or ""
            if answer.status_code != 302:
                answer.failure(f"auto-match answered {answer.status_code}")
                gevent.sleep(AUTO_MATCH_WAIT_SECONDS)
                return None
        paired = GAME_URL.search(where)
        while paired is None:
            gevent.sleep(AUTO_MATCH_WAIT_SECONDS)
            with self.client.get("/games/auto-match/?known=0", name="auto-match wait", headers=HTMX,
                                 catch_response=True) as answer:
                if answer.status_code == 204:
                    answer.success()
                    continue
                if answer.status_code == 200 and answer.headers.get("HX-Redirect"):
                    paired = GAME_URL.search(answer.headers["HX-Redirect"])
                    answer.success()
                    continue
                if answer.status_code == 286:  # the request is no longer waiting
                    answer.success()
                    return None
                answer.failure(f"auto-match wait answered {answer.status_code}")
                return None
        return int(paired.group(1))


class Ceiling(FastHttpUser):
    """The same server's throughput on a trivial view (an unknown URL: the whole middleware
    stack, a 404 and nothing else), with no pause: what the server can do at most."""

    wait_time = staticmethod(lambda: 0)  # type: ignore[assignment]

    @task
    def trivial(self) -> None:
        with self.client.get("/bench-trivial/", name="trivial (404)", catch_response=True) as r:
            if r.status_code == 404:
                r.success()
