"""The game app's pages (lobby and game page); included at the site root."""

app_name = "backgammon"

urlpatterns: list = []
