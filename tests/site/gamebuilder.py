"""Building games for site tests, always through the services (so the log stays replayable).

- ``ScriptedDice``: replaces the keyed dice table; queued rolls come out first, in order.
- ``start_game``: a challenge made and accepted, so the game has had its opening roll.
- ``act``: one action by one player, on the current page (expected_number = action_count).
- ``starting_from``: start new matches from a constructed position/score (for game ends).
- ``layout`` / ``unchanged``: small helpers for positions and for "nothing changed" checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest

from backgammon.engine import Position
from backgammon.engine import match as engine_match
from backgammon.engine.actions import Action
from backgammon.engine.dice import roll_at
from backgammon.models import Game
from backgammon.services import challenge_accept, challenge_create, game_apply_action

THREE_DAYS = timedelta(days=3)


class ScriptedDice:
    """Stands in for ``roll_at``: queued rolls first, then the real keyed table."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, int]] = []
        self.instants: list[datetime] = []

    def __call__(self, key: bytes, instant: datetime) -> tuple[int, int]:
        self.instants.append(instant)
        return self.queue.pop(0) if self.queue else roll_at(key, instant)

    def then(self, *rolls: tuple[int, int]) -> ScriptedDice:
        self.queue.extend(rolls)
        return self


def scripted_dice(monkeypatch: pytest.MonkeyPatch) -> ScriptedDice:
    dice = ScriptedDice()
    monkeypatch.setattr("backgammon.services.games.roll_at", dice)
    return dice


def start_game(black: Any, white: Any, variant: str = "BP", **options: Any) -> Game:
    options.setdefault("time_limit", THREE_DAYS)
    challenge = challenge_create(
        challenger=black, opponent=white.get_username(), variant=variant, **options
    )
    return challenge_accept(challenge_id=challenge.pk, actor=white)


def act(game: Game, user: Any, action: Action, **kwargs: Any) -> Game:
    return game_apply_action(
        game_id=game.pk, actor=user, action=action, expected_number=game.action_count, **kwargs
    )


def layout(points: dict[int, int]) -> tuple[int, ...]:
    """25 counts from {point: checkers}; 25 is the bar."""
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


def starting_from(monkeypatch: pytest.MonkeyPatch, **changes: Any) -> None:
    """Make every new match start from the initial state with ``changes`` (position, score...)."""
    original = engine_match.new_match

    def patched(rules: Any) -> Any:
        return replace(original(rules), **changes)

    monkeypatch.setattr(engine_match, "new_match", patched)


def position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    return Position(layout(mine), layout(theirs))


@contextmanager
def unchanged(game: Game) -> Iterator[None]:
    """Context helper: the game row and its log are exactly as before the block."""
    before = (Game.objects.filter(pk=game.pk).values().get(), game.actions.count())
    yield
    after = (Game.objects.filter(pk=game.pk).values().get(), game.actions.count())
    assert after == before


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """Hash the personas' passwords cheaply: the real hasher costs a second per user here.

    Import it into a test module (``from gamebuilder import fast_passwords``) to use it there.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
