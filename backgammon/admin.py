"""Operators' view of games and challenges; games change only through the services.

The action log is read-only here (it is the game's truth). Staff end a game with the admin
actions "Abort" or "Adjudicate", which ask for a reason on an intermediate page and log it as a
StaffAction through ``game_abort`` / ``game_adjudicate``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from backgammon.models import Challenge, Game, GameAction, StaffAction
from backgammon.services import ActionRejected, game_abort, game_adjudicate
from backgammon.services.staff import REASON_MAX


class _ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameActionInline(_ReadOnlyInline):
    model = GameAction
    fields = ("number", "side", "kind", "notation", "data", "message", "created_at")
    readonly_fields = fields
    ordering = ("number",)


class StaffActionInline(_ReadOnlyInline):
    model = StaffAction
    fields = ("created_at", "staff", "kind", "winner", "reason")
    readonly_fields = fields


class StaffDecisionForm(forms.Form):
    """The intermediate page of the Abort and Adjudicate actions."""

    WINNER_CHOICES = (("black", "Black (the challenger)"), ("white", "White"))

    winner = forms.ChoiceField(choices=WINNER_CHOICES, required=False, widget=forms.RadioSelect)
    reason = forms.CharField(max_length=REASON_MAX, widget=forms.Textarea(attrs={"rows": 3}))


def _staff_decision(
    modeladmin: GameAdmin, request: HttpRequest, queryset: QuerySet[Game], *, adjudicate: bool
) -> HttpResponse | None:
    title = "Adjudicate games" if adjudicate else "Abort games"
    if "confirm" in request.POST:
        form = StaffDecisionForm(request.POST)
        if adjudicate and not request.POST.get("winner"):
            form.add_error("winner", "Choose the winner.")
        if form.is_valid():
            _apply_decisions(modeladmin, request, queryset, form.cleaned_data, adjudicate=adjudicate)
            return None
    else:
        form = StaffDecisionForm()
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "games": queryset,
        "form": form,
        "adjudicate": adjudicate,
        "action": request.POST.get("action", ""),
        "opts": modeladmin.model._meta,
        "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
    }
    return TemplateResponse(request, "admin/backgammon/game/staff_decision.html", context)


def _apply_decisions(
    modeladmin: GameAdmin,
    request: HttpRequest,
    queryset: QuerySet[Game],
    data: dict[str, Any],
    *,
    adjudicate: bool,
) -> None:
    done = 0
    for game in queryset.select_related("black", "white"):
        try:
            if adjudicate:
                winner = game.black if data["winner"] == "black" else game.white
                game_adjudicate(game_id=game.pk, staff=request.user, winner=winner, reason=data["reason"])
            else:
                game_abort(game_id=game.pk, staff=request.user, reason=data["reason"])
        except ActionRejected as refusal:
            modeladmin.message_user(request, f"Game #{game.pk}: {refusal.message}", messages.ERROR)
        else:
            done += 1
    verb = "adjudicated" if adjudicate else "aborted"
    modeladmin.message_user(request, f"{done} game(s) {verb}.", messages.SUCCESS)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "variant", "black", "white", "status", "phase", "actor", "deadline", "result", "updated_at")
    list_filter = ("status", "variant", "rated", "phase")
    search_fields = ("black__username", "white__username")
    date_hierarchy = "created_at"
    list_select_related = ("black", "white", "actor")
    inlines = (StaffActionInline, GameActionInline)
    actions = ("abort_games", "adjudicate_games")
    readonly_fields = tuple(field.name for field in Game._meta.fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start from an accepted challenge

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # abort instead: the record stays

    @admin.action(description="Abort selected games (with a reason)")
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return _staff_decision(self, request, queryset, adjudicate=False)

    @admin.action(description="Adjudicate selected games to Black or White (with a reason)")
    def adjudicate_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return _staff_decision(self, request, queryset, adjudicate=True)


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "challenger", "challenged", "variant", "match_length", "status", "created_at", "game")
    list_filter = ("status", "variant", "rated")
    search_fields = ("challenger__username", "challenged__username")
    list_select_related = ("challenger", "challenged")
    readonly_fields = ("game", "created_at", "responded_at")
    raw_id_fields = ("challenger", "challenged")


@admin.register(StaffAction)
class StaffActionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "game", "staff", "kind", "winner", "reason")
    list_filter = ("kind",)
    search_fields = ("staff__username", "reason")
    readonly_fields = ("game", "staff", "kind", "winner", "reason", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
