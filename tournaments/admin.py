"""Django admin for the competition: each area registers its models here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Rating, RatingChange


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
