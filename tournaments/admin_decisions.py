"""The tournament admin's staff actions, "Abort" and "Adjudicate": each asks on an intermediate
page (what will happen, the winners, a reason) before it changes anything, and then changes it
only through the tournament services (``tournament_cancel``, ``tournament_adjudicate``), one
tournament or match at a time, a refusal reported beside the others' success."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from backgammon.services import Rejected
from backgammon.services.staff import REASON_MAX
from tournaments.models import Tournament, TournamentMatch
from tournaments.tournaments import tournament_adjudicate, tournament_cancel

__all__ = ["abort_tournaments", "adjudicate_matches"]

TEMPLATE = "admin/tournaments/tournament/staff_decision.html"
UNDECIDED = ""


class AbortForm(forms.Form):
    reason = forms.CharField(max_length=REASON_MAX, widget=forms.Textarea(attrs={"rows": 3}))


def undecided_matches(tournaments: QuerySet[Tournament]) -> list[TournamentMatch]:
    """The matches staff may decide: both players known, no winner yet, in a running tournament."""
    return list(
        TournamentMatch.objects.filter(
            tournament__in=tournaments, tournament__status=Tournament.Status.RUNNING, winner__isnull=True,
            bye=False, player_a__isnull=False, player_b__isnull=False,
        ).select_related("tournament", "player_a", "player_b", "game").order_by("tournament", "round", "slot")
    )


class AdjudicateForm(forms.Form):
    """A winner (or none) for each undecided match, and the reason kept with each decision."""

    reason = forms.CharField(max_length=REASON_MAX, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, matches: list[TournamentMatch], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.matches = matches
        for match in matches:
            self.fields[self.field_name(match)] = forms.ChoiceField(
                label=f"{match.tournament.name}, round {match.round}: {match.player_a} v {match.player_b}",
                choices=[(UNDECIDED, "Leave undecided"), (str(match.player_a_id), str(match.player_a)),
                         (str(match.player_b_id), str(match.player_b))],
                required=False, initial=UNDECIDED, widget=forms.RadioSelect,
            )

    @staticmethod
    def field_name(match: TournamentMatch) -> str:
        return f"match_{match.pk}"

    def match_fields(self) -> list[forms.BoundField]:
        return [self[self.field_name(match)] for match in self.matches]

    def decisions(self) -> list[tuple[TournamentMatch, Any]]:
        """(match, winning player) for each match given a winner."""
        chosen = []
        for match in self.matches:
            winner_id = self.cleaned_data.get(self.field_name(match)) or UNDECIDED
            if winner_id != UNDECIDED:
                chosen.append((match, match.player_a if winner_id == str(match.player_a_id) else match.player_b))
        return chosen

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and not self.decisions():
            raise forms.ValidationError("Choose the winner of at least one match.")
        return data


def _page(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Tournament], form: forms.Form,
          *, adjudicate: bool) -> TemplateResponse:
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": "Adjudicate tournament matches" if adjudicate else "Abort tournaments",
        "tournaments": queryset,
        "form": form,
        "adjudicate": adjudicate,
        "action": request.POST.get("action", ""),
        "opts": modeladmin.model._meta,
        "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
    }
    return TemplateResponse(request, TEMPLATE, context)


def abort_tournaments(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
    """Call the selected tournaments off (their games in progress aborted), with a reason, once
    confirmed."""
    form = AbortForm(request.POST if "confirm" in request.POST else None)
    if not form.is_valid():
        return _page(modeladmin, request, queryset, form, adjudicate=False)
    done = 0
    for tournament in queryset:
        try:
            tournament_cancel(tournament_id=tournament.pk, staff=request.user, reason=form.cleaned_data["reason"])
        except Rejected as refusal:
            modeladmin.message_user(request, f"{tournament.name}: {refusal.message}.", messages.ERROR)
        else:
            done += 1
    modeladmin.message_user(request, f"{done} tournament(s) aborted.", messages.SUCCESS)
    return None


def adjudicate_matches(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
    """Decide the chosen undecided matches of the selected tournaments, with a reason, once
    confirmed: a match whose game is being played is decided through its game."""
    matches = undecided_matches(queryset)
    form = AdjudicateForm(request.POST if "confirm" in request.POST else None, matches=matches)
    if not form.is_valid():
        return _page(modeladmin, request, queryset, form, adjudicate=True)
    done = 0
    for match, winner in form.decisions():
        try:
            tournament_adjudicate(match_id=match.pk, staff=request.user, winner=winner,
                                  reason=form.cleaned_data["reason"])
        except Rejected as refusal:
            modeladmin.message_user(request, f"{match}: {refusal.message}.", messages.ERROR)
        else:
            done += 1
    modeladmin.message_user(request, f"{done} match(es) adjudicated.", messages.SUCCESS)
    return None
