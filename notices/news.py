"""The news players see: published items whose time has come, newest first."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from notices.models import NewsItem

__all__ = ["latest_news", "published_news"]


def published_news() -> QuerySet[NewsItem]:
    published = NewsItem.objects.filter(is_published=True, published_at__lte=timezone.now())
    return published.select_related("author").order_by(
        "-published_at", "-pk"
    )


def latest_news(count: int = 3) -> list[NewsItem]:
    return list(published_news()[:count])
