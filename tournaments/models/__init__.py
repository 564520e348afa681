"""The competition's models, one module per area (ratings, ladders, tournaments), imported here
so that Django finds them."""
from tournaments.models.ladders import Ladder, LadderMatch, LadderRung  # noqa: F401
from tournaments.models.ratings import Rating, RatingChange  # noqa: F401
from tournaments.models.replacements import Replacement  # noqa: F401
from tournaments.models.tournament import Entry, Tournament, TournamentMatch  # noqa: F401
