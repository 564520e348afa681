"""What the game region shows beyond the game's own row, read in one step at the start of a request.

A game page's request goes one way: the view reads the game (its players and every kept answer
the page will show come in the same trip to the cache, ``keys_of_page``), ``gather`` reads the
rest here (the log, the clock's words, the players' links, a match's earlier moves lists, the
time given, a finished game's panels and, for a whole page, the player's note and the menu
counts), ``game_page.build_page`` works the page out from that without reading anything, and the
view renders once. Nothing under the templates reads: they get these values, not functions that
fetch them.

Other apps add to a finished game's page without backgammon importing them: the analysis panel
and the rating changes register a reader (``register_finished_game_reader``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.utils.safestring import SafeString, mark_safe

from accounts.computer_players import is_computer_player
from accounts.relations import either_ignores
from accounts.templatetags.players import player_link
from accounts.vacations import vacations_end_key
from backgammon.clock_words import time_left_words
from backgammon.competitions import Competition, competition_keys, competition_of
from backgammon.engine import PerSide
from backgammon.listening import listening_key, opponent_here
from backgammon.models import Game, TimeGift
from backgammon.move_records import (
    LoggedAction,
    earlier_game_records,
    logged_actions,
    version_to_read,
)
from backgammon.moves_markup import moves_record_markup
from backgammon.services.notes import game_note_text, note_key
from backgammon.services.rematch import RematchState, rematch_state
from gamesite.kept import ask_together, kept
from gamesite.menu_counts import menu_counts_context, menu_counts_keys

__all__ = [
    "EARLIER_MOVES_SECONDS",
    "GameReads",
    "earlier_moves_key",
    "gather",
    "keys_of_page",
    "register_finished_game_reader",
]

# As long as the {% cache %} fragment it replaced kept them: an earlier game never changes.
EARLIER_MOVES_SECONDS = 604800

FinishedGameReader = Callable[[Game], Any]
_finished_game_readers: dict[str, FinishedGameReader] = {}


def register_finished_game_reader(name: str, reader: FinishedGameReader) -> None:
    """``reader(game)`` reads what a finished game's page shows under ``name`` (the region's
    template knows each name: "analysis", "rating_changes")."""
    _finished_game_readers[name] = reader


@dataclass(frozen=True, slots=True)
class GameReads:
    """Everything the region shows that is not in the game's row, for one viewer."""

    logged: list[LoggedAction]  # the current game's log (the earlier games': earlier_moves)
    messages_shown: bool  # whether the viewer reads the messages sent with the actions
    player_links: PerSide[str]  # each player's name as a link, marked when a computer player
    competition: Competition | None
    time_left: str  # the clock of the player to act, in words ("" when none runs)
    earlier_moves: SafeString  # a match's earlier games' moves lists, drawn ("" in its first game)
    time_gifts: list[TimeGift]
    finished: dict[str, Any] = field(default_factory=dict)  # register_finished_game_reader's
    # A whole page's alone (an htmx answer or a pushed region has neither): the player's private
    # note, and the header's two counts (the context processors' names, so theirs go unread).
    note_text: str | None = None
    menu_counts: dict[str, int] | None = None
    # A live game in play, for its players: whether the opponent has its page open now.
    opponent_here: bool | None = None
    rematch: RematchState | None = None  # a finished live match's, for its players


def earlier_moves_key(game_id: int, game_number: int, for_a_player: bool) -> str:
    """Where the earlier games' moves lists of a match are kept, for its players or for watchers."""
    # (The markup and whether a message came with those games: a key of its own since it holds both.)
    return make_template_fragment_key("earlier_moves_and_messages", [game_id, game_number, for_a_player])


def keys_of_page(game: Game, viewer_id: Any) -> list[str]:
    """The kept answers (gamesite.kept) a game page shows the signed-in user ``viewer_id`` (None:
    a visitor): its log, its competition, a match's earlier games' moves lists, the clock's
    vacation of the player to act, the menu counts and the viewer's private note. The view asks
    for them in the trip that brings the game's players (views/access.py), a move's news in the
    trip that asks who is listening (backgammon/live.py)."""
    keys = [version_to_read(game, from_game=game.game_number), *competition_keys([game])]
    if game.game_number > 1:
        keys.append(earlier_moves_key(game.pk, game.game_number, viewer_id in (game.black_id, game.white_id)))
    if game.actor_id is not None:
        keys.append(vacations_end_key(game.actor_id))
    if viewer_id is not None:
        keys += menu_counts_keys(viewer_id)
        if viewer_id in (game.black_id, game.white_id):
            keys.append(note_key(game.pk, viewer_id))
            if game.is_live and game.is_active:
                keys.append(listening_key(game.white_id if viewer_id == game.black_id else game.black_id, game.pk))
    return keys


