"""Operators see each player's profile on the player's own admin page, next to the account."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from accounts.models import Profile


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False  # every user has exactly one profile (made by a signal)
    extra = 0


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class PlayerAdmin(UserAdmin):
    inlines = (ProfileInline,)
    list_display = ("username", "email", "date_joined", "last_login", "is_active", "is_staff")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined")


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "checker_colours")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
