"""Operators see each player's profile on the player's own admin page, next to the account."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError

from accounts.forms import email_taken, lookalike_error
from accounts.membership import members_now
from accounts.models import Profile, Vacation
from accounts.signals import sync_userid_skeleton


class PlayerCreationForm(AdminUserCreationForm):
    """Operators cannot create a look-alike userid either (the database would refuse it)."""

    def clean_username(self) -> str:
        username: str = super().clean_username()
        error = lookalike_error(username)
        if error is not None:
            raise error
        return username


class PlayerChangeForm(UserChangeForm):
    def clean_email(self) -> str:
        """One account per e-mail address here too (the database would refuse it)."""
        email: str = self.cleaned_data.get("email", "")
        if email and email_taken(email, exclude_user_pk=self.instance.pk):
            raise ValidationError("Another account already uses this e-mail address (one per address).")
        return email

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        error = lookalike_error(username, exclude_user_pk=self.instance.pk)
        if error is not None:
            raise error
        return username


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False  # every user has exactly one profile (made by a signal)
    extra = 0
    # How a player likes boards drawn is theirs to choose ("Edit game boards"): saving a player
    # in admin must not reset it, so the inline leaves those fields out.
    exclude = ("board_theme", "home_board_left", "show_point_numbers", "show_pip_counts", "confirm_submit")


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class PlayerAdmin(UserAdmin):
    form = PlayerChangeForm
    add_form = PlayerCreationForm
    inlines = (ProfileInline,)
    list_display = ("username", "email", "date_joined", "last_login", "is_active", "is_staff")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined")

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # The profile inline saved the profile as loaded, with the key of the old userid.
        sync_userid_skeleton(form.instance)


class MemberNowFilter(admin.SimpleListFilter):
    title = "member now"
    parameter_name = "member"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Yes"), ("no", "No")]

    def queryset(self, request: Any, queryset: Any) -> Any:
        if self.value() == "yes":
            return queryset.filter(members_now("user__"))
        if self.value() == "no":
            return queryset.exclude(members_now("user__"))
        return queryset


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    # Who is a member until when; memberships change under Membership → Membership changes.
    list_display = ("user", "member_until", "country", "last_seen")
    list_filter = (MemberNowFilter,)
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    """Read-only for operators: bookings go through accounts.vacations, which moves deadlines."""

    list_display = ("user", "start", "days", "created_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False
