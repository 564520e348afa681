"""backgammon.signals.match_finished: sent once when a game ends, inside the transaction that
ends it (so ratings, ladders and tournaments change with the result, or not at all)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from backgammon.engine.actions import Action
from backgammon.models import Game
from backgammon.services import ActionRejected, game_abort, game_adjudicate, game_apply_action
from backgammon.signals import match_finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Iterator[list[tuple[int, str, str, bool]]]:
    """Each signal as (game id, status, how, sent inside a transaction)."""
    calls: list[tuple[int, str, str, bool]] = []

    def receiver(sender: Any, game: Game, how: str, **kwargs: Any) -> None:
        calls.append((game.pk, game.status, how, connection.in_atomic_block))

    match_finished.connect(receiver)
    yield calls
    match_finished.disconnect(receiver)


def test_a_resignation_that_ends_the_game_sends_it_once(
    alice: Any, bob: Any, heard: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    game = act(game, alice, Action.resign(1))
    assert heard == []  # an offer ends nothing
    game = act(game, bob, Action.accept_resign())
    assert heard == [(game.pk, "finished", "played", True)]
    assert game.winner == bob


def test_staff_endings_send_it_too(alice: Any, bob: Any, admin_user: Any, heard: list[Any]) -> None:
    first, second = start_game(alice, bob, "BX"), start_game(alice, bob, "BN")
    game_abort(game_id=first.pk, staff=admin_user, reason="asked")
    game_adjudicate(game_id=second.pk, staff=admin_user, winner=bob, reason="left")
    assert heard == [(first.pk, "aborted", "aborted", True), (second.pk, "finished", "adjudicated", True)]


def test_a_receiver_that_fails_rolls_the_ending_back(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = act(start_game(alice, bob, "BX"), alice, Action.resign(1))

    def broken(**kwargs: Any) -> None:
        raise ActionRejected("The ladder could not record this result")

    match_finished.connect(broken)
    try:
        with pytest.raises(ActionRejected):
            game_apply_action(game_id=game.pk, actor=bob, action=Action.accept_resign(),
                              expected_number=game.action_count)
    finally:
        match_finished.disconnect(broken)
    assert Game.objects.get(pk=game.pk).status == "active"
