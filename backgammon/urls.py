"""The game app's pages (lobby and game page); included at the site root."""

from django.urls import path

from backgammon.views import clock, game, live, lobby

app_name = "backgammon"

urlpatterns = [
    # The lobby.
    path("games/", lobby.status, name="status"),
    path("games/new/", lobby.new_game, name="new_game"),
    path("games/next/", lobby.next_game, name="next_game"),
    path("games/waiting-count/", lobby.play_count, name="play_count"),
    path("challenges/<int:challenge_id>/respond/", lobby.challenge_respond, name="challenge_respond"),
    # The game page.
    path("games/<int:game_id>/", game.game, name="game"),
    path("games/<int:game_id>/act/", game.game_act, name="game_act"),
    path("games/<int:game_id>/poll/", game.game_poll, name="game_poll"),
    path("games/<int:game_id>/time/", clock.game_give_time_view, name="game_give_time"),
    path("games/<int:game_id>/match.mat", game.game_mat, name="game_mat"),
    # Live updates: the event stream each open page listens to.
    path("live/", live.live_events, name="live_events"),
]
