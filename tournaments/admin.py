"""Django admin for the competition: each area registers its models here."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from backgammon.models import TIME_LIMITS
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
    return next(limit for limit, _ in TIME_LIMITS if str(limit) == value)


class LadderForm(forms.ModelForm):
    # The site's per-move limits to choose from, as on the New game page.
    time_limit = forms.TypedChoiceField(
        choices=[(str(limit), label) for limit, label in TIME_LIMITS], coerce=_duration
    )

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


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "variant", "area", "format", "size", "status", "winner")
    list_filter = ("status", "format", "area", "variant")
    readonly_fields = ("status", "winner", "started_at", "finished_at")
    inlines = (EntryInline, MatchInline)
