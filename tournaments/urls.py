"""The competition's pages; each area adds its paths here."""

from __future__ import annotations

from django.urls import path

from tournaments import ladder_views, rating_views, tournament_views

app_name = "tournaments"
urlpatterns: list = [
    path("help/ratings/", rating_views.help_ratings, name="help_ratings"),
    path("accounts/ratings/", rating_views.edit_ratings, name="edit_ratings"),
    path("ladders/", ladder_views.ladders, name="ladders"),
    *(
        path(f"ladders/<int:ladder_id>/{action}/", ladder_views.ladder_action, {"action": action},
             name=f"ladder_{action}")
        for action in ("join", "leave", "challenge")
    ),
    path("tournaments/", tournament_views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", tournament_views.tournament, name="tournament"),
    path("tournaments/<int:tournament_id>/replace/", tournament_views.tournament_replace,
         name="tournament_replace"),
    *(
        path(f"tournaments/<int:tournament_id>/{action}/", tournament_views.tournament_action,
             {"action": action}, name=f"tournament_{action}")
        for action in ("join", "leave")
    ),
]
