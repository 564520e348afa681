"""The bots' work, done by the task worker and never inside a page request.

Each task re-reads the game and acts through the same services as a person, with the action
number it was queued for: a task that runs late, twice, or after the game moved on is refused by
the service (stale number) and does nothing. ``nudge_waiting`` is the safety net the worker runs
every few seconds (``worker_tick``): a task lost with a killed worker never leaves a game stuck.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from backgammon.models import Challenge, Game
from backgammon.services import (
    ActionRejected,
    ChallengeRejected,
    challenge_accept,
    game_apply_action,
)
from bots.models import Bot

__all__ = [
    "NUDGE_AFTER",
    "act_in_game",
    "answer_challenge",
    "bot_act",
    "bot_answer_challenge",
    "nudge_waiting",
]

logger = logging.getLogger(__name__)

NUDGE_AFTER = timedelta(seconds=3)
"""How long a game or challenge may wait for a bot before the worker's tick acts on it itself."""


def act_in_game(game_id: int, action_number: int) -> bool:
    """The bot to act takes its one action if ``game_id`` still waits at ``action_number``."""
    game = Game.objects.select_related("actor__bot").filter(pk=game_id).first()
    if (
        game is None
        or game.status != Game.Status.ACTIVE
        or game.action_count != action_number
        or game.actor is None
    ):
        return False
    bot = getattr(game.actor, "bot", None)
    if bot is None:
        return False
    # Thinking happens outside the row lock; the service then re-checks the action number under it.
    # gnubg is loaded here, in the worker's main thread, never by the web processes that queue
    # these tasks (on a request thread its look-ahead would crash the process later).
    from bots import decide

    action = decide(game.state(), bot.strength)
    try:
        game_apply_action(
            game_id=game_id, actor=game.actor, action=action, expected_number=action_number
        )
    except ActionRejected as refusal:
        logger.info("Bot %s in game %d: %s", game.actor, game_id, refusal)
        return False
    return True


def answer_challenge(challenge_id: int) -> bool:
    """A bot accepts a challenge made to it (any variant, any length); False if not pending."""
    challenge = Challenge.objects.select_related("challenged").filter(pk=challenge_id).first()
    if challenge is None or challenge.status != Challenge.Status.PENDING:
        return False
    if not Bot.objects.filter(user_id=challenge.challenged_id).exists():
        return False
    try:
        challenge_accept(challenge_id=challenge_id, actor=challenge.challenged)
    except ChallengeRejected as refusal:
        logger.info("Bot %s, challenge %d: %s", challenge.challenged, challenge_id, refusal)
        return False
    return True


@task()
def bot_act(game_id: int, action_number: int) -> bool:
    """Task form of ``act_in_game``."""
    return act_in_game(game_id, action_number)


@task()
def bot_answer_challenge(challenge_id: int) -> bool:
    """Task form of ``answer_challenge``."""
    return answer_challenge(challenge_id)


def nudge_waiting() -> int:
    """Queue the bot's task again for every game and challenge that has waited for a bot too long
    with no such task still queued; return how many were queued.

    It runs on the worker's tick thread, so it only queues: the worker's main thread then acts.
    The gnubg binding crashes the whole process (a segmentation fault) when it evaluates beyond
    0-ply outside the main thread, so bots must never think on the tick thread.
    """
    since = timezone.now() - NUDGE_AFTER
    bot_users = Bot.objects.values("user_id")
    queued = 0
    games = Game.objects.filter(
        status=Game.Status.ACTIVE, actor_id__in=bot_users, updated_at__lte=since
    ).values_list("id", "action_count")
    for game_id, action_number in games:
        queued += _queue_once(bot_act, game_id, action_number)
    challenges = Challenge.objects.filter(
        status=Challenge.Status.PENDING, challenged_id__in=bot_users, created_at__lte=since
    ).values_list("id", flat=True)
    for challenge_id in challenges:
        queued += _queue_once(bot_answer_challenge, challenge_id)
    return queued


def _queue_once(the_task: Any, *args: int) -> bool:
    """Enqueue ``the_task(*args)`` unless the database queue already holds it, not yet started
    (one killed while running stays RUNNING for ever, so only READY ones count)."""
    if isinstance(the_task.get_backend(), DatabaseBackend):
        waiting = DBTaskResult.objects.filter(
            status=TaskResultStatus.READY,
            task_path=the_task.module_path,
            args_kwargs={"args": list(args), "kwargs": {}},
        )
        if waiting.exists():
            return False
    the_task.enqueue(*args)
    return True
