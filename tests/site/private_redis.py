"""A redis-server of one test's own, on a free port, which the test may pause and resume.

Paused with SIGSTOP, Redis keeps its port and the kernel still takes connections and bytes for
it, but nothing answers: the stall issue 29 saw (not a clean stop, which refuses at once).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time

import pytest

__all__ = ["PrivateRedis"]


class PrivateRedis:
    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed")
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.paused = False
        self._server = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        pytest.fail("the private redis-server did not start")

    def pause(self) -> None:
        os.kill(self._server.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        os.kill(self._server.pid, signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        if self.paused:
            self.resume()
        self._server.kill()
        self._server.wait(5)