def gather(game: Game, user: Any, *, whole_page: bool = False) -> GameReads:
    """What ``user``'s game region shows of ``game`` (its players read, the actor known:
    views/access.py), and with ``whole_page`` what the page around it shows too."""
    viewer_id = user.pk if getattr(user, "is_authenticated", False) else None
    ask_together(keys_of_page(game, viewer_id))  # nothing when the view has asked already
    is_player = viewer_id is not None and viewer_id in (game.black_id, game.white_id)
    finished = ({name: read(game) for name, read in _finished_game_readers.items()}
                if game.status == Game.Status.FINISHED else {})
    # Only the current game's rows: the earlier games' moves lists are kept drawn, so a page
    # costs the same at action 10 as at action 1,000.
    logged = logged_actions(game, from_game=game.game_number)
    earlier, earlier_messages = _earlier_moves(game, is_player) if game.game_number > 1 else (SafeString(""), False)
    # Only the players read the messages, and neither once one ignores the other (those from
    # before the ignore too); the ignore list is asked only when there is a message to hide.
    messages_shown = is_player and (
        not (earlier_messages or any(item.message for item in logged)) or not either_ignores(game.black_id, game.white_id))
    if is_player and not messages_shown and game.game_number > 1:
        earlier, _ = _earlier_moves(game, False)  # as watchers see them
    return GameReads(
        logged=logged,
        messages_shown=messages_shown,
        player_links=PerSide(player_link(game.black), player_link(game.white)),
        competition=competition_of(game),
        time_left=time_left_words(game, suffix=" left") if game.is_active else "",
        earlier_moves=earlier,
        time_gifts=_time_gifts(game) if game.time_gift_count else [],
        finished=finished,
        note_text=game_note_text(game=game, author=user) if whole_page and is_player else None,
        menu_counts=menu_counts_context(user) if whole_page and viewer_id is not None else None,
        opponent_here=_opponent_here(game, viewer_id) if is_player and game.is_live and game.is_active else None,
        rematch=rematch_state(game, user) if is_player and game.is_live and not game.is_active else None,
    )


def _opponent_here(game: Game, viewer_id: int) -> bool:
    """A computer opponent is always here (it answers within the delay and opens no page)."""
    opponent = game.white if viewer_id == game.black_id else game.black
    return is_computer_player(opponent) or opponent_here(game, viewer_id)


def _time_gifts(game: Game) -> list[TimeGift]:
    """The time given in the game, its giver and receiver the game's players already read."""
    players = {game.black_id: game.black, game.white_id: game.white}
    gifts = list(game.time_gifts.all())
    for gift in gifts:
        gift.giver, gift.receiver = players[gift.giver_id], players[gift.receiver_id]
    return gifts


def _earlier_moves(game: Game, for_a_player: bool) -> tuple[SafeString, bool]:
    """The earlier games' moves lists of a match (with their messages for its players), drawn
    once per game number and kept, and whether any of those games' actions came with a message."""
    key = earlier_moves_key(game.pk, game.game_number, for_a_player)

    def draw() -> tuple[str, bool]:
        names = PerSide(game.black.get_username(), game.white.get_username())
        counts_gammons = game.state().rules.variant.counts_gammons
        records, messages = earlier_game_records(game, names, counts_gammons=counts_gammons,
                                                 with_messages=for_a_player)
        markup = "".join(moves_record_markup(record, black=names.black, white=names.white, numbered=True)
                         for record in records)
        return markup, messages

    if settings.KEPT_ANSWERS:
        drawn = kept(key, draw, EARLIER_MOVES_SECONDS)
    else:  # the database's cache table: a query still spares reading and drawing the games
        drawn = cache.get(key)
        if drawn is None:
            drawn = draw()
            cache.set(key, drawn, EARLIER_MOVES_SECONDS)
    markup, messages = drawn
    return mark_safe(markup), messages  # built from escaped markup (moves_markup.py)
