"""Answers kept in the shared cache and forgotten when the rows behind them change.

The pages ask a few small questions on almost every request (is this player a bot, has the
player to act a vacation, a player's note on this game, how many messages and games wait for
them) whose answers change seldom. Each is kept under its own key (Redis in production) and
forgotten by whatever changes it: a model's post_save and post_delete through
``forget_when_changed``, and ``forget`` for writes that send no signal (``QuerySet.update``).

``forget`` deletes the key at once and again when the transaction commits, so a reader that
kept the old answer in between is corrected (within a page request, whose own reads already
know, only at the commit); an answer read inside a transaction is kept only
once that transaction commits (it may yet roll back); every key also has a time limit, for
writes no code of ours sees (a data migration, SQL by hand). So an answer is at most a few
seconds stale, and only when a reader races a writer: these are for showing and routing, and
the rules (deadlines, moves) read the database. A forget that Redis did not answer is done
again once it does (gamesite/redis_cache.py), so a stall adds only its own length.

``KEPT_ANSWERS`` (on with REDIS_URL) turns it on: when the cache is the database itself a
cached answer would only replace a query by a query.

Within one page request (``answers_once_per_request``, around the app servers' WSGI door) an
answer is asked of the cache once: a move asked for the same player, the same bot list and the
same unread count up to three times (the mover's answer, the opponent's pushed region, both
menu counts), each a round trip to Redis; and ``ask_together`` asks for several answers a page
will need in one trip. What this request forgets is forgotten there too (and computed afresh
when asked again, without asking the cache that it has just emptied), and an answer computed
inside a transaction is not remembered (the transaction may roll back).

A page request's forgets, and the answers it keeps with ``keep_unchanging``, go with its next
trip to the cache rather than a trip of their own (Redis: one pipeline, the writes first): a
move forgets the players' counts as it commits and then reads what its answer shows, and keeps
the new version of the game's log while drawing its answer and then reads who listens for its
news. A forget goes before the answer does, whatever follows (the next page, a redirect's,
must not read what it forgot); an answer that never changes under its key (a version of a log)
may wait until the request's end. Everything else (``keep``, and everything outside a page
request) is written at once, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection, models, transaction
from django.db.models.signals import post_delete, post_save

from gamesite.closing import ClosingWith

__all__ = [
    "answers_once_per_request", "ask_together", "ask_together_with", "ask_with_the_signed_in_user",
    "asked_with_the_signed_in_user",
    "forget", "forget_when_changed", "keep", "keep_many", "keep_unchanging", "kept", "kept_if_any", "kept_of_these",
]

T = TypeVar("T")
_MISSING = object()
# In a request's answers: not in the cache (this request forgot it, or asked and it was not there).
_NOT_IN_CACHE = object()
# The answers this thread's current page request has read (None: not in a page request).
_this_request = threading.local()


def _request_answers() -> dict[str, Any] | None:
    return getattr(_this_request, "answers", None)


def answers_once_per_request(wsgi_app: Any) -> Any:
    """``wsgi_app``, each of its requests asking the cache for an answer once (see above).

    Django's whole response is made inside the call, in this thread (the pages' views are not
    streaming ones): what it forgot is sent before the answer goes. The request's answers are
    dropped when the server closes the answer, so what the request publishes after sending it
    (backgammon/live.py) still has them, and what it wrote and has not sent goes then."""

    def remembering(environ: Any, start_response: Any) -> Any:
        _this_request.answers = {}
        _this_request.writes = []
        try:
            answer = wsgi_app(environ, start_response)
            if any(kind == _DELETE for kind, _what, _seconds in _this_request.writes):
                _trip([])
            return ClosingWith(answer, last=_forget_this_request)
        except BaseException:
            _forget_this_request()
            raise

    return remembering


def _forget_this_request() -> None:
    try:
        _trip([])
    finally:
        _this_request.answers = None
        _this_request.writes = None


_DELETE, _SET = "delete", "set"


def _write_soon(kind: str, what: Any, seconds: int | None = None) -> None:
    """A write for this page request's next trip to the cache; at once outside a page request."""
    writes = getattr(_this_request, "writes", None)
    if writes is not None:
        writes.append((kind, what, seconds))
    else:
        _write_now(kind, what, seconds)


