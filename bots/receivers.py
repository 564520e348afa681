"""The bots app listens to backgammon's signals (backgammon itself knows nothing of bots)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models.signals import post_delete, post_save

from accounts.computer_players import forget_computer_players, register_computer_players
from backgammon import signals
from gamesite.kept import ask_with_the_signed_in_user, forget_when_changed, kept

__all__ = ["bot_user_ids", "connect"]

_BOT_IDS_KEY = "bots:user-ids"


def _all_bot_ids() -> frozenset[int]:
    # Every action asks whether a player is a bot (their clock, and who moves next), and the
    # answer almost never changes: the few bots' ids are kept (gamesite.kept).
    from bots.models import Bot

    return frozenset(kept(_BOT_IDS_KEY, lambda: frozenset(Bot.objects.values_list("user_id", flat=True)), 300))


def bot_user_ids(user_ids: Iterable[int]) -> set[int]:
    bots = _all_bot_ids()
    return {user_id for user_id in user_ids if user_id in bots}


def _computer_players() -> Any:
    from accounts.computer_players import ComputerPlayers
    from bots.models import Bot

    return ComputerPlayers.of(Bot.objects.values_list("user_id", "user__username"))


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
    from bots.models import Bot

    forget_when_changed(Bot, lambda _bot: [_BOT_IDS_KEY], "bot-ids")
    # The pages' marks of computer players (accounts.computer_players), kept in each process.
    post_save.connect(forget_computer_players, sender=Bot, dispatch_uid="bots-computer-players-saved")
    post_delete.connect(forget_computer_players, sender=Bot, dispatch_uid="bots-computer-players-deleted")
    register_computer_players(_computer_players)
    ask_with_the_signed_in_user(_BOT_IDS_KEY)
    signals.game_changed.connect(_on_game_changed, dispatch_uid="bots-game-changed")
    signals.challenge_created.connect(_on_challenge_created, dispatch_uid="bots-challenge-created")
    signals.worker_tick.connect(_on_worker_tick, dispatch_uid="bots-worker-tick")
    signals.register_untimed_players(bot_user_ids)
