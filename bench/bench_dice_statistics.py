"""Dice statistics speed on PostgreSQL with many rolls: the aggregation the pages run, uncached.

Creates its own database (``<name>_dicebench`` beside the one DATABASE_URL names), migrates it,
writes ROLLS logged rolls (each followed by a logged play, as in real games) over GAMES games
between PLAYERS players straight into the tables (these pages only read them), then times the
site-wide tally (one GROUP BY over every roll; the page caches it for five minutes), one
player's tally (three GROUP BYs over that player's games) and both pages through Django's test
Client, and drops the database. Writes bench/results/dice_statistics.md.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gamesite .venv/bin/python bench/bench_dice_statistics.py
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_site import _bench_database_url, _recreate, _setup_django

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "dice_statistics.md"
ROLLS = int(os.environ.get("BENCH_DICE_ROLLS", "200000"))
GAMES = 2000
PLAYERS = 40
REPEATS = 20


def _fill() -> list[Any]:
    from django.contrib.auth import get_user_model

    from backgammon.models import Game, GameAction

    rng = random.Random(9)
    model = get_user_model()
    players = [model.objects.create_user(username=f"dice{i}", password=None) for i in range(PLAYERS)]
    games = Game.objects.bulk_create(
        Game(variant="BX", time_limit=timedelta(days=3), black=rng.choice(players[:20]),
             white=rng.choice(players[20:]))
        for _ in range(GAMES)
    )
    per_game = ROLLS // GAMES
    batch: list[GameAction] = []
    for game in games:
        for turn in range(per_game):
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            side = None if turn == 0 else turn % 2
            batch.append(GameAction(game=game, number=2 * turn + 1, side=side, kind="roll",
                                    data={"kind": "roll", "dice": dice}))
            batch.append(GameAction(game=game, number=2 * turn + 2, side=side, kind="play",
                                    data={"kind": "play", "moves": [[8, 5], [6, 5]]}))
        if len(batch) > 20000:
            GameAction.objects.bulk_create(batch)
            batch = []
    GameAction.objects.bulk_create(batch)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return players


def _times(call: Callable[[], Any]) -> tuple[float, float]:
    samples = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def main() -> int:
    bench_url, maintenance_url, name = _bench_database_url()
    name += "_dice"
    bench_url = bench_url.rsplit("/", 1)[0] + f"/{name}"
    _recreate(maintenance_url, name)
    try:
        _setup_django(bench_url)
        from django.core.cache import cache
        from django.core.management import call_command
        from django.test import Client

        from backgammon.dice_statistics import player_tally, site_tally

        call_command("createcachetable", verbosity=0)
        players = _fill()
        client = Client()
        player = players[3]
        rows = [
            ("site-wide tally, uncached (one GROUP BY over every roll)", _times(site_tally)),
            ("one player's tally (three GROUP BYs over their games)", _times(lambda: player_tally(player))),
            ("/dice/ page, cache warm", _times(lambda: client.get("/dice/"))),
            ("/dice/ page, cache cleared first", _times(lambda: (cache.clear(), client.get("/dice/")))),
            (f"/dice/{player.username}/ page", _times(lambda: client.get(f"/dice/{player.username}/"))),
        ]
    finally:
        from django.db import connections

        connections.close_all()
        _recreate(maintenance_url, name, drop_only=True)
    report = "\n".join([
        "# Dice statistics benchmark (bench/bench_dice_statistics.py)",
        "",
        (f"{date.today().isoformat()}, Python {platform.python_version()}, PostgreSQL on 127.0.0.1, "
         f"{ROLLS} logged rolls (and as many plays) in {GAMES} games between {PLAYERS} players; "
         f"{REPEATS} runs each."),
        "",
        "| what | median ms | p95 ms |",
        "| --- | --- | --- |",
        *(f"| {label} | {median:.1f} | {p95:.1f} |" for label, (median, p95) in rows),
        "",
    ])
    RESULTS.write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