def _write_now(kind: str, what: Any, seconds: int | None) -> None:
    if kind == _DELETE:
        cache.delete_many(what)
    else:
        cache.set_many(what, seconds)


def _trip(keys: list[str]) -> dict[str, Any]:
    """One trip to the cache: what this page request wrote since its last trip, in order, then
    the answers under ``keys`` that the cache has."""
    writes = getattr(_this_request, "writes", None)
    if not writes:
        return cache.get_many(keys) if keys else {}
    _this_request.writes = []
    together = getattr(cache, "written_then_read", None)
    if together is not None:  # Redis (gamesite/redis_cache.py): a pipeline
        return together(writes, keys)  # type: ignore[no-any-return]
    for kind, what, seconds in writes:
        _write_now(kind, what, seconds)
    return cache.get_many(keys) if keys else {}


def _has_writes_waiting() -> bool:
    return bool(getattr(_this_request, "writes", None))


def _get(key: str, default: Any = None) -> Any:
    """``cache.get``, with what this page request wrote before it when there is any."""
    return _trip([key]).get(key, default) if _has_writes_waiting() else cache.get(key, default)


def kept(key: str, compute: Callable[[], T], seconds: int) -> T:
    """The answer kept under ``key``, or ``compute()``'s, kept for ``seconds``."""
    if not settings.KEPT_ANSWERS:
        return compute()
    answers = _request_answers()
    if answers is not None and key in answers and answers[key] is not _NOT_IN_CACHE:
        return answers[key]  # type: ignore[no-any-return]
    # What this request forgot or found missing, the cache does not have: no need to ask again.
    missing_here = answers is not None and answers.get(key) is _NOT_IN_CACHE
    value = _MISSING if missing_here else _get(key, _MISSING)
    if value is _MISSING:
        value = compute()
        keep(key, value, seconds)
        if _in_a_transaction():
            return value
    if answers is not None:
        answers[key] = value
    return value  # type: ignore[return-value]


def ask_together(keys: Iterable[str]) -> None:
    """Within a page request, ask the cache for the answers under ``keys`` that the request has
    not read yet, in one round trip: ``kept`` then finds them here. A page that knows what it
    will show (a game page: its players, its log, its clock, the menu counts) pays one trip
    instead of one per answer. Outside a page request, nothing (each ``kept`` asks for itself)."""
    answers = _request_answers()
    if answers is None or not settings.KEPT_ANSWERS:
        return
    wanted = [key for key in dict.fromkeys(keys) if key not in answers]  # forgotten ones too
    if wanted:
        found = _trip(wanted)
        answers.update({key: found.get(key, _NOT_IN_CACHE) for key in wanted})


def ask_together_with(key: str, keys: Iterable[str]) -> Any:
    """What the cache holds under ``key``, which is no kept answer (a session, say), asked in the
    same trip as the answers under ``keys`` that this page request has not read yet (as
    ``ask_together`` asks them); None when it holds nothing there. Outside a page request, or
    without kept answers, ``key`` is asked alone."""
    answers = _request_answers()
    if answers is None or not settings.KEPT_ANSWERS:
        return cache.get(key)
    wanted = [each for each in dict.fromkeys(keys) if each not in answers and each != key]
    found = _trip([key, *wanted])
    answers.update({each: found.get(each, _NOT_IN_CACHE) for each in wanted})
    return found.get(key)


_with_the_signed_in_user: list[str] = []


def ask_with_the_signed_in_user(key: str) -> None:
    """Ask for the answer under ``key`` in the same trip as each request's signed-in user
    (accounts/backends.py): for one that nearly every action reads, such as the bot list (the
    clock of the player to act next asks it inside the move's transaction, its row locked)."""
    if key not in _with_the_signed_in_user:
        _with_the_signed_in_user.append(key)


def asked_with_the_signed_in_user() -> list[str]:
    return list(_with_the_signed_in_user)


def kept_if_any(key: str) -> Any:
    """The answer kept under ``key`` (asked of the cache once per page request, as ``kept`` does),
    or None when there is none: for an answer that only helps when it is there."""
    if not settings.KEPT_ANSWERS:
        return None
    answers = _request_answers()
    if answers is not None and key in answers:
        value = answers[key]
        return None if value is _NOT_IN_CACHE else value
    value = _get(key)
    if answers is not None and value is not None:
        answers[key] = value
    return value


