"""The Jinja2 environment of the templates in the apps' ``jinja2/`` folders (settings.TEMPLATES).

Only the game region and Game status's lists are written for Jinja2 (backgammon/jinja2/backgammon/):
the region is rendered for nearly every request a player's open page makes and twice per move
(the mover's answer and the opponent's pushed update), and Django's template engine was about two
thirds of its cost; the lists are the page players open as each game ends, and what every open
status page asks for again when the server says they changed. Where a Django template says the
same thing (a player's name as a link, a CSRF field), the helper here is the function its tag or
filter calls, so both engines write the same markup; everything else stays in Django templates.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import engines
from django.template.defaultfilters import linebreaksbr, pluralize
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince
from jinja2 import Environment, StrictUndefined, pass_context

from accounts.templatetags.players import player_link
from backgammon.board_markup import board_svg_markup
from backgammon.clock_words import time_left_words
from backgammon.game_rows import opponent_name, score_for
from backgammon.moves_markup import moves_record_markup
from gamesite.json_markup import json_script
from gamesite.kept_urls import kept_reverse

__all__ = ["NO_TOKEN", "environment", "render_jinja"]

# What Django's {% csrf_token %} writes nothing for: a region rendered with no request
# (backgammon/game_region.pushed_region).
NO_TOKEN = "NOTPROVIDED"


@pass_context
def csrf_field(context: Any) -> SafeString:
    """The form's CSRF field, as ``{% csrf_token %}`` writes it (nothing without a token)."""
    # A plain string from here on: every look through the lazy token's proxy (format_html checks
    # each argument for laziness) cost more than the field's markup, form after form.
    token = str(context.get("csrf_token") or "")
    if not token or token == NO_TOKEN:
        return mark_safe("")
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


@pass_context
def analysis_panel(context: Any, panel: dict[str, Any]) -> SafeString:
    """The analysis box of a finished game, from what was read for it (analysis.views.panel_context,
    which backgammon.game_reads.gather asks): a Django template, as the analysis views answer it."""
    return render_to_string("analysis/_panel.html", {**panel, "csrf_token": context.get("csrf_token")})


def sent_words(moment: Any) -> str:
    """"just now", or how long ago ("3\xa0hours, 5\xa0minutes ago"), as Django's timesince says it."""
    ago = timesince(moment)
    return "just now" if ago.startswith("0") else f"{ago} ago"


def local_iso(moment: Any) -> str:
    """The moment in the site's time zone, ISO 8601 (Django's ``|date:'c'``): a <time> datetime."""
    return timezone.localtime(moment).isoformat()


def render_jinja(template: str, context: dict[str, Any], request: HttpRequest | None = None) -> SafeString:
    """A template of the apps' ``jinja2/`` folders; with the request, its forms carry the
    request's CSRF token (``csrf_field()``)."""
    if request is not None:
        # The token is read once for all the template's forms, and only if one has a form (a
        # read asks for the CSRF cookie to be sent again). Django's Jinja2 backend, given the
        # request, would put a lazy token in the context that masks the secret afresh each time
        # a form reads it (32 random characters from os.urandom each): two reads per form, half
        # of the mover's game region's rendering time.
        context = {**context, "request": request, "csrf_token": SimpleLazyObject(partial(get_token, request))}
    return SafeString(engines["jinja2"].get_template(template).render(context))


def environment(**options: Any) -> Environment:
    # A name the template does not get is a mistake to hear of, not a blank to print.
    env = Environment(**{**options, "undefined": StrictUndefined})
    env.globals.update({
        "url": kept_reverse,
        "static": static,
        "csrf_field": csrf_field,
        "time_left": time_left_words,
        "analysis_panel": analysis_panel,
        "json_script": json_script,
        "moves_record": moves_record_markup,
        "opponent_name": opponent_name,
        "score_for": score_for,
        "sent_words": sent_words,
    })
    env.filters.update({
        "player_link": player_link,
        "board_svg": board_svg_markup,
        "pluralize": pluralize,
        "linebreaksbr": partial(linebreaksbr, autoescape=True),
        "local_iso": local_iso,
    })
    return env
