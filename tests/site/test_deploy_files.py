"""The deployment files agree with each other where a mismatch fails only in production."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _gunicorn_keepalive(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.delenv("GUNICORN_KEEPALIVE", raising=False)
    return int(runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["keepalive"])


def test_the_app_servers_keep_idle_connections_longer_than_nginx_reuses_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # nginx sending a request down a connection the app server is closing answers it 502, and a
    # move (a POST) is not retried: the app server must be the one that waits longer.
    upstream = re.search(r"upstream gammon_app \{(.*?)\n\}", (DEPLOY / "nginx" / "gammon.conf").read_text(), re.DOTALL)
    assert upstream is not None
    nginx_idle = re.search(r"^\s*keepalive_timeout (\d+)s;", upstream.group(1), re.MULTILINE)
    assert nginx_idle is not None and re.search(r"^\s*keepalive \d+;", upstream.group(1), re.MULTILINE)
    assert _gunicorn_keepalive(monkeypatch) > int(nginx_idle.group(1))


def test_the_keepalive_can_be_set_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUNICORN_KEEPALIVE", "90")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["keepalive"] == 90


def test_each_app_worker_lets_a_waiting_thread_in_after_a_millisecond(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    before = sys.getswitchinterval()
    try:
        runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["post_worker_init"](None)
        assert sys.getswitchinterval() == pytest.approx(0.001)
        monkeypatch.setenv("GUNICORN_SWITCH_INTERVAL_MS", "2.5")
        runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["post_worker_init"](None)
        assert sys.getswitchinterval() == pytest.approx(0.0025)
        for bad in ("0", "fast", "1e9", "nan"):
            monkeypatch.setenv("GUNICORN_SWITCH_INTERVAL_MS", bad)
            with pytest.raises(ValueError, match="GUNICORN_SWITCH_INTERVAL_MS must be above 0"):
                runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    finally:
        sys.setswitchinterval(before)
