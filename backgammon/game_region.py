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

from django.utils import timezone

from backgammon.board_markup import dice_markup
from backgammon.board_svg import laid_out_dice
from backgammon.clock_words import time_left_words
from backgammon.engine import PerSide, Side
from backgammon.engine.match import Phase
from backgammon.game_page import GamePage, board_style_for, build_page, shown_dice, waiting_prompt
from backgammon.game_reads import gather
from backgammon.match_clock_view import live_clocks
from backgammon.models import Game
from gamesite.jinja_env import NO_TOKEN, render_jinja
from gamesite.kept_urls import kept_reverse

__all__ = ["MAIN_TEMPLATE", "REGION_TEMPLATE", "ROLLED_TEMPLATE", "link_maker", "page_for", "pushed_region",
           "pushed_roll", "region_context"]

REGION_TEMPLATE = "backgammon/_game.html"
MAIN_TEMPLATE = "backgammon/_game_main.html"
ROLLED_TEMPLATE = "backgammon/_rolled.html"


def link_maker(game: Game) -> Callable[[str, bool], str]:
    """The game page's URL for a turn being built: ``link(steps, swap)``."""
    base = kept_reverse("backgammon:game", game.pk)

    def link(steps: str, swap: bool) -> str:
        query = {key: value for key, value in (("steps", steps), ("swap", "1" if swap else "")) if value}
        return f"{base}?{urlencode(query)}" if query else base

    return link


def page_for(game: Game, user: Any, *, steps: str = "", swap: bool = False, confirm_double: bool = False,
             confirm_submit: bool = False, whole_page: bool = False) -> GamePage:
    """What the region shows ``user`` now, with the turn they are building (``steps``, ``swap``):
    read in one step (game_reads.gather, and with ``whole_page`` what the page around the region
    shows too), then worked out (game_page.build_page)."""
    reads = gather(game, user, whole_page=whole_page)
    return build_page(game, reads, user=user, steps_text=steps, swap=swap, link=link_maker(game),
                      confirm_double=confirm_double, confirm_submit=confirm_submit)


def _with_query(url: str, **params: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{urlencode(params)}"


def region_context(page: GamePage, *, error: str = "", message: str = "", moves_text: str = "") -> dict[str, Any]:
    """The template context of the region (and of its main column alone, see MAIN_TEMPLATE): the
    page, what was read for it and every URL it links to, so the templates look nothing up."""
    link, game_id = link_maker(page.game), page.game.pk
    context: dict[str, Any] = {
        "page": page,
        "reads": page.reads,
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
        "act_url": kept_reverse("backgammon:game_act", game_id),
        "poll_url": kept_reverse("backgammon:game_poll", game_id),
        "mat_url": kept_reverse("backgammon:game_mat", game_id),
        "give_time_url": kept_reverse("backgammon:game_give_time", game_id),
        "privacy_url": kept_reverse("backgammon:game_privacy", game_id),
        "rematch_url": kept_reverse("backgammon:game_rematch", game_id),
        "next_game_url": kept_reverse("backgammon:next_game"),
        "status_url": kept_reverse("backgammon:status"),
        # A live game's clocks as the server reads them now: each region sets the page's afresh.
        "clocks": live_clocks(page.game, page.names, timezone.now()),
        "opponent_presence": None if page.reads.opponent_here is None or page.viewer is None else {
            "name": page.names[page.viewer.other], "here": page.reads.opponent_here},
    }
    if page.is_player:
        # The player's own privacy wish: never anyone else's (services.notes).
        side_field = "private_black" if page.viewer is Side.BLACK else "private_white"
        context["my_private_wish"] = getattr(page.game, side_field)
    return context


def pushed_roll(game: Game, user: Any) -> dict[str, Any] | None:
    """What changes on ``user``'s page of a game when their opponent has just rolled and nothing
    else happened (the caller knows), for a live update smaller than the region: the roller's
    dice on the board, the prompt, the match ID, and the clock: a live game's clocks' reading
    (``clock``), or a correspondence game's time left (``time_left``: the roll started the move's
    time limit afresh). Everything else in the region is as it was: the moves list shows a roll
    with its play, and the page's forms while it waits carry no action number. None when
    ``user`` is not the player waiting for a move: their page then gets the region
    (``pushed_region``).

    The parts come from what draws them in the region (game_page.shown_dice and waiting_prompt,
    board_svg.laid_out_dice, board_markup.dice_markup, match_clock_view.live_clocks,
    clock_words.time_left_words), and tests/site/test_live_push.py checks that the page before
    the roll with them put in is the region fetched after it."""
    state, side = game.state(), game.side_of(user)
    if side is None or not game.is_active or state.phase is not Phase.MOVE or state.turn is side:
        return None
    names = PerSide(game.black.get_username(), game.white.get_username())
    # The roll in play is the opponent's: it is what their dice show, whatever was played before.
    mine, theirs = shown_dice(state, side)
    dice = laid_out_dice(mine, theirs, home_left=board_style_for(user).home_left)
    clocks = live_clocks(game, names, timezone.now())
    return {
        "dice": {owner: dice_markup(dice, owner) for owner in ("mine", "theirs")},
        "prompt": waiting_prompt(state, names),
        "clock": None if clocks is None else clocks.data,
        "time_left": "" if game.is_live else time_left_words(game, suffix=" left"),
        "match_id": game.match_id,
    }


def pushed_region(game: Game, user: Any) -> str:
    """The region as ``user`` would fetch it now, for a live update (no request, no CSRF field)."""
    page = page_for(game, user)
    return render_jinja(REGION_TEMPLATE, {**region_context(page), "user": user, "csrf_token": NO_TOKEN})
