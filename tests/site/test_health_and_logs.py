"""Deployment: /health/, the JSON request log, the 503 when the database is out of reach, the
site with Redis out of reach, and `manage.py check --deploy` with production settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.test import Client

from tests.site.own_postgres import free_port

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "SECRET_KEY": "a-production-like-secret-key-" + "k3y" * 12,
    "DICE_KEY": "00ff" * 16,
    "ALLOWED_HOSTS": "gammon.example",
    "EMAIL_URL": "smtp://mailer:secret@mail.example:587?tls=1",
    "REDIS_URL": "redis://cache.example:6379/0",
    "LOG_FORMAT": "json",
    "SECURE_PROXY_SSL_HEADER": "1",
}


def _dead_redis_url() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"  # a free port: nothing listens there


def _in_a_fresh_process(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run Django code in its own interpreter, with the suite's environment plus ``env``."""
    setup = "import django, os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'gamesite.settings')\n"
    return subprocess.run([sys.executable, "-c", setup + "django.setup()\n" + code], check=False,
                          cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=120)


def test_health_is_ok_with_one_query_and_no_session(client: Client, django_assert_max_num_queries: Any,
                                                    db: None) -> None:
    with django_assert_max_num_queries(1):
        response = client.get("/health/", HTTP_HOST="10.0.0.7")  # a balancer asks by address
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok"}}
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies and Session.objects.count() == 0


def test_health_checks_redis_when_configured(client: Client, settings: Any, db: None) -> None:
    settings.REDIS_URL = _dead_redis_url()
    response = client.get("/health/")
    # The pages still answer without Redis: a load balancer must keep the server (README, Faults).
    assert response.status_code == 200
    assert response.json() == {"status": "degraded", "checks": {"database": "ok", "redis": "failed"}}


def test_health_answers_only_reads(client: Client, db: None) -> None:
    # Anything else goes on to the site, which has no page there.
    assert client.post("/health/").status_code == 404


DATABASE_DOWN_CODE = """
from django.test import Client
import json
client = Client(raise_request_exception=False)  # answer as a server would, not re-raise
health = client.get('/health/')
page = client.get('/ladders/?x=1')
api = client.get('/api/v1/me', HTTP_AUTHORIZATION='Bearer gt_nothing')
login = client.post('/accounts/login/', {'username': 'a', 'password': 'b'})
print(json.dumps({
    'health': [health.status_code, health.json()],
    'page': [page.status_code, page['Retry-After'], page.content.decode()],
    'api': [api.status_code, api['Retry-After'], api['Content-Type'], api.json()],
    'login': [login.status_code, login.content.decode()],
}))
"""


