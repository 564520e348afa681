"""Environment for the test suite, loaded by pytest before Django reads its settings
(``-p gamesite.testenv`` in pyproject.toml).

The suite runs the production settings module with DEBUG off, so it exercises the same strict
parsing as a real deployment; it only supplies throwaway keys and turns off the HTTPS-only
switches, since the test client and the live server speak plain HTTP. Anything already set
in the environment (DATABASE_URL in particular) wins.
"""

import os

TEST_ENVIRONMENT = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/gamesite",
    "SECRET_KEY": "test-only-secret-key",
    "DICE_KEY": "746573742d6f6e6c792d646963652d6b6579",
    "ALLOWED_HOSTS": "testserver,localhost,127.0.0.1",
    "EMAIL_URL": "locmem:",
    "SITE_URL": "http://testserver",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "SECURE_HSTS_SECONDS": "0",
    "STATIC_MANIFEST": "0",
    "WHITENOISE_USE_FINDERS": "1",
    "WHITENOISE_AUTOREFRESH": "1",
    # No connection pool in this process: the test client keeps each request's connection open
    # for the test's transaction, so a pool would run dry. The app servers the suite starts as
    # processes of their own (two servers, the database restart) run with the pool, as in production.
    "DATABASE_POOL_SIZE": "0",
    # The cache in this process's memory, cleared before each test (tests/conftest.py), so the
    # kept answers (gamesite/kept.py) work as with Redis in production and every test also checks
    # that what changes an answer forgets it.
    "CACHE_IN_PROCESS": "1",
    # The suite's own streams are read on short-lived event loops in this process, where the
    # database bridge's reader (gamesite/live_bridge) would hold a connection past a test: the
    # in-memory layer here; tests/site/test_live_make_run.py runs the bridge as `make run` does.
    "LIVE_VIA_DATABASE": "0",
}
# What the app servers the suite starts as processes of their own (two servers, the database
# restart) get instead: the pool, as in production, and a cache they share (Redis where the
# test gives REDIS_URL, else the database): one process's memory is no cache for several.
SERVER_ENVIRONMENT = {"DATABASE_POOL_SIZE": "3", "CACHE_IN_PROCESS": "0"}

# A VAPID key pair of this run's own (Web Push): none is written in the repository.
if "VAPID_PRIVATE_KEY" not in os.environ:
    from gamesite.vapid import generate_private_key

    TEST_ENVIRONMENT["VAPID_PRIVATE_KEY"] = generate_private_key()

for _name, _value in TEST_ENVIRONMENT.items():
    os.environ.setdefault(_name, _value)
