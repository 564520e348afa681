"""``reverse()`` kept per process for the URLs a page asks for over and over with the same
arguments: every player link, the game region's forms and links, and the ``{% url %}`` tags of
every Django template (gamesite/url_tag.py). A reverse costs tens of microseconds (the
resolver's patterns and the script prefix), and a game region asked for a dozen of them each
time it was drawn, twice per move."""

from __future__ import annotations

from functools import lru_cache

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, reverse

__all__ = ["kept_reverse"]


@lru_cache(maxsize=8192)
def _reversed(prefix: str, name: str, args: tuple[str | int, ...], current_app: str | None) -> str:
    return reverse(name, args=args or None, current_app=current_app)


def kept_reverse(name: str, *args: str | int, current_app: str | None = None) -> str:
    """``reverse(name, args=args, current_app=current_app)``, remembered for this script prefix
    (it is part of the URL)."""
    return _reversed(get_script_prefix(), name, args, current_app)


@receiver(setting_changed)
def _forget_on_new_urls(*, setting: str, **kwargs: object) -> None:
    if setting == "ROOT_URLCONF":  # as Django clears its own URL caches (tests that swap URLconfs)
        _reversed.cache_clear()
