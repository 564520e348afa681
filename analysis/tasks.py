"""The worker's analysis task: it only asks the service, which claims the request once."""

from __future__ import annotations

from django_tasks import task

__all__ = ["analyse_game"]


@task()
def analyse_game(analysis_id: int) -> bool:
    """Run GNU Backgammon over the game of this analysis request (see services.analysis_run)."""
    from .services import analysis_run

    return analysis_run(analysis_id)
