"""Operators read messages here, above all those a recipient reported (filter "reported")."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from messaging.models import Message


class ReportedFilter(admin.SimpleListFilter):
    title = "reported"
    parameter_name = "reported"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:  # type: ignore[type-arg]
        return [("yes", "Reported"), ("no", "Not reported")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Message]) -> QuerySet[Message]:
        if self.value() == "yes":
            return queryset.filter(reported_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(reported_at__isnull=True)
        return queryset


class ReadFilter(admin.SimpleListFilter):
    title = "read"
    parameter_name = "read"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:  # type: ignore[type-arg]
        return [("yes", "Read"), ("no", "Unread")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Message]) -> QuerySet[Message]:
        if self.value() in ("yes", "no"):
            return queryset.filter(read_at__isnull=self.value() == "no")
        return queryset


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "sender", "recipient", "kind", "title", "read_at", "reported_at")
    list_filter = (ReportedFilter, ReadFilter, "kind", "deleted_by_sender", "deleted_by_recipient", "created_at")
    search_fields = ("sender__username", "recipient__username", "subject", "body")
    list_select_related = ("sender", "recipient")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    # Operators read and judge; the players' words are not theirs to edit.
    readonly_fields = ("sender", "recipient", "kind", "subject", "body", "created_at", "read_at", "reply_to",
                       "game", "game_action", "challenge", "reported_at")
    fields = readonly_fields + ("deleted_by_sender", "deleted_by_recipient")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
