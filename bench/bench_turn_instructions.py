"""A turn's cost in machine instructions, which no hour of the shared machine changes.

`make bench-web`'s figures move with the machine's hour (the fixed loop read 37 to 88 ms on the
same day), so a change worth a few percent of a request's CPU cannot be told from them. This
counts instructions instead, with valgrind's callgrind: the same code, data and dice give the
same count to within about a tenth of a percent, whatever else the machine is doing.

What is counted: correspondence turns as a player's open page makes them, through the app
servers' own WSGI door (gamesite/asgi.py: ``page_door``, with the kept answers and the work left
for after the answer), each a roll and then the move built from the answer's click map, both
posted as the page's htmx posts them (tests/site/page_door.py writes them: the session cookie,
a CSRF token, htmx's headers, urlencoded), with both players' pages open and both seen this
minute, so that each roll and move is pushed to the opponent's page: drawn in the request's thread and sent on
an event loop of its own thread, as the app servers send it. Everything the app process runs
for them is counted, that thread's included; PostgreSQL and Redis, other processes, are not.

The parent builds a database of its own (``<name>_instructions`` beside the one DATABASE_URL
names) with a private Redis (bench/web/bench_web.py starts it), seeds 70 games one move in, then
runs ``--measure`` under ``valgrind --tool=callgrind --instr-atstart=no``: a first turn in each
game (the kept answers, templates and code paths warmed, not counted), then a second, counted:
the rolls, a dump, the moves (reading each roll's answer for its click map, the page's script's
work, is not counted). Time stands still at one instant and the dice key is fixed, so every run plays the same dice.
Writes bench/results/turn_instructions.md.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gamesite .venv/bin/python bench/bench_turn_instructions.py
"""

from __future__ import annotations

import asyncio
import datetime
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# This checkout's code, whatever the venv points at; the suite's requests through the page door.
for folder in (ROOT / "tests" / "site", ROOT / "bench" / "web", ROOT / "bench", ROOT):
    sys.path.insert(0, str(folder))

from bench_site import _bench_database_url, _recreate
from bench_web import _server_environment, _session_of, _start_redis
from page_door import post_environ, through_the_door
from page_forms import EXPECTED_NUMBER, TURN_MAP, turn_from_map

RESULTS = ROOT / "bench" / "results" / "turn_instructions.md"
# What each row was counted with: rows of one version compare; a change of what is counted is a
# new version. 1: each counted roller was first marked seen in it (a database write that comes
# once a minute in play, not at each turn), and the forms were posted multipart. 2: the players
# were seen this minute before the count, and the forms are posted urlencoded, as htmx posts them.
BENCH_VERSION = 2
# BENCH_PROFILE=<file>: the counted turns run under cProfile instead, not callgrind, and its
# statistics go to that file (``python -m pstats <file>``): which of our functions the count is in.
PROFILE_TO = os.environ.get("BENCH_PROFILE", "")
WARM_GAMES = 10
COUNTED_GAMES = 60
SEEDED_AT = datetime.datetime(2026, 12, 7, 6, 0, tzinfo=datetime.UTC)
PLAYED_AT = SEEDED_AT + datetime.timedelta(hours=1)
DICE_KEY = "5eed" * 16  # this bench's own database: the same dice in every run
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "game", "HTTP_HX_CURRENT_URL": "http://localhost/"}


def _seed() -> None:
    """COUNTED_GAMES + WARM_GAMES pairs, each with a 5-point match whose opening move is played:
    its second player to roll."""
    import time_machine
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from backgammon.engine.actions import Action
    from backgammon.services import game_apply_action, game_create

    call_command("migrate", verbosity=0)
    rng = random.Random(20261207)
    user_model = get_user_model()
    with time_machine.travel(SEEDED_AT, tick=False):
        for pair in range(COUNTED_GAMES + WARM_GAMES):
            black = user_model.objects.create_user(username=f"black{pair:03d}", password=None)
            white = user_model.objects.create_user(username=f"white{pair:03d}", password=None)
            game = game_create(black=black, white=white, variant="BP", match_length=5,
                               time_limit=datetime.timedelta(days=3), rated=True)
            play = rng.choice(game.state().legal_plays())
            game_apply_action(game_id=game.pk, actor=game.actor, expected_number=game.action_count,
                              action=Action.play([(m.origin, m.destination) for m in play.moves]))
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.all().delete()  # the your-turn notices the seeding queued


