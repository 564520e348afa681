"""The app's views, one module per area: lobby.py (status, new game, challenges), game.py (the game page)."""
