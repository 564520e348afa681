"""A live tournament's no-show rule: a player who is not there when their match starts loses it
after the turn's delay plus two minutes (issue 31). "There" is having the match's page open then
(its live stream's listening mark) or having been seen on the site since the match started
(Profile.last_seen, marked at most once a minute, so a minute before the start counts too). When
neither player came, the lower seed (the match's second player) loses and the higher goes on, as
a tournament director would have to decide for a bracket to go on."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from accounts.presence import SEEN_EVERY
from backgammon.engine.clock import TimeControl
from backgammon.listening import listening_key
from backgammon.models import Game
from backgammon.services.staff import game_forfeit

__all__ = ["NO_SHOW_GRACE", "schedule_no_show_check", "tournament_no_show"]

NO_SHOW_GRACE = timedelta(minutes=2)


def schedule_no_show_check(game: Game, control: TimeControl) -> None:
    """Once the new game commits, check at its start plus the delay plus ``NO_SHOW_GRACE``."""
    from .tasks import check_no_show

    when = game.created_at + timedelta(seconds=control.delay_s) + NO_SHOW_GRACE
    if check_no_show.get_backend().supports_defer:
        transaction.on_commit(lambda: check_no_show.using(run_after=when).enqueue(game.pk))


def tournament_no_show(*, game_id: int, now: datetime | None = None) -> Game | None:
    """Apply the rule to a live tournament game: the game, ended, when a player had not come;
    None when both came, the game is over already, or it is no live tournament game."""
    from .models import TournamentMatch

    match = TournamentMatch.objects.select_related("player_a", "player_b", "game").filter(game_id=game_id).first()
    if match is None or match.game is None or not match.game.is_live or match.game.status != Game.Status.ACTIVE:
        return None
    game = match.game
    absent = [player for player in (match.player_a, match.player_b) if not _came(game, player, now)]
    if not absent:
        return None
    loser = absent[-1]  # both absent: the lower seed
    why = ("neither player came to the live match; the higher seed goes on" if len(absent) == 2
           else f"{loser.get_username()} did not come to the live match")
    return game_forfeit(game_id=game.pk, loser=loser, reason=why)


def _came(game: Game, player: Any, now: datetime | None) -> bool:
    if cache.get(listening_key(player.pk, game.pk)):
        return True
    seen = Profile.objects.filter(user=player).values_list("last_seen", flat=True).first()
    return seen is not None and seen >= game.created_at - SEEN_EVERY and seen <= (now or timezone.now())
