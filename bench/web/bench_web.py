"""`make bench-web`: the site served the production way on PostgreSQL, driven by locust players.

1. Creates its own database (``<name>_web`` beside the one DATABASE_URL names), migrates it,
   collects the static files, and seeds players in pairs: each pair shares short games
   (BENCH_GAMES_PER_PAIR, default 4, played one after another; each a single game of BP: the
   cube is in play, so every turn starts with the player's roll) and every fifth pair also a
   25-point BP match some hundreds of actions in, played first.
   Every player gets a signed-in session, so the run measures play, not password hashing
   (a few players still log in through the form: the "log in" rows).
2. Starts the app server the production way (BENCH_SERVER, default: gunicorn with
   deploy/gunicorn.conf.py, one uvicorn worker per core with five page threads each, on the ASGI application, so open pages wait on
   their /live/ stream; BENCH_PUSH=0 makes the players poll instead) and the task worker, with DEBUG off and the production settings, and a private Redis for the cache
   and sessions as in production (BENCH_REDIS=0: none, the database cache).
   BENCH_STREAM_SERVERS=N (default 1) starts a second group of N processes, the same
   application, for the pages' /live/ streams alone, as deploy/ does (gammon-live.service, and
   nginx sending /live/ there); 0: the app servers hold the streams too. BENCH_STREAM_SERVER
   gives their command apart from the app servers' (default: BENCH_SERVER's default), so that
   another server can be tried for the pages alone.
3. Measures, with locust headless (bench/web/locustfile.py):
   - first, once the seeded tables are vacuumed and the machine is calm, each request's server
     time, on the wire and in the app (its Server-Timing header): one client, one request at a
     time, playing seeded games through the pages (bench/web/wire.py);
   - the ceiling: the same server's throughput on a trivial view (a 404 through the whole
     middleware stack) with 50 users asking without pause;
   - a handful of players at a brisk pace, p50 per endpoint;
   - load levels (BENCH_LEVELS, default 200 to 1,000 players by 100, up to the first not held; 5-15 s between actions;
     players arriving at most BENCH_ARRIVALS_PER_SECOND, default 10, over at least BENCH_RAMP_SECONDS, default 40,
     measured from BENCH_SETTLE_SECONDS, default 10, after the last has arrived):
     per endpoint requests/s, p50/p95/p99 and errors, after the ramp-up, and the cores each
     part used (app servers, PostgreSQL, Redis, the worker and locust itself: cpu_share.py),
     with the time the host's hypervisor took from the cores;
   - the live scenario (issue 31; BENCH_LIVE=0 leaves it out): BENCH_LIVE_MATCHES (200) live
     matches, whose players pair through Auto-Match as they arrive and act 2-8 s after their turn
     starts, beside BENCH_LIVE_BESIDE (600) correspondence players, measured as a level is; beside
     the requests, each roll's and move's push to the opponent's open page (target: p95 under
     300 ms), and from the database how late after each reserve ran out its timeout was applied
     (target: under 1 s; a tenth of the live players walk away once, so that reserves run out);
   - the machine's own speed (a fixed pure-Python loop) before the first measurement and after
     the last level: on a shared virtual machine it changes with the hour, and the players held
     with it.
4. Prints the figures and writes bench/results/web.md with the machine and the load average,
   and the largest number of players held with p95 under 100 ms on every endpoint and no error
   (an endpoint with fewer than 20 requests in the level is judged on its errors alone).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gamesite .venv/bin/python bench/web/bench_web.py
"""

from __future__ import annotations

import csv
import json
import math
import os
import platform
import random
import resource
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
LOCUSTFILE = ROOT / "bench" / "web" / "locustfile.py"
PYTHON = sys.executable

sys.path.insert(0, str(ROOT / "bench"))
from bench_site import _bench_database_url, _recreate  # the database set-up is bench_site's
from machine_speed import SPEED_LOOP, SPEED_RANGE_WORDS, machine_speed_ms

sys.path.insert(0, str(ROOT / "bench" / "web"))
import cpu_share  # where the cores went during a level
import wire  # each request's server time, one at a time

LEVELS = [int(n) for n in os.environ.get("BENCH_LEVELS", "200,300,400,500,600,700,800,900,1000").split(",") if n.strip()]
# A run of the live scenario alone (BENCH_LEVELS empty) is written beside the full run's report.
RESULTS = ROOT / "bench" / "results" / ("web.md" if LEVELS else "web-live.md")
# The live scenario (issue 31), after the levels: BENCH_LIVE_MATCHES live matches (their players
# act 2-8 s after their turn starts) beside BENCH_LIVE_BESIDE correspondence players; BENCH_LIVE=0
# leaves it out. BENCH_LEVELS= (empty) runs it alone, into bench/results/web-live.md.
LIVE = os.environ.get("BENCH_LIVE", "1") == "1"
LIVE_MATCHES = int(os.environ.get("BENCH_LIVE_MATCHES", "200"))
LIVE_BESIDE = int(os.environ.get("BENCH_LIVE_BESIDE", "600"))
# A move's push to the opponent's open page is held to this at p95, from the mover's request sent
# to the event read (its rows are named "push of ..."); every other row to TARGET_P95_MS.
TARGET_PUSH_P95_MS = 300.0
# Every timeout is applied by the worker within this of the reserve's end.
TARGET_TIMEOUT_LATE_S = 1.0
RAMP_SECONDS = int(os.environ.get("BENCH_RAMP_SECONDS", "40"))
# Players arrive at most this many a second. Each arrival costs the server a status page, a
# game page and a stream (about 30 ms of CPU on the 2-core machine): with every level ramped in
# the same 35 s, 1,000 players came 28 a second, and the pages of the last of them, still on
# their way when the measurement began, were judged on that burst rather than on the play.
ARRIVALS_PER_SECOND = float(os.environ.get("BENCH_ARRIVALS_PER_SECOND", "10"))
# Nor are they measured the moment the last has been started: locust starts a player before its
# first pages (Game status, the game) are answered, so the figures are reset this long after
# (bench/web/locustfile.py), when the last arrivals' pages are done and only play remains.
SETTLE_SECONDS = int(os.environ.get("BENCH_SETTLE_SECONDS", "10"))
MEASURE_SECONDS = int(os.environ.get("BENCH_MEASURE_SECONDS", "90"))
# The load driver shares the site's two cores, as real players' browsers never do: when the cores
# are busy, locust waits for one too, and the time it waited (before sending a request, before
# reading its answer) was reported as the site's. It runs this much nicer (negative: first in
# line), where the bench may raise a priority (as root, or with a high enough RLIMIT_NICE);
# BENCH_LOCUST_NICE=0 runs it as any other process. Its cores are still counted in each level.
LOCUST_NICE = int(os.environ.get("BENCH_LOCUST_NICE", "-10"))
LONG_MATCH_ACTIONS = int(os.environ.get("BENCH_LONG_ACTIONS", "300"))
TARGET_P95_MS = 100.0
# Short games each pair plays one after another. The levels run in turn on the same games, and a
# player whose games are all over idles (as a person would): with one game a pair, from 600
# players up the requests stopped growing with the players (45-51 a second from 600 to 1,000).
SHORT_GAMES_PER_PAIR = int(os.environ.get("BENCH_GAMES_PER_PAIR", "4"))
# Pairs of players with no game who pair through Auto-Match in the one-at-a-time table (wire.py).
WIRE_PAIRINGS = int(os.environ.get("BENCH_WIRE_PAIRINGS", "20"))
PASSWORD = "bench-pass-" + secrets.token_hex(4)