def _measure() -> None:
    """Under callgrind: the warm turns, then the counted ones with instrumentation on."""
    import time_machine

    time_machine.travel(PLAYED_AT, tick=False).start()
    import django

    django.setup()
    from django.core.cache import cache

    from accounts.presence import note_seen
    from backgammon.listening import listening_key
    from backgammon.live import remember_server_loop
    from backgammon.models import Game
    from gamesite.heap import settle_heap

    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    remember_server_loop(loop)  # pushes go out on it, as on an app server's event loop
    games = list(Game.objects.select_related("black", "white").order_by("pk"))
    sessions: dict[int, str] = {}
    for game in games:
        for player in (game.black, game.white):
            sessions[player.pk] = _session_of(player)
            # Their pages are open (backgammon/views/live.py's marks): each action is pushed.
            cache.set(listening_key(player.pk), 1, 3600)
            cache.set(listening_key(player.pk, game.pk), 1, 3600)
            # And they have been here this minute: a player is marked seen once a minute
            # (accounts/presence.py), not at each of their turns, which come seconds apart.
            note_seen(player.pk)

    # Each request is written before it is counted and read after (the page's script's work).
    def roll_request(game: Any) -> tuple[Any, dict[str, Any]]:
        game.refresh_from_db()
        return game, post_environ(f"/games/{game.pk}/act/", sessions[game.actor_id],
                                  {"kind": "roll", "expected_number": game.action_count}, **HTMX)

    def move_request(game: Any, rolled: Any) -> tuple[Any, dict[str, Any] | None]:
        """The move the page's script would post, built from the roll's answer."""
        found, number = TURN_MAP.search(rolled.body), EXPECTED_NUMBER.search(rolled.body)
        if not rolled.status.startswith("200") or found is None or number is None:
            return game, None
        steps, swap = turn_from_map(found.group(1))
        return game, post_environ(f"/games/{game.pk}/act/", sessions[game.actor_id],
                                  {"kind": "play", "expected_number": number.group(1), "steps": steps,
                                   "swap": swap}, **HTMX)

    def moved(game: Any, request: dict[str, Any] | None) -> str:
        if request is None:
            return f"game {game.pk}: the roll's answer has no click map"
        status = through_the_door(request).status
        return "" if status.startswith("200") else f"game {game.pk}: the move answered {status}"

    problems = [moved(*move_request(game, through_the_door(request)))
                for game, request in map(roll_request, games)]
    settle_heap(again_after_s=3600)  # as deploy/gunicorn.conf.py does in each app worker
    counted = [roll_request(game) for game in games[WARM_GAMES:]]
    # The rolls, then the moves, counted apart (a dump between them).
    _callgrind("-i", "on")
    rolled = [(game, through_the_door(request)) for game, request in counted]
    _callgrind("-i", "off")
    _callgrind("-d")
    moves = [move_request(game, answer) for game, answer in rolled]
    _callgrind("-i", "on")
    problems += [moved(game, request) for game, request in moves]
    _callgrind("-i", "off")
    wrong = [problem for problem in problems if problem]
    print(f"turns counted: {len(counted)}; refused: {len(wrong)} {wrong[:3]}")
    if wrong:
        sys.exit(1)


_profile: Any = None


