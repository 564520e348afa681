"""The "Edit game boards" page: board colours, checker colours, which side the home board is on,
point numbers and pip counts, and the confirm-before-Submit step, with a live preview.

Kept apart from the profile form (accounts.views.profile) so each page saves only its own fields.
The preview is a GET of the same form's values: nothing is saved until the player presses Save.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.models import Profile
from backgammon.board_preview import preview_board
from backgammon.board_svg import Board, BoardStyle
from backgammon.board_themes import theme_named

__all__ = ["BoardSettingsForm", "board_preview", "board_settings"]

BAD_PREVIEW = "Those are not settings this page offers: the preview shows your saved ones."


class BoardSettingsForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("board_theme", "checker_colours", "home_board_left", "show_point_numbers",
                  "show_pip_counts", "confirm_submit", "auto_forced_move", "auto_pass_dance")
        widgets: ClassVar[dict[str, Any]] = {
            "board_theme": forms.RadioSelect, "checker_colours": forms.RadioSelect,
        }

    # Added after the board settings: a page or a preview of the form from before leaves them as
    # they are (a value outside the choices is still refused).
    _KEPT_WHEN_LEFT_OUT = ("auto_forced_move", "auto_pass_dance")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self._KEPT_WHEN_LEFT_OUT:
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in self._KEPT_WHEN_LEFT_OUT:
            if not cleaned.get(name) and name not in self.errors:
                cleaned[name] = getattr(self.instance, name)
        return cleaned


def _preview_of(profile: Profile) -> Board:
    style = BoardStyle(theme=theme_named(profile.board_theme), home_left=profile.home_board_left,
                       point_numbers=profile.show_point_numbers, pip_counts=profile.show_pip_counts)
    return preview_board(style=style, checker_scheme=profile.checker_colours)


@login_required
@require_http_methods(["GET", "POST"])
def board_settings(request: HttpRequest) -> HttpResponse:
    profile: Profile = request.user.profile  # type: ignore[union-attr]
    form = BoardSettingsForm(request.POST or None, instance=profile)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, "Your board settings are saved: every board you see now uses them.")
            return redirect("accounts:board_settings")
        # The form filled the (unsaved) profile with what it could read: preview the stored one.
        profile.refresh_from_db()
        context = {"form": form, "board": _preview_of(profile)}
        return render(request, "accounts/boards.html", context, status=400)
    return render(request, "accounts/boards.html", {"form": form, "board": _preview_of(profile)})


@login_required
@require_GET
def board_preview(request: HttpRequest) -> HttpResponse:
    """The sample board drawn with the settings in the query string (the form's values, unsaved)."""
    form = BoardSettingsForm(request.GET, instance=Profile())
    if form.is_valid():
        return render(request, "accounts/_board_preview.html", {"board": _preview_of(form.instance)})
    saved: Profile = request.user.profile  # type: ignore[union-attr]
    context = {"board": _preview_of(saved), "error": BAD_PREVIEW}
    return render(request, "accounts/_board_preview.html", context, status=400)