def _server_environment(database_url: str) -> dict[str, str]:
    """Production settings, with fresh keys and plain HTTP on the loopback."""
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DICE_KEY": secrets.token_hex(32),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "EMAIL_URL": "dummy:",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "gamesite.settings",
    })
    return env


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def _seed(env: dict[str, str], players: int, players_file: Path, live_players: int = 0,
          live_players_file: Path | None = None) -> tuple[dict[str, int], list[str]]:
    """Players in pairs with their games and sessions; writes the locust players file. And
    ``live_players`` more, with sessions and no game (they find their live matches through
    Auto-Match), in ``live_players_file``. Also the sessions of WIRE_PAIRINGS pairs of players
    with no game, who pair through Auto-Match one at a time (wire.py)."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from backgammon.engine.actions import Action
    from backgammon.services import game_apply_action, game_create, roll_request

    rng = random.Random(20261122)
    password_hash = make_password(PASSWORD)  # hashed once: every bench player shares it
    User = get_user_model()
    users = User.objects.bulk_create(
        [User(username=f"bench{i:04d}", password=password_hash) for i in range(players)]
    )
    users = list(User.objects.filter(username__startswith="bench").order_by("username"))
    from accounts.models import Profile

    # bulk_create sends no post_save, which makes each new user's profile (accounts/signals.py).
    Profile.objects.bulk_create([Profile(user=user) for user in users])
    games: dict[int, list[int]] = {user.pk: [] for user in users}
    long_matches = 0
    for pair in range(players // 2):
        black, white = users[2 * pair], users[2 * pair + 1]
        if pair % 5 == 0:
            match = game_create(black=black, white=white, variant="BP", match_length=25,
                                time_limit=timedelta(days=3), rated=True)
            while match.status == "active" and (match.action_count < LONG_MATCH_ACTIONS
                                                or match.phase != "move"):
                state = match.state()
                if state.phase.value == "move":
                    play = rng.choice(state.legal_plays())
                    action = Action.play([(m.origin, m.destination) for m in play.moves])
                else:
                    action = roll_request()
                match = game_apply_action(game_id=match.pk, actor=match.actor, action=action,
                                          expected_number=match.action_count)
            games[black.pk].append(match.pk)
            games[white.pk].append(match.pk)
            long_matches += 1
        for _ in range(SHORT_GAMES_PER_PAIR):  # played in turn: a pair whose game ends plays on
            short = game_create(black=black, white=white, variant="BP", match_length=1,
                                time_limit=timedelta(days=3), rated=True)
            games[black.pk].append(short.pk)
            games[white.pk].append(short.pk)
    # The seeded history queued a your-turn notice for each turn it passed: thousands of tasks
    # for moves nobody made, which the worker would be working through during the measurements.
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.all().delete()
    with players_file.open("w", encoding="utf-8") as out:
        for user in users:
            out.write(" ".join([user.username, _session_of(user), *map(str, games[user.pk])]) + "\n")
    if live_players and live_players_file is not None:
        live = User.objects.bulk_create(
            [User(username=f"live{i:04d}", password=password_hash) for i in range(live_players)]
        )
        live = list(User.objects.filter(username__startswith="live").order_by("username"))
        Profile.objects.bulk_create([Profile(user=user) for user in live])
        with live_players_file.open("w", encoding="utf-8") as out:
            for user in live:
                out.write(f"{user.username} {_session_of(user)}\n")
    pairing = User.objects.bulk_create(
        [User(username=f"pairing{i:04d}", password=password_hash) for i in range(2 * WIRE_PAIRINGS)]
    )
    Profile.objects.bulk_create([Profile(user=user) for user in pairing])
    seeded = {"players": players, "short games": players // 2 * SHORT_GAMES_PER_PAIR, "long matches": long_matches,
              "live players": live_players, "pairing players": len(pairing)}
    return seeded, [_session_of(user) for user in pairing]


def _live_seeded_words(live_players: int) -> str:
    return f"; and {live_players} players for the live matches, with no game" if live_players else ""


def _session_of(user: object) -> str:
    """A signed-in session of ``user``'s, as a browser would hold after logging in."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@dataclass
class Timeout:
    game_id: int
    flag_at: datetime  # the instant the reserve ran out
    late_s: float  # how long after it the worker applied the timeout


