"""The site's own page for a game nobody may show this user (views.access.NoGameToShow): a 404
that says the game does not exist or is private, in development too, where Django would show
its technical page for any other 404."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from backgammon.views.access import NoGameToShow

__all__ = ["NoGameToShowPage"]


class NoGameToShowPage:
    """Middleware: the view's NoGameToShow becomes the page saying so, status 404."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, NoGameToShow):
            return None
        return render(request, "backgammon/no_game.html", {"game_id": exception.game_id}, status=404)
