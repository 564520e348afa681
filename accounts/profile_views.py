"""Edit user profile, the public part: about me, country, time zone and the avatar.

Each form posts to its own address and, when refused, the whole profile page is shown again
with the reason beside the field (status 400) and nothing saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.avatars import AvatarRejected, avatar_remove, avatar_set
from accounts.forms import AboutForm, AvatarForm, ProfileForm
from accounts.rate_limits import AVATAR_UPLOAD_REFUSED, avatar_upload_refused


def public_profile_forms(request: HttpRequest, **bound: forms.Form) -> dict[str, Any]:
    """The About and Avatar forms for the profile page, unbound unless given."""
    profile = request.user.profile  # type: ignore[union-attr]
    return {
        "about_form": bound.get("about_form") or AboutForm(instance=profile, prefix="about"),
        "avatar_form": bound.get("avatar_form") or AvatarForm(prefix="avatar"),
    }


def _refused(request: HttpRequest, status: int = 400, **bound: forms.Form) -> HttpResponse:
    context = {
        "form": ProfileForm(instance=request.user.profile),  # type: ignore[union-attr]
        **public_profile_forms(request, **bound),
    }
    return render(request, "accounts/profile.html", context, status=status)


@login_required
@require_POST
def about_save(request: HttpRequest) -> HttpResponse:
    form = AboutForm(request.POST, instance=request.user.profile, prefix="about")  # type: ignore[union-attr]
    if not form.is_valid():
        return _refused(request, about_form=form)
    form.save()
    messages.success(request, "Your public profile is saved.")
    return redirect("accounts:profile")


@login_required
@require_POST
def avatar_upload(request: HttpRequest) -> HttpResponse:
    form = AvatarForm(request.POST, request.FILES, prefix="avatar")
    if avatar_upload_refused(request):
        messages.error(request, AVATAR_UPLOAD_REFUSED)  # shown on this very page, above the forms
        return _refused(request, status=429)
    if form.is_valid():
        upload = form.cleaned_data["avatar"]
        try:
            avatar_set(user=request.user, upload=upload, size=upload.size)
        except AvatarRejected as refusal:
            form.add_error("avatar", str(refusal))
        else:
            messages.success(request, "Your new avatar is saved.")
            return redirect("accounts:profile")
    return _refused(request, avatar_form=form)


@login_required
@require_POST
def avatar_delete(request: HttpRequest) -> HttpResponse:
    avatar_remove(user=request.user)
    messages.success(request, "Your avatar is removed: your initial stands in for it.")
    return redirect("accounts:profile")
