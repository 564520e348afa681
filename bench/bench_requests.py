"""Each request's server cost in process: SQL queries and time, on a short game and a long match.

The requests a player's open page makes (issue 10, item 4): the game page, a click-to-move step
(the page with ``?steps=``), a move submitted (plain form, and from htmx), the game status page,
the unchanged poll and the menu bar's counts. Measured with Django's test Client on PostgreSQL
(the whole middleware stack, no network), each player with a session cookie.

Builds its own database as bench_site does (``<name>_bench``), a short game some turns in and a
B9 match driven to about BENCH_LONG_ACTIONS actions. Writes bench/results/requests.md; when
bench/results/requests-before.json exists (the figures of a run before the work on issue 10,
kept by ``--save-before``), the table shows them beside today's. With REDIS_URL set the cache and
sessions are in Redis, as in production; ``--append`` adds that run's table below the last one.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gamesite .venv/bin/python bench/bench_requests.py
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_site  # the database set-up and the games are bench_site's

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "requests.md"
BEFORE = ROOT / "bench" / "results" / "requests-before.json"
SAMPLES = int(os.environ.get("BENCH_REQUESTS", "60"))
WARM_UP = 5
LONG_ACTIONS = int(os.environ.get("BENCH_LONG_ACTIONS", "600"))


def _summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]


def _measure(call: Callable[[], Any]) -> tuple[float, int]:
    """One request: (milliseconds, SQL statements)."""
    from django.db import connection

    statements = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        start = time.perf_counter()
        call()
        elapsed = (time.perf_counter() - start) * 1000.0
    return elapsed, statements


def _repeat(call: Callable[[], Any]) -> tuple[float, float, int]:
    """(median ms, p95 ms, queries of the last request) over SAMPLES requests after a warm-up."""
    times, count = [], 0
    for i in range(WARM_UP + SAMPLES):
        elapsed, count = _measure(call)
        if i >= WARM_UP:
            times.append(elapsed)
    median, p95 = _summary(times)
    return median, p95, count


def _logged_in_client(user: Any) -> Any:
    """A client with a session in the session store and its cookie, as a browser has."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def _get(client: Any, url: str, expected: int = 200, **headers: str) -> Callable[[], Any]:
    def call() -> Any:
        response = client.get(url, headers=headers)
        assert response.status_code == expected, (url, response.status_code)
        return response

    return call


def _first_step(game: Any) -> str:
    play = game.state().legal_plays()[0]
    move = play.moves[0]
    names = {25: "bar", 0: "off"}
    return f"{names.get(move.origin, move.origin)}-{names.get(move.destination, move.destination)}"


class _Moves:
    """Submits the next play of one game; ``ready`` (rolling first when the cube is in play) is
    outside the timed call."""

    def __init__(self, game_ids: list[int], clients: dict[int, Any], rng: random.Random, *, htmx: bool) -> None:
        self.game_ids, self.clients, self.rng = game_ids, clients, rng
        self.headers = {"HX-Request": "true"} if htmx else {}
        self.next: tuple[Any, str, dict[str, Any]] | None = None

    def ready(self) -> None:
        """The next play of the first game still going (a short game ends after a few dozen)."""
        from django.urls import reverse

        from backgammon.models import Game
        from backgammon.services import game_apply_action, roll_request

        game = Game.objects.filter(pk__in=self.game_ids, status="active").order_by("pk").first()
        assert game is not None, "every game ended during the benchmark"
        while game.status == "active" and game.phase != "move":
            action = roll_request() if game.phase == "roll" else bench_site._random_action(game.state(), self.rng)
            game = game_apply_action(game_id=game.pk, actor=game.actor, action=action,
                                     expected_number=game.action_count)
        if game.status != "active":
            return self.ready()
        play = self.rng.choice(game.state().legal_plays())
        text = " ".join(bench_site._move_text(m.origin, m.destination) for m in play.moves)
        data: dict[str, Any] = {"kind": "play", "moves_text": text, "expected_number": game.action_count}
        if not text:
            data = {"kind": "play", "steps": "", "expected_number": game.action_count}
        self.next = (self.clients[game.actor_id], reverse("backgammon:game_act", args=[game.pk]), data)

    def __call__(self) -> Any:
        assert self.next is not None
        client, url, data = self.next
        response = client.post(url, data, headers=self.headers)
        assert response.status_code in (200, 302), (url, data, response.status_code)
        return response


def _repeat_moves(moves: _Moves) -> tuple[float, float, int]:
    times, count = [], 0
    for i in range(WARM_UP + SAMPLES):
        moves.ready()
        elapsed, count = _measure(moves)
        if i >= WARM_UP:
            times.append(elapsed)
    median, p95 = _summary(times)
    return median, p95, count