def kept_of_these(keys: Iterable[str]) -> dict[str, Any]:
    """The answers kept under ``keys`` that there are (not None), in one trip to the cache, within
    a page request or not: ``kept_if_any`` for several keys at once."""
    if not settings.KEPT_ANSWERS:
        return {}
    wanted = list(dict.fromkeys(keys))
    answers = _request_answers()
    if answers is None:
        found = cache.get_many(wanted)
    else:
        ask_together(wanted)
        found = {key: answers[key] for key in wanted if answers.get(key, _NOT_IN_CACHE) is not _NOT_IN_CACHE}
    return {key: value for key, value in found.items() if value is not None}


def keep(key: str, value: Any, seconds: int) -> None:
    """Keep ``value`` under ``key`` for ``seconds``: now, or inside a transaction once it commits."""
    if not settings.KEPT_ANSWERS:
        return
    answers = _request_answers()
    if answers is not None:
        answers.pop(key, None)
    if _in_a_transaction():
        transaction.on_commit(lambda: _set_now({key: value}, seconds))
    else:
        _set_now({key: value}, seconds)


def keep_unchanging(key: str, value: Any, seconds: int) -> None:
    """``keep`` for an answer that never changes under ``key`` (a version of a game's log): within
    a page request it goes with the request's next trip to the cache, or at its end."""
    if not settings.KEPT_ANSWERS:
        return
    answers = _request_answers()
    if _in_a_transaction():
        if answers is not None:
            answers.pop(key, None)
        transaction.on_commit(lambda: _write_soon(_SET, {key: value}, seconds))
        return
    _write_soon(_SET, {key: value}, seconds)
    if answers is not None:
        answers[key] = value


def _set_now(values: dict[str, Any], seconds: int) -> None:
    """Written at once: with what this page request wrote before, in order, when it has any."""
    if _has_writes_waiting():
        _write_soon(_SET, values, seconds)
        _trip([])
    elif len(values) == 1:
        [(key, value)] = values.items()
        cache.set(key, value, seconds)
    else:
        cache.set_many(values, seconds)


def keep_many(values: dict[str, Any], seconds: int) -> None:
    """``keep`` for several answers in one trip to the cache; outside a transaction a page request
    remembers them too, as if it had asked for them."""
    if not values or not settings.KEPT_ANSWERS:
        return
    answers = _request_answers()
    if _in_a_transaction():
        if answers is not None:
            for key in values:
                answers.pop(key, None)
        transaction.on_commit(lambda: _set_now(values, seconds))
        return
    _set_now(values, seconds)
    if answers is not None:
        answers.update(values)


def _in_a_transaction() -> bool:
    # A test's own wrapping transaction (Django's TestCase marks it) is not one: it never
    # commits, and the code under test runs as if outside any.
    return any(not getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)


def forget(*keys: str) -> None:
    """Drop the answers under ``keys``: now, and once the current transaction has committed."""
    if not keys or not settings.KEPT_ANSWERS:
        return
    answers = _request_answers()
    if answers is not None:
        answers.update(dict.fromkeys(keys, _NOT_IN_CACHE))
    if not _in_a_transaction():
        _write_soon(_DELETE, list(keys))  # a page request's, with its next trip (see above)
        return
    # Inside a transaction: forgotten for this thread's own reads before it commits (a page
    # request's answers above already are: one trip to Redis fewer per move), then for everyone.
    if answers is None:
        cache.delete_many(keys)
    transaction.on_commit(lambda: _write_soon(_DELETE, list(keys)))


def forget_when_changed(model: type[models.Model], keys_of: Callable[[Any], Iterable[str]], name: str) -> None:
    """Forget ``keys_of(row)`` whenever a row of ``model`` is saved or deleted."""

    def on_change(*, instance: Any, **_: Any) -> None:
        forget(*keys_of(instance))

    post_save.connect(on_change, sender=model, weak=False, dispatch_uid=f"kept-{name}-saved")
    post_delete.connect(on_change, sender=model, weak=False, dispatch_uid=f"kept-{name}-deleted")
