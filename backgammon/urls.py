"""The game app's pages (lobby and game page); included at the site root."""

from django.urls import path

from backgammon.views import clock, dice, extras, game, live, lobby, tutorial, waiting_room

app_name = "backgammon"

urlpatterns = [
    # The lobby.
    path("games/", lobby.status, name="status"),
    path("games/new/", lobby.new_game, name="new_game"),
    path("games/next/", lobby.next_game, name="next_game"),
    path("games/waiting-room/", waiting_room.waiting_room, name="waiting_room"),
    path("games/waiting-room/live/", waiting_room.waiting_room_live, name="waiting_room_live"),
    path("games/waiting-room/<int:challenge_id>/join/", waiting_room.waiting_room_join, name="waiting_room_join"),
    path(
        "games/waiting-room/<int:challenge_id>/withdraw/",
        waiting_room.waiting_room_withdraw,
        name="waiting_room_withdraw",
    ),
    path("games/auto-match/", waiting_room.auto_match, name="auto_match"),
    path("games/auto-match/cancel/", waiting_room.auto_match_cancel_view, name="auto_match_cancel"),
    path("challenges/<int:challenge_id>/respond/", lobby.challenge_respond, name="challenge_respond"),
    # The game page.
    path("games/<int:game_id>/", game.game, name="game"),
    path("games/<int:game_id>/act/", game.game_act, name="game_act"),
    path("games/<int:game_id>/poll/", game.game_poll, name="game_poll"),
    path("games/<int:game_id>/time/", clock.game_give_time_view, name="game_give_time"),
    path("games/<int:game_id>/match.mat", game.game_mat, name="game_mat"),
    path("games/<int:game_id>/note/", extras.game_note, name="game_note"),
    path("games/<int:game_id>/privacy/", extras.game_privacy, name="game_privacy"),
    path("games/<int:game_id>/rematch/", extras.game_rematch, name="game_rematch"),
    # Watching.
    path("games/watch/", extras.watch, name="watch"),
    # Dice statistics (SPY menu) and the tutorial (HELP menu): public pages.
    path("dice/", dice.dice_site, name="dice_statistics"),
    path("dice/<str:username>/", dice.dice_player, name="dice_player"),
    path("help/tutorial/", tutorial.tutorial_index, name="tutorial"),
    path("help/tutorial/<int:number>/", tutorial.tutorial_lesson, name="tutorial_lesson"),
    # Live updates: the event stream each open page listens to.
    path("live/", live.live_events, name="live_events"),
]