def test_with_the_database_down_health_pages_and_api_answer_503() -> None:
    dead = f"postgres://postgres@127.0.0.1:{free_port()}/gamesite"
    result = _in_a_fresh_process(DATABASE_DOWN_CODE, DATABASE_URL=dead)
    assert result.returncode == 0, result.stderr[-3000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["health"] == [503, {"status": "failed", "checks": {"database": "failed"}}]
    status, retry_after, page = seen["page"]
    assert (status, retry_after) == (503, "5")
    assert "Back in a moment" in page and 'class="site-header"' in page
    assert 'href="/ladders/?x=1"' in page  # "Try again" repeats the same address
    assert "Traceback" not in page and "OperationalError" not in page
    status, retry_after, content_type, body = seen["api"]
    assert (status, retry_after, content_type) == (503, "5", "application/json")
    assert "database is out of reach" in body["detail"]
    status, page = seen["login"]
    assert status == 503 and 'href="/"' in page  # a form is never repeated by a link


def test_the_retry_link_never_leaves_the_site() -> None:
    from django.test import RequestFactory

    from gamesite.unavailable import service_unavailable

    response = service_unavailable(RequestFactory().get("//evil.example/x"))
    assert 'href="/"' in response.content.decode() and "evil.example" not in response.content.decode()


LOG_CODE = """
from django.test import Client
client = Client()
client.get('/help/', HTTP_X_REQUEST_ID='edge-42')
client.get('/no-such-page/', HTTP_X_REQUEST_ID='bad id {with} junk')
"""


def test_json_logs_have_a_line_per_request_with_its_fields() -> None:
    result = _in_a_fresh_process(LOG_CODE, LOG_FORMAT="json")
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [json.loads(line) for line in result.stderr.splitlines()]  # every line parses
    requests = [line for line in lines if line["logger"] == "gamesite.requests"]
    assert [(line["path"], line["status"], line["method"]) for line in requests] == [
        ("/help/", 200, "GET"), ("/no-such-page/", 404, "GET")]
    assert requests[0]["request_id"] == "edge-42"
    assert requests[1]["request_id"] != "bad id {with} junk" and len(requests[1]["request_id"]) == 32
    assert all(isinstance(line["duration_ms"], float) and "user_id" in line for line in requests)
    assert all({"time", "level", "message"} <= line.keys() for line in lines)


def test_the_request_log_names_the_user_and_returns_the_request_id(
    alice_client: Client, alice: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("INFO", logger="gamesite.requests"):
        response = alice_client.get("/games/")
    assert response.status_code == 200 and len(response["X-Request-ID"]) == 32
    (record,) = [r for r in caplog.records if r.name == "gamesite.requests"]
    assert (record.user_id, record.status, record.path) == (alice.pk, 200, "/games/")  # type: ignore[attr-defined]
    # The same duration in the Server-Timing header, for a browser's developer tools and bench-web.
    assert response["Server-Timing"] == f"app;dur={record.duration_ms}"  # type: ignore[attr-defined]
    assert not hasattr(record, "queued_ms")  # not served by the page threads: no wait to tell


def test_the_wait_for_a_page_thread_is_logged_and_timed_apart(
    alice_client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    import time

    from gamesite.page_threads import ARRIVED

    with caplog.at_level("INFO", logger="gamesite.requests"):
        response = alice_client.get("/games/", **{ARRIVED: time.perf_counter() - 0.25})
    (record,) = [r for r in caplog.records if r.name == "gamesite.requests"]
    queued_ms = record.queued_ms  # type: ignore[attr-defined]
    assert 250 <= queued_ms < 10_000
    assert response["Server-Timing"] == f"queue;dur={queued_ms}, app;dur={record.duration_ms}"  # type: ignore[attr-defined]


def test_an_unknown_log_format_stops_the_start() -> None:
    result = _in_a_fresh_process("", LOG_FORMAT="xml")
    assert result.returncode != 0 and "LOG_FORMAT must be 'text' or 'json'" in result.stderr


def test_check_deploy_is_clean_with_production_settings() -> None:
    # Exactly a production environment: not the suite's, which turns the HTTPS switches off.
    env = {"PATH": os.environ.get("PATH", ""), "DATABASE_URL": os.environ["DATABASE_URL"], **PRODUCTION}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.fixture
def redis_out_of_reach(settings: Any) -> Any:
    from gamesite.redis_cache import redis_caches
    from gamesite.redis_guard import redis_breaker

    url = _dead_redis_url()
    settings.REDIS_URL = url
    settings.CACHES = redis_caches(url, 0.5)  # as in production (settings.py)
    settings.RATELIMIT_USE_CACHE = "throttles"
    redis_breaker.reset()
    yield
    caches["throttles"]._here.clear()  # what the throttles counted in this process meanwhile
    for alias in ("default", "throttles"):
        caches[alias].close()
    redis_breaker.reset()


def test_with_redis_down_the_site_keeps_working(
    redis_out_of_reach: None, alice: Any, bob: Any, client: Client
) -> None:
    from tests.conftest import PASSWORD
    from tests.site.gamebuilder import start_game

    game = start_game(alice, bob)
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302
    assert client.get("/games/").status_code == 200
    assert client.get(f"/games/{game.pk}/").status_code == 200
    token = client.post("/api/v1/token", {"username": "alice", "password": PASSWORD},
                        content_type="application/json").json()["token"]
    me = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {token}")  # throttled through the cache
    assert me.status_code == 200 and me.json()["username"] == "alice"
    # The password-reset limits live in the cache: while Redis is away they count in this
    # process's memory (gamesite/redis_cache.py), neither refusing everyone nor letting a flood of
    # e-mails through: 3 an hour to one address, then the page's own refusal rather than an error.
    for _ in range(3):
        assert Client().post("/accounts/password/reset/", {"email": "alice@example.com"}).status_code == 302
    reset = Client().post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert reset.status_code == 429 and 'class="site-header"' in reset.content.decode()
