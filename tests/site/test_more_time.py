"""More time: the player waiting gives the one to act 1, 3 or 7 more days on this move."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, fast_passwords, scripted_dice, start_game  # noqa: F401

from accounts.vacations import vacation_book
from backgammon.engine.actions import Action
from backgammon.models import Game, TimeGift
from backgammon.services import ActionRejected, Refusal
from backgammon.services.more_time import game_give_time

pytestmark = pytest.mark.django_db

MONDAY = "2026-01-05 12:00:00+00:00"


@pytest.fixture
def game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice to play 3-1 in a BP match with a 2-day limit, started Monday noon."""
    scripted_dice(monkeypatch).then((3, 1))
    with time_machine.travel(MONDAY, tick=False):
        return start_game(alice, bob, "BP", time_limit=timedelta(days=2))


def test_the_opponent_gives_more_time_and_it_is_logged(
    game: Game, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with (
        time_machine.travel("2026-01-06 12:00:00+00:00", tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game = game_give_time(game_id=game.pk, giver=bob, extra=timedelta(days=3))
    assert game.deadline == datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
    gift = TimeGift.objects.get()
    assert gift.words == "bob gave alice 3 more days"
    assert gift.after_action == game.action_count
    # Days away: no task of its own; the worker's sweep enforces it (backgammon/tasks.py).
    assert not DBTaskResult.objects.filter(task_path="backgammon.tasks.enforce_deadline").exists()


def test_more_time_counts_around_a_vacation(game: Game, alice: Any, bob: Any) -> None:
    with time_machine.travel(MONDAY, tick=False):
        vacation_book(user=alice, start=date(2026, 1, 8), days=2)  # after the old deadline
        game = game_give_time(game_id=game.pk, giver=bob, extra=timedelta(days=1))
    # 3 days of clock from Monday noon: Tuesday, Wednesday, then the vacation, then to Saturday.
    assert game.deadline == datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("who", "extra", "words", "kind"),
    [
        ("alice", timedelta(days=1), "only while your opponent is to act", Refusal.NOT_YOUR_TURN),
        ("charlie", timedelta(days=1), "not playing in this game", Refusal.NOT_PLAYER),
        ("bob", timedelta(days=2), "1, 3 or 7 days", Refusal.ILLEGAL),
    ],
)
def test_refused_for_the_wrong_player_or_amount(
    game: Game, who: str, extra: timedelta, words: str, kind: Refusal, request: Any
) -> None:
    giver = request.getfixturevalue(who)
    with pytest.raises(ActionRejected, match=words) as refused:
        game_give_time(game_id=game.pk, giver=giver, extra=extra)
    assert refused.value.kind is kind
    assert Game.objects.get(pk=game.pk).deadline == game.deadline
    assert not TimeGift.objects.exists()


def test_refused_on_a_finished_game(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX", time_limit=timedelta(days=2))
    game = act(game, alice, Action.resign(1))
    game = act(game, bob, Action.accept_resign())
    assert game.status == "finished"
    with pytest.raises(ActionRejected, match="This game is over"):
        game_give_time(game_id=game.pk, giver=bob, extra=timedelta(days=1))
    assert not TimeGift.objects.exists()
