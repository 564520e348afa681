"""Account pages: sign-up, log-in (guarded by django-axes), log-out, password change and reset, profile.

Django's auth views do the work; we give them our forms, templates and namespaced URLs.
"""

from __future__ import annotations

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods

from accounts.email_confirmation import CONFIRMATION_SENT, confirmation_send_quietly
from accounts.forms import EMAIL_TAKEN, LoginForm, ProfileForm, SignUpForm
from accounts.profile_views import public_profile_forms
from accounts.rate_limits import (
    PASSWORD_RESET_REFUSED,
    SIGNUP_REFUSED,
    password_reset_refused,
    signup_refused,
)
from accounts.services import EMAIL_INDEX, account_create
from gamesite.next_page import safe_next


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create a new userid, log straight in and mail a link to confirm the e-mail address."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        if signup_refused(request):
            form.add_error(None, SIGNUP_REFUSED)
            status = 429
        else:
            try:
                user = account_create(
                    username=form.cleaned_data["username"],
                    email=form.cleaned_data["email"],
                    password=form.cleaned_data["password1"],
                )
            except IntegrityError as clash:
                # Someone took the userid (in any case), a look-alike or the e-mail address
                # since the form's checks; the database's unique indexes say which.
                if EMAIL_INDEX in str(clash):
                    form.add_error("email", EMAIL_TAKEN)
                else:
                    form.add_error("username", SignUpForm.TAKEN)
            else:
                login(request, user, backend="accounts.backends.CaseInsensitiveModelBackend")
                messages.success(request, f"Welcome, {user.get_username()}! Your userid is ready.")
                if confirmation_send_quietly(user=user):
                    messages.info(request, CONFIRMATION_SENT.format(email=user.email))
                return redirect(_next_page(request) or "home")
    return render(request, "accounts/signup.html",
                  {"form": form, "invited_by": _inviter(request), "next": _next_page(request)},
                  status=status)


def _next_page(request: HttpRequest) -> str:
    """Where a visitor asked to sign up was going (``next``, as the log-in page takes it): a page
    of this site only, never an address someone else put in the link."""
    return safe_next(request)


def _inviter(request: HttpRequest) -> object | None:
    """The player named by ``?invited_by=`` of a Tell a friend link, if there is one by that name."""
    name = request.GET.get("invited_by", "").strip()
    if not name or len(name) > 150:
        return None
    return get_user_model()._default_manager.filter(username__iexact=name, is_active=True).first()


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_redirect_url(self) -> str:
        # The same check as every other ``next`` of the site (Django's own is the core of it).
        return safe_next(self.request)


class LogoutView(auth_views.LogoutView):
    """POST only (Django refuses GET): a link cannot log anyone out behind their back."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You are logged out. See you soon.")
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        messages.success(self.request, "Your password is changed.")
        return super().form_valid(form)


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/email/password_reset.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")
    # Without the sites framework Django would call the site by its domain name; the link is
    # made from SITE_URL, not from the request's Host header (gamesite/site_address.py).
    @property
    def extra_email_context(self) -> dict[str, str]:  # type: ignore[override]
        return {"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL}

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        # A clear refusal rather than the usual "on its way" page: the person then knows why no
        # new e-mail comes, and since unknown addresses count too, it tells nothing about them.
        if password_reset_refused(self.request, form.cleaned_data["email"]):
            form.add_error(None, PASSWORD_RESET_REFUSED)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        response = super().form_valid(form)
        # Whoever can read the player's mail may log in again at once, from anywhere.
        axes_reset(username=form.user.get_username().lower())
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """The player's userid, join date, e-mail and whether to ask before doubling."""
    # Bound on every POST, even an empty one, so it too is answered with what is missing.
    data = request.POST if request.method == "POST" else None
    form = ProfileForm(data, instance=request.user.profile)  # type: ignore[union-attr]
    if request.method == "POST":
        old_email = request.user.email  # type: ignore[union-attr]
        if form.is_valid():
            try:
                with transaction.atomic():
                    form.save()
            except IntegrityError:  # another account took the address since the form's check
                form.instance.user.email = old_email  # nothing was saved: show the one kept
                form.add_error("email", EMAIL_TAKEN)
            else:
                messages.success(request, "Your profile is saved.")
                user = form.instance.user
                if user.email.lower() != old_email.lower() and confirmation_send_quietly(
                    user=user
                ):
                    messages.info(request, CONFIRMATION_SENT.format(email=user.email))
                return redirect("accounts:profile")
        return render(
            request, "accounts/profile.html", {"form": form, **public_profile_forms(request)}, status=400
        )
    return render(request, "accounts/profile.html", {"form": form, **public_profile_forms(request)})
