"""Site speed on PostgreSQL: the game page, a move submitted through the view, the status page.

Measured twice: on short games (a few turns in) and on long matches (B9 matches driven through the
services to about LONG_ACTIONS logged actions), where anything that replays the whole log shows.

Creates its own database (``<name>_bench`` beside the one DATABASE_URL names, default
postgres://postgres@127.0.0.1:5432/gamesite), migrates it, starts games through the services,
then times requests with Django's test Client (the whole middleware stack, no network) and
drops the database. Prints median and 95th percentile in ms against the targets and writes
bench/results/site.md.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gamesite .venv/bin/python bench/bench_site.py
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "site.md"
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "300"))
GAMES = 40
LONG_MATCHES = 4
LONG_ACTIONS = int(os.environ.get("BENCH_LONG_ACTIONS", "400"))
WARM_UP = 20
TARGET_P95_MS = 50.0
TARGET_PAGE_KB = 100.0


def _bench_database_url(suffix: str = "_bench") -> tuple[str, str, str]:
    """(the bench database URL, the maintenance URL, the bench database name): the database
    DATABASE_URL names, with ``suffix``, on the same PostgreSQL server."""
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gamesite")
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        sys.exit(f"the benchmarks need PostgreSQL; DATABASE_URL is {url!r}")
    name = (parts.path.lstrip("/") or "gamesite") + suffix
    bench = urlunsplit(parts._replace(path=f"/{name}"))
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    return bench, maintenance, name


def _recreate(maintenance_url: str, name: str, *, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def _setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gamesite.settings")
    sys.path.insert(0, str(ROOT))
    import django

    import gamesite.testenv  # noqa: F401  (throwaway keys, plain HTTP, testserver allowed)

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _players() -> list[Any]:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    return [model.objects.create_user(username=f"player{i}", password=None) for i in range(8)]


def _random_action(state: Any, rng: random.Random) -> Any:
    from backgammon.engine.actions import Action
    from backgammon.services import roll_request

    if state.phase.value == "move":
        play = rng.choice(state.legal_plays())
        return Action.play([(m.origin, m.destination) for m in play.moves])
    if state.phase.value == "take_or_drop":
        return Action.take()
    return roll_request()


def _games(players: list[Any], rng: random.Random) -> list[Any]:
    """Games of several variants, each some turns in, all waiting for a play."""
    from backgammon.services import challenge_accept, challenge_create, game_apply_action

    variants = ["BX", "BN", "BA", "BR"]  # no cube: every turn is a play, as the move bench needs
    games = []
    for i in range(GAMES):
        black, white = rng.sample(players, 2)
        challenge = challenge_create(
            challenger=black, opponent=white.username, variant=variants[i % len(variants)],
            time_limit=timedelta(days=3),
        )
        game = challenge_accept(challenge_id=challenge.pk, actor=white)
        for _ in range(rng.randrange(4, 20)):
            action = _random_action(game.state(), rng)
            game = game_apply_action(game_id=game.pk, actor=game.actor, action=action,
                                     expected_number=game.action_count)
        games.append(game)
    return games


def _long_matches(players: list[Any], rng: random.Random) -> list[Any]:
    """B9 matches (cube in play, so every turn is a roll and then a play) with LONG_ACTIONS actions.

    Nobody doubles: a random 9-point match without doubles runs to about 900 actions, so the
    matches stay in progress through the benchmark's own moves. Each ends waiting for a play.
    """
    from backgammon.services import challenge_accept, challenge_create, game_apply_action

    games = []
    while len(games) < LONG_MATCHES:
        black, white = rng.sample(players, 2)
        challenge = challenge_create(
            challenger=black, opponent=white.username, variant="B9", time_limit=timedelta(days=3),
        )
        game = challenge_accept(challenge_id=challenge.pk, actor=white)
        while game.status == "active" and (game.action_count < LONG_ACTIONS or game.phase != "move"):
            action = _random_action(game.state(), rng)
            game = game_apply_action(game_id=game.pk, actor=game.actor, action=action,
                                     expected_number=game.action_count)
        if game.status == "active":
            games.append(game)
    return games


def _timed(call: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call(*args)
    return (time.perf_counter() - start) * 1000.0, result


def _summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    return statistics.median(ordered), p95


def _clients(players: list[Any]) -> dict[int, Any]:
    from django.test import Client

    clients = {}
    for player in players:
        client = Client()
        client.force_login(player)
        clients[player.pk] = client
    return clients


def _bench_game_page(games: list[Any], clients: dict[int, Any]) -> tuple[list[float], int, str]:
    from django.urls import reverse

    times: list[float] = []
    size = 0
    for i in range(WARM_UP + REQUESTS):
        game = games[i % len(games)]
        url = reverse("backgammon:game", args=[game.pk])
        elapsed, response = _timed(clients[game.actor_id].get, url)
        assert response.status_code == 200, (url, response.status_code)
        size = max(size, len(response.content))
        if i >= WARM_UP:
            times.append(elapsed)
    return times, size, "game page (backgammon:game), as the player to act"


def _move_text(origin: int, destination: int) -> str:
    return f"{'bar' if origin == 25 else origin}/{'off' if destination == 0 else destination}"


def _bench_moves(games: list[Any], clients: dict[int, Any], rng: random.Random) -> list[float]:
    from django.urls import reverse

    from backgammon.models import Game
    from backgammon.services import game_apply_action, roll_request

    times: list[float] = []
    done = 0
    while done < WARM_UP + REQUESTS:
        if not Game.objects.filter(pk__in=[g.pk for g in games], status="active").exists():
            raise RuntimeError("every game ended before the move benchmark had its samples")
        for game in games:
            game = Game.objects.get(pk=game.pk)
            if game.status == "active" and game.phase == "roll":
                # With the cube in play a turn starts with a roll (or a double): roll, untimed.
                game = game_apply_action(game_id=game.pk, actor=game.actor, action=roll_request(),
                                         expected_number=game.action_count)
            if game.status != "active" or game.phase != "move":
                continue
            play = rng.choice(game.state().legal_plays())
            # One die per move ("bar/20 20/16"): what a player types move by move.
            text = " ".join(_move_text(m.origin, m.destination) for m in play.moves)
            data = {"kind": "play", "moves_text": text, "expected_number": game.action_count}
            if not text:
                data = {"kind": "play", "steps": "", "expected_number": game.action_count}
            url = reverse("backgammon:game_act", args=[game.pk])
            client = clients[game.actor_id]
            elapsed, response = _timed(client.post, url, data)
            assert response.status_code == 302, (url, data, response.status_code)
            if done >= WARM_UP:
                times.append(elapsed)
            done += 1
            if done >= WARM_UP + REQUESTS:
                break
    return times


def _bench_status(players: list[Any], clients: dict[int, Any]) -> list[float]:
    from django.urls import reverse

    url = reverse("backgammon:status")
    times = []
    for i in range(WARM_UP + REQUESTS):
        elapsed, response = _timed(clients[players[i % len(players)].pk].get, url)
        assert response.status_code == 200
        if i >= WARM_UP:
            times.append(elapsed)
    return times


def _line(label: str, samples: list[float]) -> tuple[str, bool]:
    median, p95 = _summary(samples)
    ok = p95 < TARGET_P95_MS
    verdict = "meets" if ok else "MISSES"
    return (f"| {label} | {len(samples)} | {median:.1f} | {p95:.1f} | p95 < {TARGET_P95_MS:.0f} ms: {verdict} |", ok)


def main() -> int:
    bench_url, maintenance_url, name = _bench_database_url()
    _recreate(maintenance_url, name)
    try:
        _setup_django(bench_url)
        from django.urls import NoReverseMatch, reverse

        rng = random.Random(2026)
        players = _players()
        games = _games(players, rng)
        clients = _clients(players)
        rows = []
        try:
            reverse("backgammon:game", args=[1])
        except NoReverseMatch:
            page_times, size, label = _bench_status(players, clients), 0, "status page (game page not there yet)"
        else:
            page_times, size, label = _bench_game_page(games, clients)
        rows.append(_line(label, page_times))
        rows.append(_line("move submitted through backgammon:game_act (a play, then redirect)", _bench_moves(games, clients, rng)))
        rows.append(_line("game status page (backgammon:status)", _bench_status(players, clients)))
        long_games = _long_matches(players, rng)
        counts = [game.action_count for game in long_games]
        long_label = f"long B9 match ({min(counts)}-{max(counts)} actions logged)"
        page_times, long_size, _ = _bench_game_page(long_games, clients)
        size = max(size, long_size)
        rows.append(_line(f"{long_label}: game page, as the player to act", page_times))
        rows.append(_line(f"{long_label}: move submitted through backgammon:game_act",
                          _bench_moves(long_games, clients, rng)))
    finally:
        from django.db import connections

        connections.close_all()
        _recreate(maintenance_url, name, drop_only=True)
    size_kb = size / 1024
    size_ok = size_kb < TARGET_PAGE_KB
    report = "\n".join(
        [
            "# Site benchmark (bench/bench_site.py)",
            "",
            (f"{date.today().isoformat()}, Python {platform.python_version()}, PostgreSQL on 127.0.0.1, "
            f"Django test Client (full middleware, no network), {GAMES} short games in progress "
            f"(4 to 20 turns in), then {LONG_MATCHES} long B9 matches driven through the services to "
            f"{LONG_ACTIONS} actions and on; {WARM_UP} warm-up requests not counted."),
            "",
            "| request | n | median ms | p95 ms | target |",
            "| --- | --- | --- | --- | --- |",
            *(row for row, _ in rows),
            "",
            (f"Largest game page: {size_kb:.1f} KB of HTML (target < {TARGET_PAGE_KB:.0f} KB: "
            f"{'meets' if size_ok else 'MISSES'})."),
            "",
        ]
    )
    print(report)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(report)
    # A missed target shows in the table rather than as a failure: `make bench` runs every script.
    return 0


if __name__ == "__main__":
    sys.exit(main())
