"""The deployment files agree with each other where a mismatch fails only in production."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
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
    monkeypatch.setenv("GUNICORN_HEAP_FREEZE", "0")  # not the test process's heap (test below)
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


_HEAP_PROBE = """
import gc, json, runpy, sys, time
conf = runpy.run_path(sys.argv[1])
conf["post_worker_init"](None)
at_start = gc.get_freeze_count()
loaded_later = [[n] for n in range(50_000)]  # what a worker's first requests import and compile
time.sleep(1.5)
print(json.dumps({"at_start": at_start, "later": gc.get_freeze_count(), "young": gc.get_threshold()[0]}))
"""


@pytest.mark.parametrize("freeze", ["1", "0"])
def test_each_app_worker_sets_its_loaded_heap_aside_from_the_collector_twice(freeze: str) -> None:
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "GUNICORN_HEAP_FREEZE": freeze, "GUNICORN_HEAP_FREEZE_AGAIN_S": "0.5"}
    found = json.loads(subprocess.run([sys.executable, "-c", _HEAP_PROBE, str(DEPLOY / "gunicorn.conf.py")],
                                      env=env, capture_output=True, text=True, check=True).stdout)
    if freeze == "0":
        assert found == {"at_start": 0, "later": 0, "young": 700}
    else:
        assert found["at_start"] > 1000
        assert found["later"] > found["at_start"] + 50_000
        assert found["young"] == 7000


def test_the_heap_freeze_settings_refuse_what_they_cannot_mean(monkeypatch: pytest.MonkeyPatch) -> None:
    for bad in ("yes", "2", ""):
        monkeypatch.setenv("GUNICORN_HEAP_FREEZE", bad)
        with pytest.raises(ValueError, match="GUNICORN_HEAP_FREEZE must be 0 or 1"):
            runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    monkeypatch.setenv("GUNICORN_HEAP_FREEZE", "1")
    for bad in ("soon", "-1", "nan", "1e9"):
        monkeypatch.setenv("GUNICORN_HEAP_FREEZE_AGAIN_S", bad)
        with pytest.raises(ValueError, match="GUNICORN_HEAP_FREEZE_AGAIN_S must be seconds"):
            runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    monkeypatch.setenv("GUNICORN_HEAP_FREEZE_AGAIN_S", "120")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["heap_freeze_again_s"] == 120


def _unit_defaults(unit: str) -> dict[str, str]:
    found = re.search(r"^Environment=(.*)$", unit, re.MULTILINE)
    assert found is not None
    return dict(pair.split("=", 1) for pair in found.group(1).split())


def test_nginx_sends_the_pages_streams_to_the_stream_server_unit() -> None:
    unit = (DEPLOY / "systemd" / "gammon-live.service").read_text()
    bind = _unit_defaults(unit)["STREAM_BIND"]
    conf = (DEPLOY / "nginx" / "gammon.conf").read_text()
    upstream = re.search(r"^upstream gammon_live \{(.*?)\n\}", conf, re.DOTALL | re.MULTILINE)
    assert upstream is not None and re.search(rf"^\s*server {re.escape(bind)}[ ;]", upstream.group(1), re.MULTILINE)
    app = re.search(r"^upstream gammon_app \{(.*?)\n\}", conf, re.DOTALL | re.MULTILINE)
    assert app is not None and bind not in app.group(1)
    location = re.search(r"^    location /live/ \{(.*?)\n    \}", conf, re.DOTALL | re.MULTILINE)
    assert location is not None
    for line in ("proxy_pass http://gammon_live;", "proxy_buffering off;", "proxy_read_timeout 1h;"):
        assert line in location.group(1)


def test_the_stream_server_unit_listens_apart_whatever_the_app_servers_environment_says() -> None:
    # Both units read /etc/gammon/env, which sets GUNICORN_BIND and WEB_CONCURRENCY for the app
    # servers: the stream server's own command line must win over deploy/gunicorn.conf.py.
    unit = (DEPLOY / "systemd" / "gammon-live.service").read_text()
    command = re.search(r"^ExecStart=(.*)$", unit, re.MULTILINE)
    assert command is not None
    defaults = _unit_defaults(unit)
    words = [re.sub(r"\$\{(\w+)\}", lambda name: defaults[name.group(1)], word) for word in command.group(1).split()]
    assert words[0] == "/srv/gammon/app/.venv/bin/gunicorn"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    app_environment = {**os.environ, "GUNICORN_BIND": "127.0.0.1:8000", "WEB_CONCURRENCY": "5"}
    printed = subprocess.run([str(gunicorn), *words[1:], "--print-config"], cwd=DEPLOY.parent, env=app_environment,
                             capture_output=True, text=True, timeout=60, check=True).stdout
    settings = dict(re.findall(r"^(\w+)\s+= (.*)$", printed, re.MULTILINE))
    assert settings["bind"] == repr([defaults["STREAM_BIND"]]) and settings["workers"] == defaults["STREAM_CONCURRENCY"]
    assert settings["worker_class"] == "uvicorn_worker.UvicornWorker"
