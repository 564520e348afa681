"""Django's PostgreSQL backend, with a quieter check of each connection its pool lends.

With CONN_HEALTH_CHECKS, Django has psycopg_pool check a pooled connection before lending it to
a request by sending an empty query and waiting for the answer: a round trip to PostgreSQL at
the start of every request that touches the database, one more than a move's own statements.
An idle connection says something only when it is in trouble: PostgreSQL shutting down or
restarting writes "terminating connection" to each client before closing it, and a closed
socket reads as its end. So the check here looks at the socket (``poll`` with
no timeout), and sends the empty query only when the connection has something to say, or
is known to be closed or broken; a connection that fails is dropped and replaced by the pool, as
before (tests/site/test_database_restart.py restarts PostgreSQL under load).
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

__all__ = ["DatabaseWrapper", "check_quietly", "has_something_to_say"]


def check_quietly(connection: psycopg.Connection[Any]) -> None:
    """Return if ``connection`` looks fit to lend, raise if it is not (psycopg_pool's ``check``)."""
    if connection.closed or connection.broken:
        raise psycopg.OperationalError("the connection is closed")
    if has_something_to_say(connection.fileno()):  # a farewell, its end, or a notice: the round trip tells which
        ConnectionPool.check_connection(connection)


def has_something_to_say(fd: int) -> bool:
    """Whether the socket ``fd`` can be read (or has ended) right now, without waiting. With
    ``poll``, not ``select``: an app server holds a socket per open page, and ``select`` refuses
    any descriptor past 1023."""
    watch = select.poll()
    watch.register(fd, select.POLLIN)
    return bool(watch.poll(0))


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool
        # Django passes psycopg_pool's round-trip check when it creates the pool; psycopg_pool
        # keeps the check it was given as ``_check`` (tests/site/test_database_pool.py).
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_quietly
        return pool
