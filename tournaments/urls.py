"""The competition's pages; each area adds its paths here."""

from __future__ import annotations

from django.urls import path

from tournaments import ladder_views

app_name = "tournaments"
urlpatterns: list = [
    path("ladders/", ladder_views.ladders, name="ladders"),
    *(
        path(f"ladders/<int:ladder_id>/{action}/", ladder_views.ladder_action, {"action": action},
             name=f"ladder_{action}")
        for action in ("join", "leave", "challenge")
    ),
]
