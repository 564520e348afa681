"""Fixtures shared by the whole suite: the personas and logged-in clients.

Alice, Bob and Charlie are ordinary players with known passwords; Charlie is the outsider
who must see nothing of Alice and Bob's games. ``make_user`` makes anyone else.
"""

from __future__ import annotations

from backgammon.private_home import use_private_home

# Before anything loads GNU Backgammon (pytest.importorskip("gnubg") among them): the suite never
# reads the settings file of the machine's user (backgammon/gnubg_home.py).
use_private_home()

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from tests.site.push_service import push_service  # noqa: F401  (a fixture for the whole suite)
from tests.site.stripe_stand_in import stripe_stand_in  # noqa: F401  (a fixture for the whole suite)
from tests.site.worker_process import start_worker  # noqa: F401  (a fixture for the whole suite)

PASSWORD = "correct-horse-battery"
"""Every persona's password (long and uncommon enough for the validators)."""

UserFactory = Callable[..., Any]


@pytest.fixture
def make_user(db: None) -> UserFactory:
    """make_user("dora", password=..., email=...) -> a saved user with a profile."""

    def make(username: str, *, password: str = PASSWORD, email: str | None = None) -> Any:
        return get_user_model().objects.create_user(
            username=username,
            email=email if email is not None else f"{username.lower()}@example.com",
            password=password,
        )

    return make


@pytest.fixture
def alice(make_user: UserFactory) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: UserFactory) -> Any:
    return make_user("bob")


@pytest.fixture
def charlie(make_user: UserFactory) -> Any:
    return make_user("charlie")


@pytest.fixture
def client_for() -> Callable[[Any], Client]:
    """client_for(user) -> a test Client already logged in as that user."""

    def make(user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def alice_client(alice: Any, client_for: Callable[[Any], Client]) -> Client:
    return client_for(alice)


@pytest.fixture
def bob_client(bob: Any, client_for: Callable[[Any], Client]) -> Client:
    return client_for(bob)


@pytest.fixture
def charlie_client(charlie: Any, client_for: Callable[[Any], Client]) -> Client:
    return client_for(charlie)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Production hashes passwords slowly on purpose (about a second each on a small machine);
    the suite hashes hundreds, and what it tests is the site's logic, not PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    """The cache (this process's memory, gamesite/testenv.py) holds throttle counters and kept
    answers (gamesite/kept.py), and this process remembers whom it marked seen and who the
    computer players are: no test may inherit another's, whose rows are rolled back. Nor the
    Redis breaker's state (gamesite/redis_guard.py): a test with Redis out of reach opens it."""
    from accounts.computer_players import forget_computer_players
    from accounts.presence import forget_marks_here
    from gamesite.redis_guard import redis_breaker

    cache.clear()
    forget_marks_here()
    forget_computer_players()
    redis_breaker.reset()
    yield
    cache.clear()
    forget_marks_here()
    forget_computer_players()
    redis_breaker.reset()
