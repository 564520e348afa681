"""Background work for games: a move deadline is enforced by a task scheduled for that moment
(when it is near) or by the worker's periodic sweep.

The task only asks the service to enforce the deadline; the service re-checks everything under
the game's row lock, so a task that runs late, twice, or after the player moved does nothing.
A task lost with its worker is covered by ``sweep_deadlines``, which the worker command
``db_worker`` runs periodically, and by the service itself, which times out a late player
before taking any action in that game.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks import task

__all__ = ["enforce_deadline", "expire_live_challenge", "schedule_deadline", "sweep_deadlines"]


@task()
def expire_live_challenge(challenge_id: int) -> bool:
    """Mark a live challenge expired if it is still unanswered 2 minutes after it was made."""
    from backgammon.services.challenges import challenge_expire

    return challenge_expire(challenge_id=challenge_id)


@task()
def enforce_deadline(game_id: int, action_number: int) -> bool:
    """Time out the player to act in ``game_id`` if it still waits at ``action_number`` past its deadline."""
    from backgammon.services import game_enforce_deadline

    return game_enforce_deadline(game_id=game_id, action_number=action_number)


def schedule_deadline(*, game_id: int, action_number: int, deadline: datetime, live: bool = False) -> None:
    """Enqueue ``enforce_deadline`` to run at ``deadline``, when that is soon (always for a
    ``live`` game, whose reserve's end is applied within a second, however long the reserve).

    Only a deadline within ``DEADLINE_TASK_HORIZON_SECONDS`` gets a task of its own, to the
    second (live games, where a minute is the whole limit). A later one is left to
    ``sweep_deadlines``, at most ``DEADLINE_SWEEP_SECONDS`` after its moment: a task per action
    days ahead piled up waiting rows (one per move of every game) that each of the worker's
    polls for due tasks read through, so the worker and the database slowed as the site grew.

    A backend that cannot defer (the immediate backend of a bare development setup) would run the
    task now, when it has nothing to do; there the ``enforce_deadlines`` command is the safety net.
    """
    if not enforce_deadline.get_backend().supports_defer:
        return
    horizon = timedelta(seconds=settings.DEADLINE_TASK_HORIZON_SECONDS)
    if not live and deadline - timezone.now() > horizon:
        return
    enforce_deadline.using(run_after=deadline).enqueue(game_id, action_number)


def sweep_deadlines() -> int:
    """Time out the player to act in every active game past its deadline; return how many.

    It reads the games, not the task rows, so it also covers a deadline whose task was lost (a
    worker killed while running it leaves the task RUNNING for ever: django-tasks-db never
    retries it). Each game is re-checked under its own lock: a move that lands meanwhile wins,
    and several workers sweeping at once time a player out once.
    """
    from backgammon.services import game_enforce_deadline, overdue_games

    applied = 0
    for game_id, action_number in overdue_games().values_list("id", "action_count"):
        if game_enforce_deadline(game_id=game_id, action_number=action_number):
            applied += 1
    return applied
