from django.contrib import admin

from bots.models import Bot


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("user", "strength")
    list_select_related = ("user",)
