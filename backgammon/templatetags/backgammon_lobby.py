"""The challenges to the viewer, with their Accept and Decline buttons, in a Django page (the main
screen): the same Jinja list as Game status's (backgammon/jinja2/backgammon/_challenges.html)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString

from backgammon.models import Challenge
from gamesite.jinja_env import render_jinja

register = template.Library()


@register.simple_tag(takes_context=True)
def challenges_to_me(context: Any, challenges: Iterable[Challenge]) -> SafeString:
    return render_jinja("backgammon/_challenges_to_me.html", {"challenges": challenges},
                        getattr(context, "request", None))
