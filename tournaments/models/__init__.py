"""The competition's models, one module per area (ratings, ladders, tournaments), imported here
so that Django finds them."""
from .tournament import Entry, Tournament, TournamentMatch  # noqa: F401
