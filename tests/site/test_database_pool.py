"""The pool's check of a connection it lends (gamesite/postgres): no round trip while the
connection is quiet, a refusal once PostgreSQL has ended it or it is closed."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from gamesite.postgres.base import check_quietly

pytestmark = pytest.mark.django_db


def _own_connection() -> psycopg.Connection[Any]:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


def test_the_sites_pool_checks_quietly() -> None:
    """As the app servers have it (the suite's own connections are not pooled)."""
    from gamesite.postgres.base import DatabaseWrapper

    settings_dict = {**connection.settings_dict, "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": True,
                     "OPTIONS": {**connection.settings_dict["OPTIONS"], "pool": {"min_size": 1, "max_size": 1}}}
    pooled = DatabaseWrapper(settings_dict, alias="pool_test")
    try:
        assert pooled.pool._check is check_quietly
        with pooled.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
    finally:
        pooled.close()
        pooled.close_pool()


def test_a_quiet_connection_is_lent_without_a_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[Any] = []
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(checked.append))
    with _own_connection() as quiet:
        quiet.execute("SELECT 1").fetchall()
        check_quietly(quiet)
    assert checked == []


def test_a_connection_postgresql_ended_is_refused() -> None:
    with _own_connection() as doomed, _own_connection() as other:
        other.execute("SELECT pg_terminate_backend(%s)", [doomed.info.backend_pid])
        deadline = time.monotonic() + 5
        while True:  # the farewell comes over the socket soon after
            try:
                check_quietly(doomed)
            except psycopg.OperationalError:
                break
            assert time.monotonic() < deadline, "the ended connection was still lent"
            time.sleep(0.05)


def test_a_closed_connection_is_refused() -> None:
    closed = _own_connection()
    closed.close()
    with pytest.raises(psycopg.OperationalError):
        check_quietly(closed)


def test_a_socket_past_descriptor_1023_is_looked_at_too() -> None:
    """An app server holds a socket per open page: a pooled connection's descriptor may well be
    past the 1,023 that select() accepts."""
    import os
    import resource
    import socket

    from gamesite.postgres.base import has_something_to_say

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 2000:
        pytest.skip("this machine allows too few open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 2048), hard))
    mine, theirs = socket.socketpair()
    high = os.dup2(mine.fileno(), 2000)
    try:
        assert not has_something_to_say(high)
        theirs.sendall(b"farewell")
        assert has_something_to_say(high)
    finally:
        os.close(high)
        mine.close()
        theirs.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
