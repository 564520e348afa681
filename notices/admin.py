from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from notices.models import NewsItem, NoticePreferences, PushSubscription, SentNotice


@admin.register(NewsItem)
class NewsItemAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("title", "published_at", "is_published", "author",)
    list_filter = ("is_published",)
    search_fields = ("title", "body",)
    fields = ("title", "body", "published_at", "is_published",)

    def save_model(self, request: HttpRequest, obj: NewsItem, form: Any, change: bool) -> None:
        # The author is whoever posts it, never a choice in the form.
        if not change:
            obj.author = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


@admin.register(NoticePreferences)
class NoticePreferencesAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "delivery", "your_turn", "new_challenge", "new_message", "time_warning",
                    "game_finished",)
    list_filter = ("delivery",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(SentNotice)
class SentNoticeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("key", "user", "kind", "channel", "sent_at",)
    list_filter = ("kind", "channel",)
    search_fields = ("user__username", "key",)
    raw_id_fields = ("user",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Operators may look and remove; a device is added only by its browser (the keys are its)."""

    list_display = ("name", "user", "created_at", "last_used_at",)
    search_fields = ("user__username", "name",)
    raw_id_fields = ("user",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "name", "expires_at", "created_at", "last_used_at",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
