"""The game region (backgammon/jinja2/backgammon/_game.html) for one viewer: the board, the turn's
controls, the players' panel and the moves list.

Two places show it: the game page's views (backgammon/views/game.py), which answer htmx with it,
and a pushed live update (backgammon/live.py), which carries it to the opponent's open page so
that the page has the move without asking. Both build it here, from the same page and context,
so a pushed region is the region the page would have fetched. A pushed one is rendered outside
any request: its forms carry no CSRF field, and htmx sends the page's token in a header instead
(``hx-headers`` on <body>), as it does for every form it posts.

The region is a Jinja2 template (gamesite/jinja_env.py says why); the whole game page is a
Django one (templates/backgammon/game.html) with the region rendered here put in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from accounts.vacations import vacations_end_key
from backgammon.competitions import competition_keys, competition_of
from backgammon.engine import Side
from backgammon.game_page import GamePage, build_page
from backgammon.models import Game
from backgammon.move_records import logged_actions, version_to_read
from backgammon.services.notes import note_key
from gamesite.jinja_env import NO_TOKEN, earlier_moves_key, render_jinja
from gamesite.kept import ask_together
from gamesite.kept_urls import kept_reverse
from gamesite.menu_counts import menu_counts_keys

__all__ = ["MAIN_TEMPLATE", "REGION_TEMPLATE", "kept_answers_for_viewer", "kept_answers_of_page", "link_maker", "page_for", "pushed_region", "region_context"]

REGION_TEMPLATE = "backgammon/_game.html"
MAIN_TEMPLATE = "backgammon/_game_main.html"


def link_maker(game: Game) -> Callable[[str, bool], str]:
    """The game page's URL for a turn being built: ``link(steps, swap)``."""
    base = kept_reverse("backgammon:game", game.pk)

    def link(steps: str, swap: bool) -> str:
        query = {key: value for key, value in (("steps", steps), ("swap", "1" if swap else "")) if value}
        return f"{base}?{urlencode(query)}" if query else base

    return link


def kept_answers_of_page(game: Game, user: Any) -> list[str]:
    """The kept answers (gamesite.kept) a game page shows ``user``: its log, a match's earlier
    games' moves lists, the clock's vacation of the player to act, the menu counts and the
    viewer's private note; asked of the cache in one trip (ask_together), by the view with the
    game's players, by page_for, and by a move's news with the rest it needs
    (backgammon/live.py)."""
    return kept_answers_for_viewer(game, user.pk if getattr(user, "is_authenticated", False) else None)


def kept_answers_for_viewer(game: Game, viewer_id: Any) -> list[str]:
    """``kept_answers_of_page`` for the signed-in user ``viewer_id`` (None: a visitor)."""
    keys = [version_to_read(game, from_game=game.game_number), *competition_keys([game])]
    if game.game_number > 1:  # a match's earlier games, their moves lists rendered
        keys.append(earlier_moves_key(game.pk, game.game_number, viewer_id in (game.black_id, game.white_id)))
    if game.actor_id is not None:
        keys.append(vacations_end_key(game.actor_id))
    if viewer_id is not None:
        keys += menu_counts_keys(viewer_id)
        if viewer_id in (game.black_id, game.white_id):
            keys.append(note_key(game.pk, viewer_id))
    return keys


def page_for(game: Game, user: Any, *, steps: str = "", swap: bool = False, confirm_double: bool = False,
             confirm_submit: bool = False) -> GamePage:
    """What the region shows ``user`` now, with the turn they are building (``steps``, ``swap``)."""
    ask_together(kept_answers_of_page(game, user))  # nothing when the view has asked already
    # Only the current game's rows: the earlier games' moves lists are kept rendered (_game.html),
    # so a page costs the same at action 10 as at action 1,000.
    logged = logged_actions(game, from_game=game.game_number)
    return build_page(game, logged, user=user, steps_text=steps, swap=swap, link=link_maker(game),
                      confirm_double=confirm_double, confirm_submit=confirm_submit, earlier_games=True)


def _with_query(url: str, **params: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{urlencode(params)}"


def region_context(page: GamePage, *, error: str = "", message: str = "", moves_text: str = "") -> dict[str, Any]:
    """The template context of the region (and of its main column alone, see MAIN_TEMPLATE)."""
    link = link_maker(page.game)
    context: dict[str, Any] = {
        "page": page,
        "game": page.game,
        "state": page.state,
        "phase": page.phase,
        "error": error,
        "message_text": message,
        "moves_text": moves_text,
        "swap_url": link("", not page.swap),
        "undo_url": None if page.undo_steps is None else link(page.undo_steps, page.swap),
        "reset_url": link("", page.swap),
        "self_url": link(page.steps_text, page.swap),
        "confirm_double_url": f"{link('', False)}?{urlencode({'confirm': 'double'})}",
        "confirm_submit_url": _with_query(link(page.steps_text, page.swap), confirm="submit"),
        # Every form of the turn posts here: one URL rather than one per form.
        "act_url": kept_reverse("backgammon:game_act", page.game.pk),
        # A ladder or tournament game says so in its rules line, with a link.
        "competition": competition_of(page.game),
    }
    if page.is_player:
        # The player's own privacy wish: never anyone else's (services.notes).
        side_field = "private_black" if page.viewer is Side.BLACK else "private_white"
        context["my_private_wish"] = getattr(page.game, side_field)
    return context


def pushed_region(game: Game, user: Any) -> str:
    """The region as ``user`` would fetch it now, for a live update (no request, no CSRF field)."""
    page = page_for(game, user)
    return render_jinja(REGION_TEMPLATE, {**region_context(page), "user": user, "csrf_token": NO_TOKEN})
