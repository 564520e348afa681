"""Sessions in the cache with the database behind (gamesite.sessions, used with REDIS_URL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches

from gamesite.sessions import SessionStore

pytestmark = pytest.mark.django_db


@pytest.fixture
def memory_cache(settings: Any) -> Any:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "session-cache-test"}}
    settings.SESSION_CACHE_SECONDS = 300
    cache = caches["default"]
    cache.clear()
    return cache


def test_a_session_is_kept_in_the_database_and_read_from_the_cache(memory_cache: Any) -> None:
    store = SessionStore()
    store["player"] = "alice"
    store.save()
    assert Session.objects.filter(session_key=store.session_key).exists()
    Session.objects.all().delete()  # a read that still works comes from the cache
    assert SessionStore(store.session_key)["player"] == "alice"


def test_the_cached_copy_lives_minutes_not_the_sessions_two_weeks(memory_cache: Any, monkeypatch: Any) -> None:
    timeouts: list[Any] = []
    real_set = memory_cache.set
    monkeypatch.setattr(memory_cache, "set", lambda key, value, timeout=None: (timeouts.append(timeout),
                                                                               real_set(key, value, timeout)))
    store = SessionStore()
    store["player"] = "alice"
    store.save()
    assert timeouts and max(timeouts) <= 300


def test_a_log_out_removes_the_session_from_both(memory_cache: Any) -> None:
    store = SessionStore()
    store["player"] = "alice"
    store.save()
    key = store.session_key
    store.flush()
    assert not Session.objects.filter(session_key=key).exists()
    assert "player" not in SessionStore(key).load()
