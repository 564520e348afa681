"""Sessions in the cache with the database behind (gamesite.sessions, used with REDIS_URL)."""

from __future__ import annotations

import uuid
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


def test_two_sites_sharing_one_redis_database_never_read_each_others_keys() -> None:
    """Each site's user 1 is kept under the same key ("accounts:user:1"): the site's prefix
    (CHANNEL_PREFIX, settings) keeps them apart, as it keeps their live updates apart."""
    from django.core.cache import CacheHandler

    from gamesite.redis_cache import redis_caches
    from tests.e2e.asgi_server import TEST_REDIS_URL

    run = uuid.uuid4().hex[:8]
    site_a = CacheHandler(redis_caches(TEST_REDIS_URL, 0.5, f"site-a-{run}"))["default"]
    site_b = CacheHandler(redis_caches(TEST_REDIS_URL, 0.5, f"site-b-{run}"))["default"]
    try:
        site_a.set("accounts:user:1", "site A's alice", 30)
        assert site_a.get("accounts:user:1") == "site A's alice"
        assert site_b.get("accounts:user:1") is None
        site_b.set("accounts:user:1", "site B's bob", 30)
        assert site_a.get("accounts:user:1") == "site A's alice"
    finally:
        site_a.delete("accounts:user:1")
        site_b.delete("accounts:user:1")
        site_a.close()
        site_b.close()


def test_the_sites_cache_keys_carry_its_prefix() -> None:
    from gamesite.redis_cache import redis_caches

    made = redis_caches("redis://127.0.0.1:6379/0", 0.5, "gammon")
    assert {alias: config["KEY_PREFIX"] for alias, config in made.items()} == {"default": "gammon", "throttles": "gammon"}