def _timeouts_since(since: datetime) -> list[Timeout]:
    """Every live timeout applied since ``since``, with how late it was.

    The reserve ran out at T + delay + R: T is when the timed-out player's turn began (the last
    action before the timeout that was not their own: the opponent's, or the site's opening
    roll, when the clock passed to them) and R their reserve as that action read it. The
    timed-out side is the one whose reserve the timeout reads as zero.
    """
    from backgammon.engine.board import Side
    from backgammon.models import GameAction

    found = []
    timeouts = (GameAction.objects.filter(kind="timeout", created_at__gte=since, game__live_reserve_s__isnull=False)
                .select_related("game").order_by("created_at"))
    for timeout in timeouts:
        side = Side.BLACK if timeout.clock_black_ms == 0 else Side.WHITE
        began = (GameAction.objects.filter(game_id=timeout.game_id, number__lt=timeout.number)
                 .exclude(side=int(side)).order_by("-number").first())
        if began is None:
            continue
        reserve_ms = began.clock_black_ms if side is Side.BLACK else began.clock_white_ms
        flag_at = began.created_at + timedelta(seconds=timeout.game.live_delay_s or 0, milliseconds=reserve_ms or 0)
        found.append(Timeout(timeout.game_id, flag_at, (timeout.created_at - flag_at).total_seconds()))
    return found


def _database_now() -> datetime:
    from django.utils import timezone

    return timezone.now()


def _settle() -> None:
    """VACUUM ANALYZE the freshly seeded tables (as autovacuum would, in the middle of the first
    measurements otherwise) and wait for the machine to calm down after the seeding."""
    from django.db import connection

    connection.close()
    with connection.cursor() as cursor:  # autocommit: VACUUM cannot run in a transaction
        cursor.execute("VACUUM ANALYZE")
    connection.close()
    deadline = time.monotonic() + 60
    while os.getloadavg()[0] > 1.0 and time.monotonic() < deadline:
        time.sleep(2)


# Everything runs on one machine, and the app server reaches PostgreSQL and the private Redis
# through their Unix sockets, as a one-machine deployment should (README, "Deploying"): at 400
# players, in five pairs of runs alternating, the app servers used 0-9% (about 5%) less CPU per
# request than through TCP on the loopback. BENCH_SOCKETS=0: TCP, as DATABASE_URL says.
SOCKETS = os.environ.get("BENCH_SOCKETS", "1") == "1"
# Processes of a second server group for the /live/ streams alone (0: the app servers hold them).
STREAM_SERVERS = int(os.environ.get("BENCH_STREAM_SERVERS", "1"))
POSTGRES_SOCKET_FOLDERS = ("/var/run/postgresql", "/tmp")


def _through_the_socket(url: str) -> str:
    """``url`` with PostgreSQL's Unix socket in place of a loopback host, when the server has one.

    >>> _through_the_socket("postgres://postgres@db.example:5432/x")
    'postgres://postgres@db.example:5432/x'
    """
    parts = urlsplit(url)
    if not SOCKETS or parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        return url
    port = parts.port or 5432
    for folder in POSTGRES_SOCKET_FOLDERS:
        if Path(folder, f".s.PGSQL.{port}").exists():
            user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
            return urlunsplit(parts._replace(netloc=f"{user}{quote(folder, safe='')}:{port}"))
    return url


