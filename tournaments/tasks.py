"""The tournaments' worker tasks: each only asks its service."""

from __future__ import annotations

from django_tasks import task

__all__ = ["check_no_show"]


@task()
def check_no_show(game_id: int) -> bool:
    """A live tournament game's no-show check, at its start plus the delay plus two minutes."""
    from .no_show import tournament_no_show

    return tournament_no_show(game_id=game_id) is not None
