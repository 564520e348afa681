"""The worker's analysis task: it only asks the service, which claims the request once."""

from __future__ import annotations

from django_tasks import task

__all__ = ["ANALYSIS_QUEUE", "analyse_game", "analyse_position_task", "position_queue"]

ANALYSIS_QUEUE = "analysis"
"""The analyses' own queue (settings.TASKS), served by a worker of its own
(``manage.py db_worker --queue-name analysis``): minutes of gnubg never delay a bot or a deadline."""


@task(queue_name=ANALYSIS_QUEUE)
def analyse_game(analysis_id: int) -> bool:
    """Run GNU Backgammon over the game of this analysis request (see services.analysis_run)."""
    from .services import analysis_run

    return analysis_run(analysis_id)


@task()
def analyse_position_task(analysis_id: int) -> bool:
    """gnubg's answer for a position of the analysis board (position_services.position_analysis_run).

    At 0-ply it takes milliseconds, as a bot's decision does, and runs on the default queue; at
    2-ply it can take half a minute (a 1-1 with 300 legal plays, measured by make bench), so
    ``position_queue`` sends those to the analyses' queue, where a bot or a deadline never waits
    behind it."""
    from .position_services import position_analysis_run

    return position_analysis_run(analysis_id)


def position_queue(plies: int) -> str:
    return ANALYSIS_QUEUE if plies else "default"