def _callgrind(*args: str) -> None:
    global _profile
    if PROFILE_TO:
        if _profile is None:
            import cProfile

            _profile = cProfile.Profile()
        if args == ("-i", "on"):
            _profile.enable()
        elif args == ("-i", "off"):
            _profile.disable()
            _profile.dump_stats(PROFILE_TO)
        return
    subprocess.run(["callgrind_control", *args, str(os.getpid())], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> int:
    if sys.argv[1:] == ["--seed"]:
        import django

        django.setup()
        _seed()
        return 0
    if sys.argv[1:] == ["--measure"]:
        _measure()
        return 0
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("bench_turn_instructions needs valgrind (Debian's valgrind package)")
    database_url, maintenance_url, name = _bench_database_url("_instructions")
    _recreate(maintenance_url, name)
    # testserver: the host RequestFactory writes (tests/site/page_door.py).
    env = _server_environment(database_url) | {"DICE_KEY": DICE_KEY, "LOG_LEVEL": "ERROR",
                                                "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver"}
    with tempfile.TemporaryDirectory() as folder:
        redis = _start_redis(env, Path(folder))
        try:
            print(f"bench_turn_instructions: database {name}; seeding {COUNTED_GAMES + WARM_GAMES} games ...")
            seeding = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--seed"], env=env, check=False)
            if seeding.returncode:
                sys.exit("seeding failed")
            print(f"counting {COUNTED_GAMES} turns under callgrind (a few minutes) ...")
            out = Path(folder) / "callgrind.out"
            under = [] if PROFILE_TO else ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                                           f"--callgrind-out-file={out}"]
            counted = subprocess.run([*under, sys.executable, str(Path(__file__).resolve()), "--measure"],
                                     cwd=folder, env=env, capture_output=True, text=True, check=False)
            if PROFILE_TO and not counted.returncode:
                print(f"profiled, not counted: {PROFILE_TO}")
                return 0
            if counted.returncode:
                sys.exit(f"the counted run failed:\n{counted.stdout[-2000:]}\n{counted.stderr[-3000:]}")
            rolls, moves = _parts(Path(folder))
        finally:
            if redis is not None:
                redis.kill()
            _recreate(maintenance_url, name, drop_only=True)
    roll, move = rolls / COUNTED_GAMES, moves / COUNTED_GAMES
    print(f"  a roll {roll / 1e6:.2f} million instructions, a move {move / 1e6:.2f} million "
          f"(each with its push), a turn {(roll + move) / 1e6:.2f} million")
    RESULTS.write_text(_report(roll, move), encoding="utf-8")
    print(f"written: {RESULTS.relative_to(ROOT)}")
    return 0


def _parts(folder: Path) -> tuple[int, int]:
    """The instructions of the rolls (the first dump) and of the moves (the dump at the end)."""
    totals: dict[int, int] = {}
    for path in folder.glob("callgrind.out*"):
        text = path.read_text(encoding="utf-8", errors="replace")
        part = re.search(r"^part: (\d+)$", text, re.MULTILINE)
        total = re.search(r"^totals: (\d+)$", text, re.MULTILINE)  # the header's "summary:" reads 0
        if part and total:
            totals[int(part.group(1))] = int(total.group(1))
    if sorted(totals) != [1, 2]:
        sys.exit(f"expected two parts (the rolls, the moves) from callgrind, found {sorted(totals)}")
    return totals[1], totals[2]


def _commit() -> str:
    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                           check=False)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True, check=False)
    return (found.stdout.strip() or "?") + (" and changes" if dirty.stdout.strip() else "")


def _report(roll: float, move: float) -> str:
    """The table of every run so far (this file's rows kept), this one last: each row says the
    commit it counted, so a change's effect is the difference between two rows."""
    kept = []
    if RESULTS.exists():
        kept = [line for line in RESULTS.read_text(encoding="utf-8").splitlines() if line.startswith("| 20")]
    row = (f"| {datetime.date.today()} | {_commit()} | {BENCH_VERSION} "
           f"| {platform.machine()}, Python {platform.python_version()} "
           f"| {roll / 1e6:.2f} | {move / 1e6:.2f} | {(roll + move) / 1e6:.2f} |")
    return (
        "# A turn's cost in instructions (`bench/bench_turn_instructions.py`)\n\n"
        "Counted by valgrind's callgrind in the app process (the page thread and the event loop's "
        "thread; not PostgreSQL's or Redis's): correspondence turns as an open page makes them, a roll "
        "and then the move built from the roll's answer's click map (the building not counted), "
        "through the app servers' WSGI door, each pushed to the opponent's open page. "
        f"{COUNTED_GAMES} turns (5-point matches a move in), after a first turn in each game; the same "
        "dice in every run. Two runs of one commit differ by about a tenth of a percent. Rows compare "
        "only with rows of the same bench version (`BENCH_VERSION` in the script says what each "
        "counted).\n\n"
        "| date | commit | bench | machine | million instructions: a roll | a move | a turn |\n"
        "|---|---|---:|---|---:|---:|---:|\n"
        + "\n".join([*kept, row]) + "\n"
    )


if __name__ == "__main__":
    sys.exit(main())
