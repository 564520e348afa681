"""News, the e-mail notice settings and the one-click unsubscribe page."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from notices.forms import NoticePreferencesForm
from notices.news import published_news
from notices.preferences import (
    PREFERENCE_FLAGS,
    preferences_for,
    preferences_unsubscribe,
    preferences_update,
)
from notices.push.subscriptions import push_subscriptions
from notices.unsubscribe import BadUnsubscribeLink, user_from_token

NEWS_PER_PAGE = 10


@require_GET
def news(request: HttpRequest) -> HttpResponse:
    """The site's news, newest first, ten to a page (a page number out of range: the last)."""
    page = Paginator(published_news(), NEWS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "notices/news.html", {"page": page})


def _settings_page(request: HttpRequest, form: NoticePreferencesForm, status: int = 200) -> HttpResponse:
    return render(request, "notices/settings.html", {
        "form": form, "email": request.user.email,
        "devices": list(push_subscriptions(request.user)),
        "push_key": settings.VAPID_PUBLIC_KEY,
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def notice_settings(request: HttpRequest) -> HttpResponse:
    """Immediate e-mails (each kind with its own switch, which push follows too), a daily
    digest, or no e-mail; and the player's devices with push notifications."""
    preferences = preferences_for(request.user)
    if request.method == "POST":
        form = NoticePreferencesForm(request.POST, instance=preferences)
        if form.is_valid():
            data = form.cleaned_data
            preferences_update(
                user=request.user, delivery=data["delivery"],
                **{name: data[name] for name in PREFERENCE_FLAGS},
            )
            messages.success(request, "Your notice settings are saved.")
            return redirect("notices:settings")
        # An invalid form must leave the saved row alone (the ModelForm wrote into the instance).
        preferences.refresh_from_db()
        return _settings_page(request, form, status=400)
    return _settings_page(request, NoticePreferencesForm(instance=preferences))


@csrf_exempt  # the signed token in the URL is the proof (RFC 8058 one-click: mail clients POST it)
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a button to confirm (link scanners follow GETs); POST: no more notices."""
    try:
        user = user_from_token(token)
    except BadUnsubscribeLink as refusal:
        return render(request, "notices/unsubscribe_bad.html", {"reason": str(refusal)}, status=400)
    if request.method == "POST":
        preferences_unsubscribe(user)
        return render(request, "notices/unsubscribed.html", {"player": user})
    return render(request, "notices/unsubscribe.html", {"player": user, "token": token})
