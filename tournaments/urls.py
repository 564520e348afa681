"""The competition's pages; each area adds its paths here."""

from __future__ import annotations

from django.urls import path  # noqa: F401  (each area adds its paths)

app_name = "tournaments"
urlpatterns: list = []
