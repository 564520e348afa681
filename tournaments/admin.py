"""Django admin for the competition: each area registers its models here."""

from typing import Any

from django.contrib import admin

from tournaments.models import Entry, Tournament, TournamentMatch


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    # Entries change through the services alone (sign-up, withdrawal, seeding at the start).
    readonly_fields = ("player", "seed", "joined_at")
    can_delete = False

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class MatchInline(admin.TabularInline):
    model = TournamentMatch
    extra = 0
    # Results come from the games and the services alone (adjudicate through the service).
    readonly_fields = ("round", "bracket", "slot", "player_a", "player_b", "bye", "game", "winner",
                       "adjudication")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "variant", "area", "format", "size", "status", "winner")
    list_filter = ("status", "format", "area", "variant")
    readonly_fields = ("status", "winner", "started_at", "finished_at")
    inlines = (EntryInline, MatchInline)