def _start_redis(env: dict[str, str], folder: Path) -> subprocess.Popen[bytes] | None:
    """A private Redis for the run's cache and sessions, as in production (never the shared one),
    on a Unix socket in ``folder`` (TCP with BENCH_SOCKETS=0); none with BENCH_REDIS=0 or when
    redis-server is not installed (then the database cache)."""
    binary = shutil.which("redis-server")
    if os.environ.get("BENCH_REDIS", "1") == "0" or binary is None:
        return None
    port = _free_port()
    path = folder / "redis.sock"
    where = (["--port", "0", "--unixsocket", str(path), "--unixsocketperm", "700"] if SOCKETS
             else ["--port", str(port), "--bind", "127.0.0.1"])
    redis = subprocess.Popen([binary, *where, "--save", "", "--appendonly", "no"], start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if SOCKETS:
                with socket.socket(socket.AF_UNIX) as unix:
                    unix.connect(str(path))
                env["REDIS_URL"] = f"unix://{path}?db=0"
            else:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
            return redis
        except OSError:
            time.sleep(0.1)
    redis.kill()
    sys.exit("the private Redis did not start within 10 s")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_server(env: dict[str, str], port: int, variable: str = "BENCH_SERVER",
                  log_name: str = "bench-web-server.log") -> tuple[subprocess.Popen[bytes], str]:
    command = os.environ.get(
        variable,
        "gunicorn -c deploy/gunicorn.conf.py gamesite.asgi:application "
        "--bind 127.0.0.1:{port} --log-level warning",
    ).format(port=port)
    argv = shlex.split(command)
    argv[0] = str(Path(PYTHON).parent / argv[0])
    log = open(Path(tempfile.gettempdir()) / log_name, "wb")  # noqa: SIM115
    server = subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True, stdout=log,
                              stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return server, command
        except OSError:
            time.sleep(0.3)
    os.killpg(server.pid, signal.SIGKILL)  # its workers too, not only gunicorn's master
    server.wait()
    sys.exit("the app server did not answer within 30 s")


@dataclass
class Row:
    name: str
    requests: int
    failures: int
    per_second: float
    p50: float
    p95: float
    p99: float
    why: str = ""  # what the failed requests answered, as locust reports it
    app_p50: float = 0.0  # the same requests' own time in the app (their Server-Timing header)
    app_p95: float = 0.0
    queue_p95: float = 0.0  # and their wait for a page thread before it


def _cores_words(cores: dict[str, float], rows: list[Row]) -> str:
    """Where the cores went, and the app servers' CPU for each request they answered (what its
    pushes and the open pages' streams cost included): the figure a change that makes the site
    cheaper moves, at whatever load, the machine's speed allowing.

    >>> _cores_words({"app servers": 1.3, "PostgreSQL": 0.2}, [Row("Aggregated", 1, 0, 126.0, 1, 1, 1)])
    "app servers 1.30, PostgreSQL 0.20; the app servers' CPU per request answered: 10.3 ms"
    """
    text = cpu_share.words(cores)
    total = next((row for row in rows if row.name == "Aggregated"), None)
    if total is not None and total.per_second > 0 and "app servers" in cores:
        text += f"; the app servers' CPU per request answered: {cores['app servers'] / total.per_second * 1000:.1f} ms"
    return text


def _ramp(users: int) -> tuple[float, int]:
    """(players arriving a second, seconds before the measurement): all of them within
    RAMP_SECONDS - 5 s, but no more than ARRIVALS_PER_SECOND; locust resets its figures
    SETTLE_SECONDS after it has started the last, and the run lasts the measurement beyond.

    >>> _ramp(200), _ramp(1000)
    ((5.714285714285714, 40), (10.0, 105))
    """
    rate = max(1.0, min(users / max(1, RAMP_SECONDS - 5), ARRIVALS_PER_SECOND))
    return rate, max(RAMP_SECONDS, math.ceil(users / rate) + 5)


def _measured_from(users: int) -> float:
    """Seconds from locust's start to the measurement's (its figures reset once the last player
    has arrived and SETTLE_SECONDS have passed): the cores are counted from then on too.

    >>> _measured_from(1000)
    110.0
    """
    rate, _ = _ramp(users)
    return users / rate + SETTLE_SECONDS


def _driver_may_go_first() -> bool:
    """Whether locust can be started at LOCUST_NICE: lowering a niceness (a higher priority)
    takes root or an RLIMIT_NICE of at least 20 - LOCUST_NICE (Linux's setpriority(2))."""
    if LOCUST_NICE >= os.nice(0):
        return True
    limit = resource.getrlimit(resource.RLIMIT_NICE)[0]
    return os.geteuid() == 0 or limit == resource.RLIM_INFINITY or limit >= 20 - LOCUST_NICE


def _driver_priority() -> None:
    """In locust's process, before it starts (subprocess's preexec_fn)."""
    if _driver_may_go_first():
        os.setpriority(os.PRIO_PROCESS, 0, LOCUST_NICE)


def _driver_priority_words() -> str:
    if LOCUST_NICE == 0:
        return "at the same priority as the site's processes"
    if _driver_may_go_first():
        return (f"at niceness {LOCUST_NICE}, so that its own wait for a core is not counted as the "
                "site's time (its cores are counted below all the same)")
    return (f"at the same priority as the site's processes (niceness {LOCUST_NICE} needs root): its "
            "own waits for a core count in the times")


def _locust(users: int, user_class: str, seconds: int, env: dict[str, str], host: str,
            think: str = "5-15", extra_env: dict[str, str] | None = None) -> tuple[list[Row], float]:
    """Run locust headless; the rows after the ramp-up, and the 1-minute load average at the end.
    ``user_class``: one class of the locustfile, or several separated by spaces."""
    with tempfile.TemporaryDirectory() as folder:
        prefix = Path(folder) / "run"
        spawn_rate, ramp = _ramp(users)
        app_times_file = Path(folder) / "app-times.json"
        queue_times_file = Path(folder) / "queue-times.json"
        push_times_file = Path(folder) / "push-times.json"
        command = [
            str(Path(PYTHON).parent / "locust"), "-f", str(LOCUSTFILE), "--headless",
            "--host", host, "-u", str(users), "-r", f"{spawn_rate:.1f}",
            "-t", f"{ramp + SETTLE_SECONDS + seconds}s", "--only-summary",
            "--csv", str(prefix), "--loglevel", "WARNING", "--stop-timeout", "5", *user_class.split(),
        ]
        # GEVENT_RESOLVER=block: each new socket to 127.0.0.1 resolved in place. gevent's default
        # hands every lookup to a thread of its pool and back, 9% of locust's CPU in the live scenario.
        finished = subprocess.run(command, cwd=ROOT, env={**env, "BENCH_THINK": think, "GEVENT_RESOLVER": "block",
                                                          "BENCH_SETTLE_SECONDS": str(SETTLE_SECONDS),
                                                          "BENCH_MEASURE_FROM_SECONDS": f"{_measured_from(users):.1f}",
                                                          "BENCH_APP_TIMES": str(app_times_file),
                                                          "BENCH_QUEUE_TIMES": str(queue_times_file),
                                                          "BENCH_PUSH_TIMES": str(push_times_file),
                                                          **(extra_env or {})},
                                  check=False, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, preexec_fn=_driver_priority)
        if not Path(f"{prefix}_stats.csv").exists():
            sys.exit(f"locust failed:\n{finished.stderr[-3000:]}")
        load = os.getloadavg()[0]
        why: dict[str, list[str]] = {}
        with open(f"{prefix}_failures.csv", encoding="utf-8") as failures:
            for record in csv.DictReader(failures):
                why.setdefault(record["Name"], []).append(f"{record['Occurrences']}× {record['Error']}")
        rows = []
        with open(f"{prefix}_stats.csv", encoding="utf-8") as stats:
            for record in csv.DictReader(stats):
                rows.append(Row(
                    name=record["Name"], requests=int(record["Request Count"]),
                    failures=int(record["Failure Count"]),
                    per_second=float(record["Requests/s"]),
                    p50=_ms(record["50%"]), p95=_ms(record["95%"]), p99=_ms(record["99%"]),
                    why="; ".join(why.get(record["Name"], [])),
                ))
        _add_app_times(rows, app_times_file)
        _add_queue_times(rows, queue_times_file)
        rows[-1:-1] = _push_rows(push_times_file, seconds)  # before the Aggregated row, which counts requests
        return rows, load


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def _push_rows(push_times_file: Path, seconds: int) -> list[Row]:
    """A row for each kind of push the locustfile timed (a roll or a move reaching the opponent's page).

    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
    ...     json.dump({"push of a move": [30.0, 10.0, 20.0, 250.0]}, out)
    >>> [(r.name, r.requests, r.p50, r.p95) for r in _push_rows(Path(out.name), 2)]
    [('push of a move', 4, 20.0, 250.0)]
    """
    try:
        times: dict[str, list[float]] = json.loads(push_times_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    rows = []
    for name, found in sorted(times.items()):
        ordered = sorted(found)
        if ordered:
            rows.append(Row(name, len(ordered), 0, len(ordered) / seconds, _percentile(ordered, 0.5),
                            _percentile(ordered, 0.95), _percentile(ordered, 0.99)))
    return rows


def _times_by_row(rows: list[Row], times_file: Path) -> dict[str, list[float]]:
    """Each row's times (the Aggregated row: all of them), sorted, from a file the locustfile
    wrote (endpoint name: milliseconds); nothing when it wrote none."""
    try:
        times: dict[str, list[float]] = json.loads(times_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    everything = [ms for one in times.values() for ms in one]
    return {row.name: sorted(everything if row.name == "Aggregated" else times.get(row.name, [])) for row in rows}


def _add_app_times(rows: list[Row], app_times_file: Path) -> None:
    """Each endpoint's p50 and p95 in the app, from what the locustfile collected.

    >>> rows = [Row("roll", 3, 0, 1.0, 9, 20, 30), Row("Aggregated", 3, 0, 1.0, 9, 20, 30)]
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
    ...     json.dump({"roll": [4.0, 2.0, 8.0]}, out)
    >>> _add_app_times(rows, Path(out.name)); [(r.app_p50, r.app_p95) for r in rows]
    [(4.0, 8.0), (4.0, 8.0)]
    """
    found = _times_by_row(rows, app_times_file)
    for row in rows:
        if found.get(row.name):
            row.app_p50, row.app_p95 = _percentile(found[row.name], 0.5), _percentile(found[row.name], 0.95)


def _add_queue_times(rows: list[Row], queue_times_file: Path) -> None:
    """Each endpoint's p95 wait for a page thread, from what the locustfile collected.

    >>> rows = [Row("roll", 3, 0, 1.0, 9, 20, 30), Row("Aggregated", 3, 0, 1.0, 9, 20, 30)]
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
    ...     json.dump({"roll": [0.5, 40.0, 1.0]}, out)
    >>> _add_queue_times(rows, Path(out.name)); [r.queue_p95 for r in rows]
    [40.0, 40.0]
    """
    found = _times_by_row(rows, queue_times_file)
    for row in rows:
        if found.get(row.name):
            row.queue_p95 = _percentile(found[row.name], 0.95)


def _ms(text: str) -> float:
    """A percentile from locust's CSV: "N/A" (no request of that kind) reads as 0."""
    try:
        return float(text)
    except ValueError:
        return 0.0


# What every player's turn goes through: a level where one of them never happened measured
# something else than the scenario, and says so.
TURN_STEPS = ("roll", "submit move")


def _missing_steps(rows: list[Row], steps: tuple[str, ...] = TURN_STEPS) -> list[str]:
    seen = {r.name for r in rows if r.requests}
    return [step for step in steps if step not in seen]


# A log-in hashes the password (PBKDF2), slow on purpose against guessing: it must not fail,
# but its time is not held to the page target (and only a few players log in).
SLOW_ON_PURPOSE = {"log in"}


# A p95 needs some twenty requests to mean anything: of 5 (the few players whose game ended
# opening the status page and their next game), it is simply the slowest one, and a single
# stall of the machine decided the level. Those endpoints must not fail; their times are
# shown, and marked as not judged.
MIN_JUDGED_REQUESTS = 20


def _judged(row: Row) -> bool:
    return row.requests >= MIN_JUDGED_REQUESTS and row.name not in SLOW_ON_PURPOSE


def _target_ms(row: Row) -> float:
    """A push (a move reaching the opponent's page) has its own target; every request, the page's.

    >>> _target_ms(Row("push of a move (live)", 1, 0, 1, 1, 1, 1)), _target_ms(Row("roll", 1, 0, 1, 1, 1, 1))
    (300.0, 100.0)
    """
    return TARGET_PUSH_P95_MS if row.name.startswith("push of") else TARGET_P95_MS


def _held(rows: list[Row]) -> bool:
    return all(r.failures == 0 and (r.p95 < _target_ms(r) or not _judged(r))
               for r in rows if r.requests and r.name != "Aggregated")


def _worst_p95(rows: list[Row]) -> float:
    """The worst p95 of the requests (the pushes, timed to their own target, apart)."""
    return max((r.p95 for r in rows if r.name != "Aggregated" and _judged(r) and _target_ms(r) == TARGET_P95_MS),
               default=0.0)


def _table(rows: list[Row], ceiling: float | None = None) -> list[str]:
    lines = [("| endpoint | requests | errors | req/s | p50 ms | p95 ms | p99 ms | in the app p50 ms | p95 ms "
              "| waiting for a page thread p95 ms |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        too_few = 0 < r.requests < MIN_JUDGED_REQUESTS and r.name not in SLOW_ON_PURPOSE | {"Aggregated"}
        name = f"{r.name} (too few to judge)" if too_few else r.name
        # A push is no request of its own: the app's time is the move's, in its row.
        push = r.name.startswith("push of")
        in_app = ("–", "–", "–") if push else (f"{r.app_p50:.1f}", f"{r.app_p95:.1f}", f"{r.queue_p95:.1f}")
        lines.append(f"| {name} | {r.requests} | {r.failures} | {r.per_second:.1f} | "
                     f"{r.p50:.0f} | {r.p95:.0f} | {r.p99:.0f} | {in_app[0]} | {in_app[1]} | {in_app[2]} |")
    return lines


def _machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}, {platform.system()}"


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a process group: politely, then (a server still draining a thousand open streams
    after gunicorn's graceful 30 s) for good, so the report is written either way."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass


LIVE_STEPS = ("roll (live)", "submit move (live)", "push of a move (live)")


@dataclass
class LiveLevel:
    players: int
    rows: list[Row]
    load: float
    cores: dict[str, float]
    timeouts: list[Timeout]
    measured_from: datetime  # when locust reset its figures
    matches: int  # live matches started during the level
    playing: int  # live matches still being played at its end

    def held(self) -> bool:
        return (_held(self.rows) and not _missing_steps(self.rows, LIVE_STEPS) and bool(self.timeouts)
                and all(t.late_s < TARGET_TIMEOUT_LATE_S for t in self.timeouts))


def _live_level(env: dict[str, str], host: str, processes: dict[str, int | None], live_players_file: Path) -> LiveLevel:
    """The live scenario: LIVE_MATCHES matches' players (locustfile.LivePlayer, who pair through
    Auto-Match as they arrive) beside LIVE_BESIDE correspondence players, measured as a level is,
    with the timeouts read from the database afterwards."""
    from backgammon.models import Game

    live_players = 2 * LIVE_MATCHES
    players = LIVE_BESIDE + live_players
    print(f"live: {LIVE_MATCHES} live matches (their players act 2-8 s after their turn starts) beside "
          f"{LIVE_BESIDE} correspondence players ...", flush=True)
    since = _database_now()
    rate, _ramp_seconds = _ramp(players)
    extra = {"BENCH_LIVE_COUNT": str(live_players), "BENCH_LIVE_PLAYERS": str(live_players_file)}
    (rows, load), cores = cpu_share.measured(
        partial(_locust, players, "Player LivePlayer", MEASURE_SECONDS, env, host, extra_env=extra), processes,
        from_seconds=_measured_from(players))
    until = _database_now()
    time.sleep(2)  # a reserve that ran out in the last moment is timed out by now, or late
    timeouts = [t for t in _timeouts_since(since) if t.flag_at <= until]
    live_games = Game.objects.filter(created_at__gte=since, live_reserve_s__isnull=False)
    level = LiveLevel(players, rows, load, cores, timeouts,
                      since + timedelta(seconds=players / rate + SETTLE_SECONDS),
                      live_games.count(), live_games.filter(status=Game.Status.ACTIVE).count())
    total = next((r for r in rows if r.name == "Aggregated"), None)
    print(f"  {total.per_second if total else 0:.0f} req/s, worst p95 {_worst_p95(rows):.0f} ms, "
          f"{sum(r.failures for r in rows if r.name != 'Aggregated')} errors, load average {load:.2f}", flush=True)
    print(f"  cores used: {_cores_words(cores, rows)}", flush=True)
    for r in rows:
        if r.name in LIVE_STEPS or r.name.startswith("push of"):
            print(f"  {r.name}: {r.requests}, p95 {r.p95:.0f} ms", flush=True)
    print(f"  {_timeouts_words(level)}", flush=True)
    print(f"  {'held' if level.held() else 'not held'}", flush=True)
    return level


def _timeouts_words(level: LiveLevel) -> str:
    """
    >>> at = datetime(2026, 1, 1)
    >>> level = LiveLevel(1, [], 0, {}, [Timeout(1, at, 0.2), Timeout(2, at + timedelta(seconds=9), 0.6)],
    ...                   at + timedelta(seconds=5), 3, 2)
    >>> _timeouts_words(level)
    '2 timeouts (1 within the measurement), applied 0.20-0.60 s after the reserve ran out (p50 0.20 s)'
    """
    if not level.timeouts:
        return "no timeout: no reserve ran out during the level"
    late = sorted(t.late_s for t in level.timeouts)
    within = sum(t.flag_at >= level.measured_from for t in level.timeouts)
    return (f"{len(late)} timeouts ({within} within the measurement), applied {late[0]:.2f}-{late[-1]:.2f} s "
            f"after the reserve ran out (p50 {_percentile(late, 0.5):.2f} s)")


def _live_report(level: LiveLevel) -> list[str]:
    rate, ramp = _ramp(level.players)
    lines = [
        "", (f"## Live: {LIVE_MATCHES} live matches beside {LIVE_BESIDE} correspondence players "
             f"({level.players} players arriving {rate:.1f} a second over {ramp} s, measured for {MEASURE_SECONDS} s "
             f"from {SETTLE_SECONDS} s after the last; load average {level.load:.2f} at the end)"), "",
        ("The live players (rows marked *(live)*) ask Auto-Match for a live Blitz match as they arrive, wait on "
         "its page until paired, and act 2-8 s after their turn starts; when a match ends they ask for another. "
         f"One in {os.environ.get('BENCH_LIVE_LEAVERS_EVERY', '10')} plays one-point matches (8 s + 30 s) and walks away once, on "
         "their turn, so that their reserve runs out under the load. The correspondence players play as in the "
         "levels above (5-15 s between actions). A *push* row times each roll or move from the mover's request "
         "sent to the opponent's open page reading it on its stream; its target is a p95 under "
         f"{TARGET_PUSH_P95_MS:.0f} ms. The timeouts are read from the database: how long after the player's "
         "reserve ran out (the turn's start, its delay and the reserve the clock read then) the worker's "
         f"timeout was applied; each must be under {TARGET_TIMEOUT_LATE_S:.0f} s."), "",
        (f"**{'Held' if level.held() else 'Not held'}.** Live matches started during the level: {level.matches}; "
         f"still being played at its end: {level.playing}. Timeouts: {_timeouts_words(level)}."), "",
    ]
    lines += _table(level.rows)
    lines += ["", (f"Cores used on average while it was measured (of {os.cpu_count()}): "
                   f"{_cores_words(level.cores, level.rows)}.")]
    failed = [f"{r.name}: {r.why}" for r in level.rows if r.why and r.name != "Aggregated"]
    if failed:
        lines += ["", "Errors: " + "; ".join(failed) + "."]
    missing = _missing_steps(level.rows, LIVE_STEPS)
    if missing:
        lines += ["", f"**Not measured: {', '.join(missing)}** (no live player got there)."]
    return lines


def main() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per player, and more
    start_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    database_url, maintenance_url, name = _bench_database_url("_web")
    database_url = _through_the_socket(database_url)
    env = _server_environment(database_url)
    most = max([*LEVELS, LIVE_BESIDE if LIVE else 0])
    print(f"bench_web: database {name}; seeding {most} players"
          f"{f' and {2 * LIVE_MATCHES} live ones' if LIVE else ''} ...", flush=True)
    _recreate(maintenance_url, name)
    _manage(env, "migrate", "--noinput")
    _manage(env, "createcachetable")
    _manage(env, "collectstatic", "--noinput", "--clear")
    players_file = Path(tempfile.mkstemp(prefix="bench-players-", suffix=".txt")[1])
    live_players_file = Path(tempfile.mkstemp(prefix="bench-live-players-", suffix=".txt")[1])
    seeded, pairing_sessions = _seed(env, most + most % 2, players_file, 2 * LIVE_MATCHES if LIVE else 0,
                                     live_players_file)
    _settle()
    speed_before = machine_speed_ms()
    print(f"machine speed: the fixed loop took {speed_before:.1f} ms", flush=True)
    env.update({"BENCH_PLAYERS": str(players_file), "BENCH_PASSWORD": PASSWORD})
    redis_folder = Path(tempfile.mkdtemp(prefix="bench-redis-"))
    redis = _start_redis(env, redis_folder)
    stream_server = server = worker = analyser = None
    stream_port: int | None = None
    report: list[str] = []
    try:  # whatever started is stopped, even when a server fails to start
        if STREAM_SERVERS:
            stream_port = _free_port()
            stream_server, _ = _start_server({**env, "WEB_CONCURRENCY": str(STREAM_SERVERS)}, stream_port,
                                             "BENCH_STREAM_SERVER", "bench-web-stream-server.log")
            env["BENCH_STREAM_HOST"] = f"http://127.0.0.1:{stream_port}"
        port = _free_port()
        server, server_command = _start_server(env, port)
        worker = subprocess.Popen([PYTHON, "manage.py", "db_worker", "--no-reload"], cwd=ROOT,
                                  env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        # Analyses have a queue and a worker of their own (as in production), never the bots'.
        analyser = subprocess.Popen([PYTHON, "manage.py", "db_worker", "--no-reload", "--queue-name", "analysis"],
                                    cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        host = f"http://127.0.0.1:{port}"
        print("on the wire: one request at a time (server time per request) ...", flush=True)
        wire_rows = wire.measure(port, players_file, stream_port=stream_port, pairing_sessions=pairing_sessions)
        for row in wire_rows:
            print(f"  {row.request:<20} p50 {row.p50:5.1f} ms  p90 {row.p90:5.1f} ms on the wire, "
                  f"p50 {row.app_p50:5.1f} ms  p90 {row.app_p90:5.1f} ms in the app  ({row.count})", flush=True)

        print("ceiling: the trivial view, 50 users without pause ...", flush=True)
        ceiling_rows, ceiling_load = _locust(50, "Ceiling", 20, env, host, think="0-0")
        ceiling = sum(r.per_second for r in ceiling_rows if r.name != "Aggregated")
        trivial_p50 = next((r.p50 for r in ceiling_rows if r.name != "Aggregated"), 0.0)
        print(f"  {ceiling:.0f} requests/s (load average {ceiling_load:.2f})", flush=True)

        print("alone: 10 players, 1-2 s between actions ...", flush=True)
        alone, _ = _locust(10, "Player", 60, env, host, think="1-2")
        for r in alone:
            print(f"  {r.name:<14} p50 {r.p50:5.0f} ms  p95 {r.p95:5.0f} ms", flush=True)

        levels: list[tuple[int, list[Row], float, dict[str, float]]] = []
        processes = {"app servers": server.pid, "task worker": worker.pid, "Redis": redis.pid if redis else None}
        if stream_server is not None:
            processes["stream servers"] = stream_server.pid
        best = 0
        for players in LEVELS:
            print(f"{players} players, 5-15 s between actions ...", flush=True)
            (rows, load), cores = cpu_share.measured(
                partial(_locust, players, "Player", MEASURE_SECONDS, env, host), processes,
                from_seconds=_measured_from(players))
            levels.append((players, rows, load, cores))
            total = next((r for r in rows if r.name == "Aggregated"), None)
            worst = _worst_p95(rows)
            errors = sum(r.failures for r in rows if r.name != "Aggregated")
            print(f"  {total.per_second if total else 0:.0f} req/s, worst p95 {worst:.0f} ms, "
                  f"{errors} errors, load average {load:.2f}", flush=True)
            print(f"  cores used: {_cores_words(cores, rows)}", flush=True)
            for r in rows:
                if r.name in TURN_STEPS:
                    print(f"  {r.name}: p95 {r.p95:.0f} ms on the wire, {r.app_p95:.0f} ms in the app", flush=True)
            for r in rows:
                if r.why and r.name != "Aggregated":
                    print(f"  errors of {r.name}: {r.why}", flush=True)
            if not _held(rows):
                break
            best = players
        print(f"held: {best} players with p95 under {TARGET_P95_MS:.0f} ms and no error", flush=True)
        live = _live_level(env, host, processes, live_players_file) if LIVE and LIVE_MATCHES else None
        speed_after = machine_speed_ms()
        print(f"machine speed: the fixed loop took {speed_after:.1f} ms", flush=True)

        report += [
            "# Web load benchmark (`make bench-web`)", "",
            (f"Machine: {_machine()}. Server: `{server_command}` "
            f"({os.environ.get('WEB_CONCURRENCY', os.cpu_count())} worker processes, "
            f"{os.environ.get('WEB_THREADS', '5')} page threads each)"
            f"{f'; the /live/ streams on a second group of {STREAM_SERVERS} such process' + ('es' if STREAM_SERVERS > 1 else '') if STREAM_SERVERS else ''}"
            ", with the task worker beside "
            f"it, on PostgreSQL{' through its Unix socket' if '@%2F' in database_url else ''}, DEBUG off; "
            "cache and sessions in "
            f"{'a private Redis (REDIS_URL' + (', a Unix socket)' if SOCKETS else ')') if redis else 'the database (no Redis)'}. "
            f"Load driver: locust (headless) on the same machine, {_driver_priority_words()}."),
            f"Load average before the run: {start_load}.",
            (f"The machine's speed (`{SPEED_LOOP}`, best of three, as `python3 -m timeit -n 3 -r 3` "
            f"times it; it changes with the hour on this shared virtual machine: {SPEED_RANGE_WORDS}): "
            f"{speed_before:.1f} ms once seeded, {speed_after:.1f} ms after "
            "the last level; each level's cores below say how much time the host took from them "
            f"(\"{cpu_share.STOLEN}\")."),
            (f"Seeded: {seeded['players']} players in pairs, {seeded['short games']} short games, "
            f"{seeded['long matches']} long matches of about {LONG_MATCH_ACTIONS} actions"
            f"{_live_seeded_words(seeded['live players'])}; and {seeded['pairing players']} players "
            "with no game, who pair through Auto-Match one at a time."), "",
            (f"**Largest number of players held with p95 under {TARGET_P95_MS:.0f} ms on every "
            f"endpoint and no error: {best}.** (An endpoint with fewer than {MIN_JUDGED_REQUESTS} "
            "requests in a level, such as the status page a few players open when their game ends, "
            "must have no error, but its p95 is only its slowest request and is not judged.)"
            if LEVELS else "The live scenario alone (no correspondence levels: BENCH_LEVELS was empty)."), "",
            "## Ceiling", "",
            (f"The trivial view (a 404 through the whole middleware stack): {ceiling:.0f} "
            f"requests/s with 50 users asking without pause, p50 {trivial_p50:.0f} ms "
            f"(load average {ceiling_load:.2f})."), "",
            "## Each request on the wire, one at a time (bench/web/wire.py)", "",
            ("One client with one keep-alive connection plays seeded short games through the "
            "pages' links and forms, never two requests at once, with nothing else competing for "
            "the cores. On the wire: from the request's first byte sent to the answer's last "
            "received (the app, the ASGI server and a loopback round trip). In the app: the "
            "server's own time for the request, Django's middleware and view, as its "
            "Server-Timing header tells (gamesite/request_log.py); what a move publishes to the "
            "opponent's open page is drawn and sent after its answer has gone out (backgammon/"
            "live.py), so it is in neither, and in the cores used under load below. Then pairs of "
            "players with no game ask Auto-Match for the same correspondence game, one after the "
            "other: the first request finds nobody (*none to pair*), the second pairs the two and "
            "starts their game (*paired*: the live scenario's slowest request, here without the "
            "load; a live pairing runs the same code and starts a clock, which a game left unplayed "
            "would run out during the levels)."), "",
            "| request | count | on the wire p50 ms | p90 ms | in the app p50 ms | p90 ms |",
            "|---|---:|---:|---:|---:|---:|",
            *[f"| {r.request} | {r.count} | {r.p50:.1f} | {r.p90:.1f} | {r.app_p50:.1f} | {r.app_p90:.1f} |"
              for r in wire_rows],
            "",
            "## 10 players at a brisk pace (1-2 s between actions)", "",
            ("Locust itself runs on the same two cores, so these include its own delays; the last "
            "column is each p50 relative to the trivial view's p50 under the ceiling's load."), "",
            "| endpoint | p50 ms | p95 ms | × trivial |", "|---|---:|---:|---:|",
        ]
        for r in alone:
            ratio = r.p50 / trivial_p50 if trivial_p50 else float("nan")
            report.append(f"| {r.name} | {r.p50:.0f} | {r.p95:.0f} | {ratio:.1f} |")
        report += ["", ("In each level's table, *in the app* is the answers' own time in Django (their "
                        "Server-Timing header), and *waiting for a page thread* their time between "
                        "reaching the application and a page thread taking them up (the same header's "
                        "queue figure); the rest of their time on the wire was spent outside both: "
                        "on the event loop, waiting for a core, and in locust.")]
        for players, rows, load, cores in levels:
            rate, ramp = _ramp(players)
            report += ["", (f"## {players} players (5-15 s between actions; arriving {rate:.1f} a second "
                       f"over {ramp} s, measured for {MEASURE_SECONDS} s from {SETTLE_SECONDS} s after the last; load average "
                       f"{load:.2f} at the end)"), ""]
            report += _table(rows, ceiling)
            report += ["", (f"Cores used on average while it was measured (of {os.cpu_count()}): "
                       f"{_cores_words(cores, rows)}.")]
            failed = [f"{r.name}: {r.why}" for r in rows if r.why and r.name != "Aggregated"]
            if failed:
                report += ["", "Errors: " + "; ".join(failed) + "."]
            missing = _missing_steps(rows)
            if missing:
                report += ["", f"**Not measured at this level: {', '.join(missing)}** (no player got there)."]
        if live is not None:
            report += _live_report(live)
    finally:
        for process in (server, worker, analyser, redis, stream_server):
            if process is not None:
                _stop(process)
        players_file.unlink(missing_ok=True)
        live_players_file.unlink(missing_ok=True)
        shutil.rmtree(redis_folder, ignore_errors=True)
    RESULTS.write_text("\n".join(report) + "\n", encoding="utf-8")
    print(f"written: {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
