"""Staff replace a tournament's player, under the tournament's row lock, the reason logged.

Before the start the entry changes hands. While it runs the replacement takes the old player's
waiting places (matches whose opponent is not known yet); a match with a game refuses, since its
result belongs to the players of that game: staff adjudicate it first.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from backgammon.services import Refusal

from .models import Replacement, Tournament, TournamentMatch
from .tournaments import TournamentConflict, TournamentRejected, _locked, changed

__all__ = ["tournament_replace_player"]


def tournament_replace_player(
    *, tournament_id: int, staff: Any, old: Any, new: Any, reason: str
) -> Replacement:
    if not getattr(staff, "is_staff", False):
        raise TournamentRejected("Only staff can replace a player", Refusal.NOT_PLAYER)
    reason = reason.strip()
    if not reason:
        raise TournamentRejected("Give a reason: it is kept with the tournament")
    if old.pk == new.pk:
        raise TournamentRejected("Choose a different player as the replacement")
    if not new.is_active:
        raise TournamentRejected(f"The player {new.get_username()} cannot play: the account is closed")
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = tournament.entries.filter(player=old).first()
        if entry is None:
            raise TournamentRejected(f"{old.get_username()} is not in this tournament")
        if tournament.entries.filter(player=new).exists():
            raise TournamentConflict(f"{new.get_username()} is already in this tournament")
        if tournament.status == Tournament.Status.RUNNING:
            _take_over_waiting_places(tournament, old, new)
        elif tournament.status != Tournament.Status.SIGNUP:
            raise TournamentConflict(f"This tournament is {tournament.get_status_display().lower()}: "
                                     "its players can no longer change")
        entry.player = new
        entry.save(update_fields=["player"])
        changed(tournament)
        return Replacement.objects.create(
            tournament=tournament, old=old, new=new, staff=staff, reason=reason[:500]
        )


def _take_over_waiting_places(tournament: Tournament, old: Any, new: Any) -> None:
    unplayed = tournament.matches.filter(Q(player_a=old) | Q(player_b=old), winner__isnull=True)
    if unplayed.filter(game__isnull=False).exists():
        raise TournamentConflict(
            f"{old.get_username()} has a match with a game in this tournament: adjudicate it "
            "first, then replace the player"
        )
    waiting: list[TournamentMatch] = list(unplayed)
    if not waiting:
        raise TournamentConflict(f"{old.get_username()} has no match left to play in this tournament")
    for match in waiting:
        if match.player_a_id == old.pk:
            match.player_a = new
        else:
            match.player_b = new
        match.save(update_fields=["player_a", "player_b"])
