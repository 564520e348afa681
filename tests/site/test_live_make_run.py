"""Under ``make run`` (SQLite, no Redis: the app server's channel layer in its own memory, the task
worker another process) the worker's changes reach an open page by push: the database carries
them (gamesite/live_bridge). A real uvicorn app server, a real ``manage.py db_worker`` playing the
computer opponent, a player making her moves from a third process, and a page's stream read as
the browser reads it: each of the computer's moves must reach the page within 3 seconds.

Run with ``-s`` to see the delays measured.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PLAYER = ROOT / "tests" / "site" / "make_run_play.py"
MOVES = 8
WITHIN_SECONDS = 3.0

pytestmark = pytest.mark.slow


def _environment(tmp_path: Path) -> dict[str, str]:
    # As `make run` has it: DEBUG, SQLite, the cache in the database (shared by the processes),
    # no Redis, and LIVE_VIA_DATABASE at its default (the suite's own process turns it off).
    unset = ("SECRET_KEY", "DICE_KEY", "CACHE_IN_PROCESS", "LIVE_VIA_DATABASE", "REDIS_URL", "DATABASE_POOL_SIZE")
    env = {key: value for key, value in os.environ.items() if key not in unset}
    env.update(DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
               DEV_SECRETS_FILE=str(tmp_path / ".dev-secrets"), LOG_LEVEL="WARNING")
    return env


@pytest.fixture
def make_run_site(tmp_path: Path) -> Iterator[tuple[str, dict[str, Any], dict[str, str]]]:
    """The site as `make run` serves it: its address, the game of alice against the computer, and
    its processes' environment."""
    env = _environment(tmp_path)
    started: list[subprocess.Popen[str]] = []

    def start(*args: str, **options: Any) -> subprocess.Popen[str]:
        process = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, text=True, **options)
        started.append(process)
        return process

    try:
        for command in (("migrate", "--noinput"), ("createcachetable",)):
            assert start("manage.py", *command, stdout=subprocess.DEVNULL).wait(timeout=180) == 0
        start("manage.py", "db_worker", "--no-reload")  # as `make run`: the default interval
        setup = start(str(PLAYER), "setup", stdout=subprocess.PIPE)
        out, _ = setup.communicate(timeout=120)
        assert setup.returncode == 0
        scene = json.loads(out.strip().splitlines()[-1])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        # (A stream still open at the end is cut after a second rather than waited for.)
        start("-m", "uvicorn", "gamesite.asgi:application", "--fd", str(listener.fileno()),
              "--log-level", "warning", "--timeout-graceful-shutdown", "1", pass_fds=(listener.fileno(),))
        listener.close()
        url = f"http://127.0.0.1:{port}"
        give_up = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/health/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < give_up, "the app server never answered"
            time.sleep(0.2)
        yield url, scene, env
    finally:
        for process in reversed(started):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)


def _read_events(url: str, session: str, heard: list[tuple[float, str, dict[str, Any]]],
                 hello: threading.Event) -> None:
    """A page's stream, as the browser's EventSource reads it: each event with when it came."""
    timeout = httpx.Timeout(10, read=None)
    try:
        with httpx.stream("GET", url, cookies={"sessionid": session}, timeout=timeout) as response:
            name = ""
            for line in response.iter_lines():
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: ") and name:
                    heard.append((time.time(), name, json.loads(line.removeprefix("data: "))))
                    if name == "hello":
                        hello.set()
    except httpx.TransportError:  # the server stopped at the end of the test
        pass


def test_the_computers_moves_reach_an_open_page_within_3_seconds_without_redis(
    make_run_site: tuple[str, dict[str, Any], dict[str, str]],
) -> None:
    url, scene, env = make_run_site
    game_id = scene["game"]
    heard: list[tuple[float, str, dict[str, Any]]] = []
    hello = threading.Event()
    reader = threading.Thread(target=_read_events, daemon=True,
                              args=(f"{url}/live/?game={game_id}", scene["session"], heard, hello))
    reader.start()
    assert hello.wait(30), "the stream never said hello"
    assert heard[0][2] == {"poll": 0}  # the worker's events come by push: the page needs no slow poll

    player = subprocess.run([sys.executable, str(PLAYER), "play", str(game_id), str(MOVES)], check=False, cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=300)
    assert player.returncode == 0, player.stderr[-3000:]
    lines = [json.loads(line) for line in player.stdout.splitlines()]
    hers, answers = lines[:-1], lines[-1]["answers"]
    assert len(answers) >= MOVES - 2, lines[-1]  # a game may end early, but not that early
    time.sleep(WITHIN_SECONDS)  # the last answer's event, if it is late

    committed_to_page, submit_to_page = [], []
    for answer in answers:
        # Exactly its news: the player's next roll, made from another process the moment her
        # turn came, may reach the page first (her own page would have had its answer).
        arrivals = [(at, data) for at, name, data in heard if name == "game" and data.get("n") == answer["n"]]
        assert arrivals, f"the computer's move to action {answer['n']} never reached the page"
        arrived, news = arrivals[0]
        assert "html" in news  # pushed with the region her page shows: her listening mark was seen
        submitted = max(action["at"] for action in hers if action["n"] <= answer["n"])
        committed_to_page.append(arrived - answer["at"])
        submit_to_page.append(arrived - submitted)
    print(f"\nmake run, the computer's {len(answers)} moves: from its commit to the page median "
          f"{statistics.median(committed_to_page):.3f} s, worst {max(committed_to_page):.3f} s; "
          f"from the player's submit median {statistics.median(submit_to_page):.3f} s, "
          f"worst {max(submit_to_page):.3f} s")
    assert max(committed_to_page) < WITHIN_SECONDS, committed_to_page
