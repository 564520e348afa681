"""The board as each player's colour scheme draws it, and the cube in the Crawford game.

Checkers must stand out on both point colours (the red and the cream) in every scheme, and the
page must call them by the colours the viewer sees. Alice (Black) and Bob (White) play.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import CheckerColours
from backgammon.engine import PerSide
from tests.site.gamebuilder import position, scripted_dice, start_game, starting_from

pytestmark = pytest.mark.django_db

# WCAG's least contrast for graphical objects: a checker's edge must reach it against each point.
MIN_CONTRAST = 3.0


def _luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def page_of(client: Client, game: Any) -> str:
    return html.unescape(client.get(reverse("backgammon:game", args=[game.pk])).content.decode())


def money_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    scripted_dice(monkeypatch).then((6, 5))
    return start_game(alice, bob, variant="MP", match_length=0, stake=1)


@pytest.mark.parametrize("scheme", list(CheckerColours))
def test_every_scheme_draws_checkers_that_stand_out_on_both_point_colours(
    alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch, scheme: str
) -> None:
    alice.profile.checker_colours = scheme
    alice.profile.save()
    body = page_of(alice_client, money_game(alice, bob, monkeypatch))
    point_fills = set(re.findall(r'<polygon class="point[^"]*" points="[^"]*" fill="([^"]+)"', body))
    assert len(point_fills) == 2
    for symbol in ("ck-mine", "ck-theirs"):
        drawn = re.search(rf'<symbol id="{symbol}".*?</symbol>', body, re.DOTALL)
        assert drawn is not None
        edges = re.findall(r'stroke="(#[0-9a-fA-F]{3,6})"', drawn.group(0))
        for fill in point_fills:
            best = max(contrast(edge, fill) for edge in edges)
            assert best >= MIN_CONTRAST, (scheme, symbol, fill, edges)


@pytest.mark.parametrize(
    ("scheme", "alice_colour", "bob_colour"),
    [("black-white", "Black", "White"), ("red-blue", "Red", "Blue"), ("brown-cream", "Brown", "Cream")],
)
def test_the_page_names_the_colours_the_viewer_sees(
    alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch,
    scheme: str, alice_colour: str, bob_colour: str,
) -> None:
    alice.profile.checker_colours = scheme
    alice.profile.save()
    body = page_of(alice_client, money_game(alice, bob, monkeypatch))
    players = re.search(r'<dl class="players">(.*?)</dl>', body, re.DOTALL)
    assert players is not None
    assert re.findall(r"<dd>([^<]*)</dd>", players.group(1)) == [alice_colour, bob_colour]
    assert f"alice ({alice_colour}, you)" in body and f"bob ({bob_colour})" in body


def test_the_crawford_game_shows_no_usable_cube(
    alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    starting_from(monkeypatch, position=position({6: 15}, {13: 15}), score=PerSide(4, 0), crawford=True)
    scripted_dice(monkeypatch).then((3, 1))
    body = page_of(alice_client, start_game(alice, bob, variant="BP", match_length=5))
    board = re.search(r'<svg class="board".*?</svg>', body, re.DOTALL)
    assert board is not None
    assert 'class="cube' not in board.group(0) and ">64<" not in board.group(0)
    assert "out of play: this is the Crawford game" in body


def test_outside_the_crawford_game_the_cube_waits_in_the_middle(
    alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    body = page_of(alice_client, start_game(alice, bob, variant="BP", match_length=5))
    assert '<g class="cube cube-centre">' in body and ">64<" in body
