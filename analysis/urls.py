"""Analysis and replay, under each game's address, and the analysis board."""

from django.urls import path

from analysis import board_views, views

app_name = "analysis"

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.analysis_panel, name="panel"),
    path("games/<int:game_id>/analysis/start/", views.analysis_start, name="start"),
    path("games/<int:game_id>/replay/", views.replay, name="replay"),
    path("analysis/board/", board_views.analysis_board, name="board"),
    path("analysis/board/answer/", board_views.analysis_board_answer, name="board_answer"),
]
