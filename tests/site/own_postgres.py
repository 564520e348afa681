"""A PostgreSQL cluster of the test's own, in a temporary directory on a free port, that the
test may stop and start at will (the shared server is never touched), and the site served
against it by real gunicorn processes.

PostgreSQL refuses to run as root, and CI runs as root: the cluster then belongs to the
``postgres`` system user and its commands run through ``runuser``.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamesite.testenv import SERVER_ENVIRONMENT

ROOT = Path(__file__).resolve().parents[2]
__all__ = ["OwnPostgres", "SiteServer", "free_port", "own_postgres", "run_manage"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


class OwnPostgres:
    def __init__(self, bin_dir: Path, directory: Path) -> None:
        self.bin_dir = bin_dir
        self.directory = directory
        self.data = directory / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, name: str = "gamesite") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def initialise(self) -> None:
        if self.as_root:
            shutil.chown(self.directory, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "gamesite")

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory} "
            "-c fsync=off -c max_connections=50"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.directory / "log"),
                  "-w", "-t", "60", "start")

    def stop(self) -> None:
        """A fast shutdown: open sessions are cut off, their transactions rolled back."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    bin_dir = _bin_dir()
    if bin_dir is None or (os.geteuid() == 0 and shutil.which("runuser") is None):
        pytest.fail("these tests need PostgreSQL's server programs (/usr/lib/postgresql/*/bin)")
    directory = Path(tempfile.mkdtemp(prefix="own-postgres-"))
    cluster = OwnPostgres(bin_dir, directory)
    try:
        cluster.initialise()
        yield cluster
    finally:
        if cluster.running():
            cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)


def run_manage(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """A management command against that cluster, with the app servers' settings (their cache)."""
    env = {**os.environ, "DATABASE_URL": database_url, **SERVER_ENVIRONMENT}
    return subprocess.run([sys.executable, "manage.py", *args], check=False, cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


class SiteServer:
    """The site under gunicorn with deploy/gunicorn.conf.py, as in production; its standard
    error (the logs) goes to ``log_path``."""

    def __init__(self, database_url: str, log_path: Path, **environment: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        env = {**os.environ, "DATABASE_URL": database_url, "WEB_CONCURRENCY": "3",
               "GUNICORN_BIND": f"127.0.0.1:{self.port}", **SERVER_ENVIRONMENT, **environment}
        command = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "gamesite.asgi:application"]
        self._log = log_path.open("wb")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT)
        self._wait_until_up()

    def _wait_until_up(self) -> None:
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            if self.process.poll() is not None:
                raise AssertionError(f"gunicorn exited: {self.log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/health/", timeout=10):
                    return
            except OSError:  # refused, reset, or no worker ready to answer yet
                time.sleep(0.2)
        raise AssertionError("gunicorn did not answer /health/ within a minute")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._log.close()
