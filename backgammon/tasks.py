"""Background work for games: a move deadline is enforced by a task scheduled for that moment
(when it is near) or by the worker's periodic sweep; a live game's reserve running out, by the
worker's live sweep, several times a second.

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


def schedule_deadline(*, game_id: int, action_number: int, deadline: datetime) -> None:
    """Enqueue ``enforce_deadline`` to run at ``deadline``, when that is soon. Not for a live
    game: its reserve is the live sweep's (``sweep_deadlines(live=True)``, every
    ``LIVE_SWEEP_SECONDS``).

    Only a deadline within ``DEADLINE_TASK_HORIZON_SECONDS`` gets a task of its own, to the
    second. A later one is left to ``sweep_deadlines``, at most ``DEADLINE_SWEEP_SECONDS`` after
    its moment: a task per action days ahead piled up waiting rows (one per move of every game)
    that each of the worker's polls for due tasks read through, so the worker and the database
    slowed as the site grew. A live game acts every few seconds and its reserve's end must be
    applied within one: a task per action there was a row written and a locked look at the game
    for every roll and move (70 a second in ``make bench-web``'s live scenario, nearly all of
    them finding the player had acted), where one indexed read of the live games past their
    reserve, a few times a second, finds the few that ran out.

    A backend that cannot defer (the immediate backend of a bare development setup) would run the
    task now, when it has nothing to do; there the ``enforce_deadlines`` command is the safety net.
    """
    if not enforce_deadline.get_backend().supports_defer:
        return
    if deadline - timezone.now() > timedelta(seconds=settings.DEADLINE_TASK_HORIZON_SECONDS):
        return
    enforce_deadline.using(run_after=deadline).enqueue(game_id, action_number)


def sweep_deadlines(*, live: bool = False) -> int:
    """Time out the player to act in every active game past its deadline (with ``live``, in
    the live games alone); return how many.

    It reads the games, not the task rows, so it also covers a deadline whose task was lost (a
    worker killed while running it leaves the task RUNNING for ever: django-tasks-db never
    retries it). Each game is re-checked under its own lock: a move that lands meanwhile wins,
    and several workers sweeping at once time a player out once.
    """
    from backgammon.services import game_enforce_deadline, overdue_games

    overdue = overdue_games()
    if live:
        overdue = overdue.filter(live_reserve_s__isnull=False)
    applied = 0
    for game_id, action_number in overdue.values_list("id", "action_count"):
        if game_enforce_deadline(game_id=game_id, action_number=action_number):
            applied += 1
    return applied
