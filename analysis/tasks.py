"""The worker's analysis task: it only asks the service, which claims the request once."""

from __future__ import annotations

from django_tasks import task

__all__ = ["ANALYSIS_QUEUE", "analyse_game", "analyse_position_task"]

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
    """gnubg's answer for a position of the analysis board (position_services.position_analysis_run),
    on the default queue: it takes milliseconds at 0-ply and a fraction of a second at 2-ply, as
    a bot's decision does, where the analysis queue may be busy with a whole match for minutes."""
    from .position_services import position_analysis_run

    return position_analysis_run(analysis_id)