def _rows(label: str, games: list[Any], clients: dict[int, Any], rng: random.Random) -> list[tuple[str, tuple[float, float, int]]]:
    """The game's own requests on one game; the moves on the others, each in turn as they end."""
    from django.urls import reverse

    from backgammon.models import Game

    # A game whose roll can be played, so that a click-to-move step exists.
    game = next(g for g in Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk")
                if g.phase == "move" and g.state().legal_plays()[0].moves)
    ids = [g.pk for g in games if g.pk != game.pk]
    player = clients[game.actor_id]
    page = reverse("backgammon:game", args=[game.pk])
    poll = reverse("backgammon:game_poll", args=[game.pk])
    return [
        (f"{label}: game page", _repeat(_get(player, page))),
        # As the page's checker links ask: htmx, for the region's main column alone.
        (f"{label}: click-to-move step (?steps=)", _repeat(_get(player, f"{page}?steps={_first_step(game)}",
                                                                **{"HX-Request": "true", "HX-Target": "game-main"}))),
        (f"{label}: poll, unchanged (204)", _repeat(_get(player, f"{poll}?n={game.action_count}", 204))),
        (f"{label}: move submitted, plain form", _repeat_moves(_Moves(ids[:len(ids) // 2], clients, rng, htmx=False))),
        (f"{label}: move submitted from htmx", _repeat_moves(_Moves(ids[len(ids) // 2:], clients, rng, htmx=True))),
    ]


def measure() -> dict[str, tuple[float, float, int]]:
    from django.urls import reverse

    rng = random.Random(2026)
    players = bench_site._players()
    bench_site.GAMES = 16
    short = bench_site._games(players, rng)
    bench_site.LONG_MATCHES, bench_site.LONG_ACTIONS = 3, LONG_ACTIONS
    long_matches = bench_site._long_matches(players, rng)
    clients = {player.pk: _logged_in_client(player) for player in players}
    someone = clients[short[0].actor_id]
    figures = dict(_rows("short game", short, clients, rng))
    figures.update(_rows(f"long match ({min(g.action_count for g in long_matches)}+ actions)", long_matches, clients, rng))
    figures["status page (Game status)"] = _repeat(_get(someone, reverse("backgammon:status")))
    from backgammon.services import games_awaiting_count
    from messaging.services import unread_count

    counts = reverse("menu_counts")
    user = short[0].actor
    shown = f"?play={games_awaiting_count(user)}&talk={unread_count(user)}"
    figures["menu counts (PLAY and TALK), unchanged (204)"] = _repeat(_get(someone, counts + shown, 204))
    figures["menu counts, one changed"] = _repeat(_get(someone, f"{counts}?play=-1"))
    return figures


def _key(label: str) -> str:
    """A row's name without the long matches' length, which differs from run to run."""
    return re.sub(r" \(\d+\+ actions\)", "", label)


def _cache_words() -> str:
    from django.conf import settings

    backend = settings.CACHES["default"]["BACKEND"]
    if "redis" in backend.lower():
        return ("Redis (REDIS_URL), as in production: sessions cached_db, kept answers on, live updates "
                "published through Redis from a loop made per publication (an app server uses its own)")
    if "locmem" in backend:
        return "this process's memory (CACHE_IN_PROCESS, as the test suite), kept answers on, sessions in the database"
    return "the database (no REDIS_URL, CACHE_IN_PROCESS=0): kept answers off, sessions in the database"


def _report(figures: dict[str, tuple[float, float, int]], before: dict[str, list[float]]) -> str:
    head = "| request | queries | median ms | p95 ms |"
    rule = "| --- | --- | --- | --- |"
    if before:
        head = "| request | queries before | queries now | median ms before | median ms now | p95 ms now |"
        rule = "| --- | --- | --- | --- | --- | --- |"
    lines = []
    for label, (median, p95, count) in figures.items():
        key = _key(label)
        if before:
            old = before.get(key)
            old_q, old_ms = (f"{old[2]:.0f}", f"{old[0]:.1f}") if old else ("-", "-")
            lines.append(f"| {label} | {old_q} | {count} | {old_ms} | {median:.1f} | {p95:.1f} |")
        else:
            lines.append(f"| {label} | {count} | {median:.1f} | {p95:.1f} |")
    return "\n".join([
        "# Each request's server cost (bench/bench_requests.py)",
        "",
        f"Cache: {_cache_words()}.",
        "",
        (f"{date.today().isoformat()}, {platform.node()}, {os.cpu_count()} cores, load average "
         f"{os.getloadavg()[0]:.2f}, Python {platform.python_version()}, PostgreSQL on 127.0.0.1, "
         f"Django test Client (full middleware, real session cookie, no network); {SAMPLES} requests "
         f"each after {WARM_UP} warm-up. Queries: SQL statements of one request."),
        "",
        head,
        rule,
        *lines,
        "",
    ])


def main() -> int:
    import logging

    logging.disable(logging.INFO)  # the request log's line per request
    bench_url, maintenance_url, name = bench_site._bench_database_url()
    bench_site._recreate(maintenance_url, name)
    try:
        bench_site._setup_django(bench_url)
        from django.core.management import call_command

        call_command("createcachetable")  # the database cache, when REDIS_URL is not set
        figures = measure()
    finally:
        from django.db import connections

        connections.close_all()
        bench_site._recreate(maintenance_url, name, drop_only=True)
    if "--save-before" in sys.argv:
        keyed = {_key(label): list(v) for label, v in figures.items()}
        BEFORE.write_text(json.dumps(keyed, indent=1) + "\n")
    before = json.loads(BEFORE.read_text()) if BEFORE.exists() else {}
    report = _report(figures, before)
    print(report)
    if "--append" in sys.argv and RESULTS.exists():
        # A second run under other settings (REDIS_URL) below the first one's table.
        report = RESULTS.read_text() + "\n" + report.split("\n", 2)[2]
    RESULTS.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
