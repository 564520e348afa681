"""The worker's analysis task: it only asks the service, which claims the request once."""

from __future__ import annotations

from django_tasks import task

__all__ = ["ANALYSIS_QUEUE", "analyse_game"]

ANALYSIS_QUEUE = "analysis"
"""The analyses' own queue (settings.TASKS), served by a worker of its own
(``manage.py db_worker --queue-name analysis``): minutes of gnubg never delay a bot or a deadline."""


@task(queue_name=ANALYSIS_QUEUE)
def analyse_game(analysis_id: int) -> bool:
    """Run GNU Backgammon over the game of this analysis request (see services.analysis_run)."""
    from .services import analysis_run

    return analysis_run(analysis_id)
