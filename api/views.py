"""The profile page's API tokens: create one (its secret shown once) and revoke one, by POST."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_POST

from api.tokens import TokenRejected, token_create, token_revoke

__all__ = ["api_token_create", "api_token_revoke"]


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    try:
        token, secret = token_create(user=request.user, name=request.POST.get("name", ""))
    except TokenRejected as refusal:
        messages.error(request, refusal.message)
        return redirect("accounts:profile")
    # Shown on this response only: the site keeps just a hash, and no cache may keep the page.
    response = render(request, "api/token_created.html", {"token": token, "secret": secret})
    add_never_cache_headers(response)
    return response


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = token_revoke(user=request.user, token_id=token_id)
    except TokenRejected as refusal:
        messages.error(request, refusal.message)
        return redirect("accounts:profile")
    messages.success(request, f"The token “{token.name}” is revoked: programs using it are refused from now on.")
    return redirect("accounts:profile")
