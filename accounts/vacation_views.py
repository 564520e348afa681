"""Booking and cancelling vacations from the profile page."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm
from accounts.vacations import VacationRefused, vacation_book, vacation_cancel


def _refused(request: HttpRequest, reason: str) -> HttpResponse:
    form = ProfileForm(instance=request.user.profile)  # type: ignore[union-attr]
    context = {"form": form, "vacation_error": reason}
    return render(request, "accounts/profile.html", context, status=400)


def _parse(request: HttpRequest) -> tuple[date, int]:
    try:
        start = date.fromisoformat(request.POST.get("start", "").strip())
    except ValueError:
        raise VacationRefused("Give the first day of the vacation as a date.") from None
    try:
        days = int(request.POST.get("days", "").strip())
    except ValueError:
        raise VacationRefused("Give the number of days as a whole number.") from None
    return start, days


@login_required
@require_POST
def vacation_book_view(request: HttpRequest) -> HttpResponse:
    try:
        start, days = _parse(request)
        vacation_book(user=request.user, start=start, days=days)
    except VacationRefused as refusal:
        return _refused(request, str(refusal))
    messages.success(request, f"Your vacation of {days} day{'s' if days != 1 else ''} is booked.")
    return redirect("accounts:profile")


@login_required
@require_POST
def vacation_cancel_view(request: HttpRequest, vacation_id: int) -> HttpResponse:
    try:
        vacation_cancel(user=request.user, vacation_id=vacation_id)
    except VacationRefused as refusal:
        return _refused(request, str(refusal))
    messages.success(request, "Your vacation is cancelled.")
    return redirect("accounts:profile")
