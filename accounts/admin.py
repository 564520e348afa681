from django.contrib import admin

from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "checker_colours")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
