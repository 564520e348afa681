"""The home page and the help pages: static text with the site layout."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from backgammon.engine.variants import VARIANTS
from notices.main_screen import main_screen


def home(request: HttpRequest) -> HttpResponse:
    """Visitors get a welcome; players get the main screen: what to do now."""
    if request.user.is_authenticated:
        return render(request, "notices/main_screen.html", {"screen": main_screen(request.user)})
    return render(request, "home.html")


def help_rules(request: HttpRequest) -> HttpResponse:
    """The rules of every variant we offer."""
    return render(request, "help/rules.html", {"variants": VARIANTS})


def help_features(request: HttpRequest) -> HttpResponse:
    """How to use the game page: click-to-move, typed moves, Next game and so on."""
    return render(request, "help/features.html")


def help_dice(request: HttpRequest) -> HttpResponse:
    """How the dice are rolled and why they are fair."""
    return render(request, "help/dice.html")
