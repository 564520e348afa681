"""Django admin for the competition: each area registers its models here."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.dateparse import parse_duration

from backgammon.engine.clock import InvalidTimeControlError, TimeControl
from backgammon.models import TIME_LIMITS, time_limit_label
from tournaments.admin_decisions import abort_tournaments, adjudicate_matches
from tournaments.ladders import LadderRejected, ladder_terms
from tournaments.models import (
    Entry,
    Ladder,
    LadderMatch,
    LadderRung,
    Rating,
    RatingChange,
    Tournament,
    TournamentMatch,
)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("player", "variant", "rating", "experience", "updated_at")
    list_filter = ("variant",)
    search_fields = ("player__username",)
    # Ratings move only with rated results; staff correct a game, not a number.
    readonly_fields = ("player", "variant", "rating", "experience", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "player", "variant", "change", "rating_before", "rating_after",
                    "experience_before", "match_length", "game")
    list_filter = ("variant",)
    search_fields = ("player__username",)
    list_select_related = ("player", "game")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _duration(value: str) -> timedelta:
    duration = parse_duration(value)  # a choice's value: str() of a timedelta, which it reads back
    if duration is None:
        raise ValueError(value)
    return duration


def time_limit_field() -> forms.TypedChoiceField:
    """The site's per-move limits to choose from, as on the New game page, by their names ("1 day",
    not the duration's "1 00:00:00")."""
    return forms.TypedChoiceField(choices=[(str(limit), label) for limit, label in TIME_LIMITS], coerce=_duration,
                                  help_text="per move")


class LadderForm(forms.ModelForm):
    time_limit = time_limit_field()

    class Meta:
        model = Ladder
        fields = ("name", "variant", "match_length", "time_limit", "members_only", "inactivity_days",
                  "vacation_days_cap")

    def clean(self):  # type: ignore[no-untyped-def]
        # The same terms as the API's: a single game has no match length, a match has one.
        data = super().clean()
        if {"variant", "match_length", "time_limit"} <= data.keys():
            try:
                data["variant"], data["match_length"] = ladder_terms(
                    variant=data["variant"], match_length=data["match_length"] or None,
                    time_limit=data["time_limit"])
            except LadderRejected as refusal:
                raise forms.ValidationError(refusal.message) from None
        return data


class LadderRungInline(admin.TabularInline):
    model = LadderRung
    extra = 0
    fields = ("rank", "player", "wins", "losses", "joined_at", "last_game_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("rank",)

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False  # players join through the site; ranks move only through the services


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "match_length", "time_limit", "members_only", "inactivity_days",
                    "vacation_days_cap")
    list_filter = ("variant", "members_only")
    form = LadderForm
    inlines = (LadderRungInline,)

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(LadderMatch)
class LadderMatchAdmin(admin.ModelAdmin):
    list_display = ("ladder", "challenger", "defender", "winner", "finished_at")
    list_filter = ("ladder",)
    readonly_fields = ("ladder", "challenge", "challenger", "defender", "winner", "finished_at")

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    # Entries change through the services alone (sign-up, withdrawal, seeding at the start).
    readonly_fields = ("player", "seed", "joined_at")
    can_delete = False

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class MatchInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentMatch
    extra = 0
    # Results come from the games and the services alone (adjudicate through the service).
    readonly_fields = ("round", "bracket", "slot", "player_a", "player_b", "bye", "game", "winner",
                       "adjudication")
    can_delete = False


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    time_limit = time_limit_field()

    class Meta:
        model = Tournament
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        """A live tournament needs both the delay and the reserve, in the live clock's ranges; its
        time limit is then the two together, as its games' is."""
        cleaned = super().clean() or {}
        delay, reserve = cleaned.get("live_delay_s"), cleaned.get("live_reserve_s")
        if (delay is None) != (reserve is None):
            raise forms.ValidationError("A live tournament needs both its delay and its reserve (or neither).")
        if reserve is not None:
            try:
                control = TimeControl.live(delay, reserve)
            except InvalidTimeControlError as refusal:
                raise forms.ValidationError(str(refusal)) from None
            cleaned["time_limit"] = timedelta(seconds=control.delay_s + control.reserve_s)
            self.instance.time_limit = cleaned["time_limit"]
        return cleaned

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The API takes any number of hours: such a limit stays offered, or saving the page for
        # another field would quietly put the list's first limit in its place.
        current = self.instance.time_limit if self.instance.pk else None
        if current is not None and current not in {limit for limit, _ in TIME_LIMITS}:
            field = self.fields["time_limit"]
            field.choices = [*field.choices, (str(current), f"{time_limit_label(current)} (as created)")]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "variant", "area", "format", "size", "time_per_move", "status", "winner")
    list_filter = ("status", "format", "area", "variant")
    readonly_fields = ("status", "winner", "started_at", "finished_at")
    form = TournamentForm
    inlines = (EntryInline, MatchInline)
    actions = ("abort_tournaments", "adjudicate_matches")

    @admin.display(description="time per move", ordering="time_limit")
    def time_per_move(self, tournament: Tournament) -> str:
        return time_limit_label(tournament.time_limit)

    @admin.action(description="Abort selected tournaments (with a reason)")
    def abort_tournaments(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        return abort_tournaments(self, request, queryset)

    @admin.action(description="Adjudicate matches of selected tournaments (with a reason)")
    def adjudicate_matches(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        return adjudicate_matches(self, request, queryset)
