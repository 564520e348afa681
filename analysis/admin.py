"""Operators see each game's analysis request: its state, progress and any failure."""

from django.contrib import admin

from .models import GameAnalysis


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin):
    list_display = ("game", "status", "done", "total", "requested_by", "requested_at", "finished_at")
    list_filter = ("status",)
    readonly_fields = ("game", "status", "done", "total", "results", "failure", "requested_by",
                       "requested_at", "finished_at")
