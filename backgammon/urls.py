"""The game app's pages (lobby and game page); included at the site root."""

from django.urls import path

from backgammon.views import lobby

app_name = "backgammon"

urlpatterns = [
    # The lobby.
    path("games/", lobby.status, name="status"),
    path("games/new/", lobby.new_game, name="new_game"),
    path("games/next/", lobby.next_game, name="next_game"),
    path("challenges/<int:challenge_id>/respond/", lobby.challenge_respond, name="challenge_respond"),
    # The game page (game, game_act, game_poll, game_mat) follows.
]
