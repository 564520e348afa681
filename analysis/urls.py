"""Analysis and replay, under each game's address."""

from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.analysis_panel, name="panel"),
    path("games/<int:game_id>/analysis/start/", views.analysis_start, name="start"),
    path("games/<int:game_id>/replay/", views.replay, name="replay"),
]
