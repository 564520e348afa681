"""Games in every phase a player can meet, built through the services with scripted dice, for
the page-by-page browser checks (the live server runs in this process, so the patches reach it).

Each builder returns the game and the user whose eyes the page is seen through.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from backgammon.engine.actions import Action
from backgammon.engine.board import PerSide
from backgammon.models import Game
from tests.site.gamebuilder import act, position, scripted_dice, start_game, starting_from

PASSWORD = "correct-horse-battery"


@dataclass
class Cast:
    alice: Any
    bob: Any
    charlie: Any


def cast() -> Cast:
    """Alice, Bob and Charlie (made on first use, the same users after that)."""
    users = get_user_model().objects

    def user(name: str) -> Any:
        return users.filter(username=name).first() or users.create_user(name, f"{name}@example.com", PASSWORD)

    return Cast(user("alice"), user("bob"), user("charlie"))


def session_cookie(user: Any) -> tuple[str, str]:
    """(name, value) of a logged-in session cookie for a browser, without typing the password."""
    client = Client()
    client.force_login(user)
    return settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value


@dataclass
class Scene:
    game: Game
    viewer: Any
    query: str = ""

    @property
    def url(self) -> str:
        return f"/games/{self.game.pk}/{self.query}"


SceneBuilder = Callable[[Cast, pytest.MonkeyPatch], Scene]


def opening(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Alice won the opening roll 3-1 in plain backgammon and must move."""
    scripted_dice(mp).then((3, 1))
    return Scene(start_game(who.alice, who.bob, variant="BX", match_length=0), who.alice)


def mid_turn(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """One step of Alice's 3-1 made (8/5), the 1 still to play."""
    scene = opening(who, mp)
    scene.query = "?steps=8-5"
    return scene


def roll_or_double(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """A match to 5: Alice's turn to roll, and she may double."""
    dice = scripted_dice(mp).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BP", match_length=5)
    game = act(game, who.alice, Action.play(((8, 5), (6, 5))))
    dice.then((6, 4))
    game = act(game, who.bob, Action.roll(1, 1))
    game = act(game, who.bob, Action.play(((24, 18), (13, 9))))
    return Scene(game, who.alice)


def take_or_drop(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Alice has doubled; Bob must take or pass."""
    scene = roll_or_double(who, mp)
    game = act(scene.game, who.alice, Action.double())
    return Scene(game, who.bob)


def doubles(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Bob rolled 5-5 and has played two of his four fives."""
    dice = scripted_dice(mp).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    dice.then((5, 5))
    game = act(game, who.alice, Action.play(((8, 5), (6, 5))))
    return Scene(game, who.bob, "?steps=13-8,13-8")


def resign_offer(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Alice offers to resign a single game; Bob must accept or reject."""
    scene = opening(who, mp)
    game = act(scene.game, who.alice, Action.resign(1))
    return Scene(game, who.bob)


def forced_pass(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Alice has two checkers on the bar against Bob's closed board: she can only pass."""
    starting_from(mp, position=position({25: 2, 13: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}))
    scripted_dice(mp).then((6, 1))
    return Scene(start_game(who.alice, who.bob, variant="BX", match_length=0), who.alice)


def finished_game(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Alice bore off her last checker and won a single game."""
    starting_from(mp, position=position({1: 1}, {13: 15}))
    scripted_dice(mp).then((6, 1))
    game = start_game(who.alice, who.bob, variant="BX", match_length=0)
    game = act(game, who.alice, Action.play(((1, 0),)), message="Good game!")
    return Scene(game, who.bob)


def finished_match(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """4-0 in a match to 5; Alice wins the last game with a gammon and so the match."""
    starting_from(mp, position=position({1: 1}, {13: 15}), score=PerSide(4, 0), crawford=True)
    scripted_dice(mp).then((6, 1))
    game = start_game(who.alice, who.bob, variant="BP", match_length=5)
    game = act(game, who.alice, Action.play(((1, 0),)))
    return Scene(game, who.alice)


def race_waiting(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Backgammon Race: Alice has entered two checkers, Bob's fifteen still wait on the bar."""
    scripted_dice(mp).then((5, 2), (4, 3))
    game = start_game(who.alice, who.bob, variant="BR", match_length=0)
    game = act(game, who.alice, Action.play(((25, 20), (25, 23))))
    return Scene(game, who.bob)


def spectator(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """Charlie watches Alice and Bob's match mid-turn."""
    scene = roll_or_double(who, mp)
    return Scene(scene.game, who.charlie)


def money_game(who: Cast, mp: pytest.MonkeyPatch) -> Scene:
    """A money game for a stake, Jacoby and beavers: Alice to move after the opening roll."""
    scripted_dice(mp).then((6, 5))
    game = start_game(who.alice, who.bob, variant="MP", match_length=0, stake=5, jacoby=True, beavers=True)
    return Scene(game, who.alice)


SCENES: dict[str, SceneBuilder] = {
    "opening": opening,
    "mid-turn": mid_turn,
    "roll-or-double": roll_or_double,
    "take-or-drop": take_or_drop,
    "doubles": doubles,
    "resign-offer": resign_offer,
    "forced-pass": forced_pass,
    "finished-game": finished_game,
    "finished-match": finished_match,
    "race-waiting": race_waiting,
    "spectator": spectator,
    "money-game": money_game,
}
