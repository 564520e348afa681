"""Forms for sign-up, log-in and the profile; each refuses bad input with a clear message."""

from __future__ import annotations

import functools
import zoneinfo
from typing import Any, ClassVar

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.http import HttpRequest
from django_countries import countries

from accounts.models import BIO_MAX, Profile
from accounts.skeleton import userid_key
from gamesite.text import validate_free_text

User = get_user_model()

userid_validator = RegexValidator(
    r"\A[A-Za-z0-9_-]{3,20}\Z",
    "A userid is 3 to 20 characters: letters, digits, _ and - only.",
)

# Words in the site's own addresses beside /players/<userid>/ ("Who is here?" is /players/here/).
RESERVED_USERIDS = frozenset({"here"})


def lookalike_error(username: str, *, exclude_user_pk: Any = None) -> ValidationError | None:
    """Refuse a userid that looks like an existing one ('aIice' beside 'alice')."""
    others = Profile.objects.filter(userid_skeleton=userid_key(username)).select_related("user")
    existing = others.exclude(user__pk=exclude_user_pk).first()
    if existing is None:
        return None
    return ValidationError(
        "That userid looks too much like the existing userid %(existing)s. Please choose another.",
        code="lookalike",
        params={"existing": existing.user.get_username()},
    )


EMAIL_TAKEN = (
    "Another userid already uses that e-mail address: one account per address. If it is yours, "
    "log in with it (or reset its password)."
)


def email_taken(email: str, *, exclude_user_pk: Any = None) -> bool:
    """One account per e-mail address, whatever its case (the database's index agrees)."""
    return User.objects.filter(email__iexact=email).exclude(pk=exclude_user_pk).exists()


class SignUpForm(forms.Form):
    """A new userid: unique whatever its case, so 'Alice' and 'alice' are one player; and one
    account per e-mail address."""

    TAKEN = "That userid is taken. Please choose another."

    username = forms.CharField(
        label="Userid",
        max_length=20,
        validators=[userid_validator],
        help_text="3 to 20 characters: letters, digits, _ and -. Other players see it.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = forms.EmailField(
        label="E-mail",
        help_text="We send it a link to confirm it, and use it to reset a forgotten password. "
        "One userid per address; other players never see it.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if username.lower() in RESERVED_USERIDS:
            raise ValidationError(self.TAKEN)
        if User.objects.filter(username__iexact=username).exists():
            raise ValidationError(self.TAKEN)
        error = lookalike_error(username)
        if error is not None:
            raise error
        return username

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"]
        if email_taken(email):
            raise ValidationError(EMAIL_TAKEN, code="email_taken")
        return email

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", "The two passwords differ. Please type the same one twice.")
        elif first:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(first, candidate)
            except ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class LoginForm(AuthenticationForm):
    """Django's log-in form with our wording; django-axes counts its failures and locks out."""

    def __init__(self, request: HttpRequest | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = "Userid"
        self.error_messages = {
            **self.error_messages,
            "invalid_login": "That userid and password do not match. Passwords are case-sensitive.",
        }


class ProfileForm(forms.ModelForm):
    """E-mail (on the user) and asking before doubling (on the profile), on one page. A new
    e-mail address needs the current password: with the e-mail, whoever holds a stolen session
    could reset the password and keep the account. Checker colours are chosen with the rest of
    the board's looks, beside a preview, on "Edit game boards" (accounts.board_settings)."""

    email = forms.EmailField(
        label="E-mail", widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    current_password = forms.CharField(
        label="Current password",
        required=False,
        strip=False,
        help_text="Needed only to change your e-mail address.",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    class Meta:
        model = Profile
        fields = ("confirm_double",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].initial = self.instance.user.email
        self.order_fields(["email", "current_password", "confirm_double"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        email = cleaned.get("email")
        user = self.instance.user
        if email is not None and email.lower() != user.email.lower():
            if email_taken(email, exclude_user_pk=user.pk):
                self.add_error("email", EMAIL_TAKEN)
                return cleaned
            password = cleaned.get("current_password") or ""
            if not password:
                self.add_error(
                    "current_password", "Please type your current password to change your e-mail."
                )
            elif not user.check_password(password):
                self.add_error(
                    "current_password",
                    "That is not your current password, so your e-mail address is unchanged.",
                )
        return cleaned

    def save(self, commit: bool = True) -> Profile:
        profile: Profile = super().save(commit=False)
        profile.user.email = self.cleaned_data["email"]
        if commit:
            profile.user.save(update_fields=["email"])
            profile.save()
        return profile


@functools.cache
def _time_zone_choices() -> list[tuple[str, str]]:
    names = sorted(zone for zone in zoneinfo.available_timezones() if "/" in zone or zone == "UTC")
    return [("", "Not shown"), *((name, name.replace("_", " ")) for name in names)]


class AboutForm(forms.ModelForm):
    """The public profile's text: about me, country and time zone (shown to everyone)."""

    time_zone = forms.ChoiceField(
        label="Time zone",
        required=False,
        help_text="Other players see your local time, so they know when you are likely to move.",
    )

    class Meta:
        model = Profile
        fields = ("bio", "country", "time_zone")
        widgets: ClassVar[dict[str, Any]] = {"bio": forms.Textarea(attrs={"rows": 5})}
        help_texts: ClassVar[dict[str, str]] = {
            "bio": f"Up to {BIO_MAX} characters, shown on your profile as plain text.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Choices from the installed time-zone data: anything else is refused as not a choice.
        self.fields["time_zone"].choices = _time_zone_choices()  # type: ignore[attr-defined]
        self.fields["bio"].validators.append(validate_free_text)
        self.fields["country"].label = "Country"
        self.fields["country"].choices = [("", "Not shown"), *countries]  # type: ignore[attr-defined]


class AvatarForm(forms.Form):
    """A picture file; accounts.avatars decides whether it is one (by its content)."""

    avatar = forms.FileField(
        label="Picture",
        help_text="PNG, JPEG, GIF or WebP, at most 2 MB. It is cropped to a square.",
        widget=forms.FileInput(attrs={"accept": "image/png,image/jpeg,image/gif,image/webp"}),
    )


class PlayerNameForm(forms.Form):
    """A userid typed to add to (or take off) a list; accounts.relations says whether it exists."""

    username = forms.CharField(
        label="Userid",
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )


class PlayerSearchForm(forms.Form):
    """Search user profiles: part of a userid and/or a country, both optional."""

    q = forms.CharField(label="Userid contains", max_length=20, required=False)
    country = forms.ChoiceField(label="Country", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "Any country"), *countries]  # type: ignore[attr-defined]
