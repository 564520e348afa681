"""The bots app listens to backgammon's signals (backgammon itself knows nothing of bots)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from backgammon import signals

__all__ = ["bot_user_ids", "connect"]


def bot_user_ids(user_ids: Iterable[int]) -> set[int]:
    from bots.models import Bot

    return set(Bot.objects.filter(user_id__in=list(user_ids)).values_list("user_id", flat=True))


def _on_game_changed(*, game_id: int, action_number: int, actor_id: int | None, **_: Any) -> None:
    if actor_id is None or not bot_user_ids([actor_id]):
        return
    from bots.tasks import bot_act

    bot_act.enqueue(game_id, action_number)


def _on_challenge_created(*, challenge_id: int, challenged_id: int, **_: Any) -> None:
    if not bot_user_ids([challenged_id]):
        return
    from bots.tasks import bot_answer_challenge

    bot_answer_challenge.enqueue(challenge_id)


def _on_worker_tick(**_: Any) -> None:
    from bots.tasks import nudge_waiting

    nudge_waiting()


def connect() -> None:
    signals.game_changed.connect(_on_game_changed, dispatch_uid="bots-game-changed")
    signals.challenge_created.connect(_on_challenge_created, dispatch_uid="bots-challenge-created")
    signals.worker_tick.connect(_on_worker_tick, dispatch_uid="bots-worker-tick")
    signals.register_untimed_players(bot_user_ids)
