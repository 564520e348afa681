"""Hooks for apps built on the game (the computer opponents), so backgammon knows nothing of them.

* ``game_changed`` is sent after a game's actions are committed (from a page request, once its
  answer has gone out: gamesite/after_answer.py): ``game_id``, ``action_number``
  (the game's ``action_count`` now), ``actor_id`` (who must act next, or None), ``player_ids``
  (black's and white's user ids) and ``turn_passed`` (True when the player to act now did not
  choose the actions just committed: the turn came to them; False after their own roll, or for a
  change that is no action, such as time given) and ``same_turn`` (True when the player who acted
  still has to act: their own roll; whose turn it is and what the status lists show stay as
  they were, but for the seconds the roll took off the roller's clock; absent means False).
  After actions also ``game`` (the saved Game, its players read) and ``mover_id`` (the user who
  asked for them, or None for the site's own: opening rolls, timeouts); a change that is no
  action (time given) sends neither.
* ``game_made_private`` is sent once a player's wish that made a watchable game private is
  committed (services.watching): ``game_id``, ``player_ids``. The live layer ends its
  watchers' streams and has its players' open profile pages ask again.
* ``challenge_created`` is sent after a challenge is committed: ``challenge_id``, ``challenged_id``.
* ``match_finished`` is sent when a game (a whole match, or a single game) ends, INSIDE the
  transaction that ends it and under the game's row lock: ``game`` (saved, status finished or
  aborted, ``winner`` set or None) and ``how`` ("played": the players finished it, a drop,
  resignation or timeout included; "adjudicated" or "aborted": staff ended it). A receiver's
  writes (ratings, ladder places, tournament rounds) commit or roll back with the result itself;
  a receiver that raises rolls the whole action back, so receivers must not fail on bad luck.
* ``actions_logged`` is sent INSIDE the transaction that appends a game's actions, under its row
  lock: ``game`` (saved) and ``actions`` (the ``GameAction`` rows just appended, with their ids).
  The messages app copies a move's message to the inbox with it. A receiver that raises rolls
  the action back.
* ``game_viewed`` is sent when a player's game page is built for them (the page, or its live
  update): ``game_id`` and ``user``. The messages app marks the game's move messages read.
* ``worker_tick`` is sent by every task worker every ``WORKER_TICK_SECONDS``, from its sweep
  thread: a place for periodic safety nets.
* ``register_untimed_players`` lets an app name players who are never put on the clock (the
  bots): their moves get no deadline; their opponents keep theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.dispatch import Signal

__all__ = [
    "actions_logged",
    "challenge_created",
    "game_changed",
    "game_made_private",
    "game_viewed",
    "match_finished",
    "register_untimed_players",
    "untimed_player_ids",
    "worker_tick",
]

game_changed = Signal()
game_made_private = Signal()
match_finished = Signal()
challenge_created = Signal()
worker_tick = Signal()
actions_logged = Signal()
game_viewed = Signal()

_untimed_sources: list[Callable[[Iterable[int]], set[int]]] = []


def register_untimed_players(source: Callable[[Iterable[int]], set[int]]) -> None:
    """``source`` receives user ids and returns those of them that never time out."""
    if source not in _untimed_sources:
        _untimed_sources.append(source)


def untimed_player_ids(user_ids: Iterable[int]) -> set[int]:
    """The players among ``user_ids`` that are never put on the clock."""
    ids = list(user_ids)
    found: set[int] = set()
    for source in _untimed_sources:
        found |= source(ids)
    return found
