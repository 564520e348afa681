"""E-mail confirmation pages: the link from the mail (a page with a button, so a mail scanner
fetching the link confirms nothing) and "Send me a confirmation link" for a logged-in player."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts.email_confirmation import (
    CONFIRMATION_SENT,
    ConfirmationRefused,
    confirmation_send,
    email_confirm,
    email_confirm_target,
)

__all__ = ["email_confirm_send_view", "email_confirm_view"]

# Where "Send me a confirmation link" returns to: a fixed choice, never an address from the form.
_BACK = {"profile": "accounts:profile", "invite": "messaging:tell_a_friend"}


@require_http_methods(["GET", "POST"])
def email_confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    try:
        if request.method == "POST":
            user = email_confirm(token)
        else:
            user, email = email_confirm_target(token)
            return render(request, "accounts/email_confirm.html",
                          {"userid": user.get_username(), "email": email, "token": token})
    except ConfirmationRefused as refusal:
        return render(request, "accounts/email_confirm.html", {"error": refusal.message}, status=400)
    messages.success(request, f"Thank you: {user.email} is confirmed.")
    return redirect("accounts:profile" if request.user.is_authenticated else "accounts:login")


@login_required
@require_POST
def email_confirm_send_view(request: HttpRequest) -> HttpResponse:
    back = _BACK.get(request.POST.get("back", ""), "accounts:profile")
    try:
        confirmation_send(user=request.user)
    except ConfirmationRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.info(request, CONFIRMATION_SENT.format(email=request.user.email))  # type: ignore[union-attr]
    return redirect(back)
