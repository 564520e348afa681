"""A turn with nothing to choose (a forced move, a dance) is played by the site, in the games the
player chose (accounts.models.AutoPlay: by default live games only), through the one locked path."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from gamebuilder import act, fast_passwords, position, scripted_dice, start_game, starting_from  # noqa: F401

from accounts.models import Profile
from backgammon.engine import Action, TimeControl
from backgammon.models import Game

pytestmark = pytest.mark.django_db

RAPID = TimeControl.live(12, 300)
CLOSED = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}  # White's closed board, from White's side
DANCING = position({25: 1, 6: 14}, CLOSED)  # alice's checker on the bar cannot enter
FORCED = position({24: 1, 1: 14}, {6: 15})  # 6-1: only 24/17


def _game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, start: Any, *, live: bool) -> Game:
    starting_from(monkeypatch, position=start)
    scripted_dice(monkeypatch).then((6, 1))  # alice opens with 6-1
    clock = {"time_control": RAPID} if live else {}
    return start_game(alice, bob, "BP", match_length=5, time_limit=timedelta(days=3), **clock)


def _last(game: Game) -> tuple[str, int | None, str]:
    row = game.actions.order_by("-number").first()
    return row.kind, row.side, row.notation


def _choose(user: Any, forced_move: str, dance: str) -> None:
    Profile.objects.filter(user=user).update(auto_forced_move=forced_move, auto_pass_dance=dance)


def test_in_a_live_game_a_dance_is_passed_at_once(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(alice, bob, monkeypatch, DANCING, live=True)
    assert (game.phase, game.actor) == ("roll", bob)  # bob may double: his roll waits for him
    assert _last(game) == ("play", 0, "")
    clock = game.match_clock()
    assert clock is not None and clock.running.name == "WHITE"


def test_in_a_live_game_a_forced_move_is_played_at_once(alice: Any, bob: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(alice, bob, monkeypatch, FORCED, live=True)
    assert (game.phase, game.actor) == ("roll", bob)
    assert _last(game) == ("play", 0, "24/17")


def test_by_correspondence_the_player_still_submits_by_default(alice: Any, bob: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(alice, bob, monkeypatch, DANCING, live=False)
    assert (game.phase, game.actor) == ("move", alice)
    game = act(game, alice, Action.play([]))
    assert (game.phase, game.actor) == ("roll", bob)


def test_always_plays_it_by_correspondence_too(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _choose(alice, "always", "never")
    game = _game(alice, bob, monkeypatch, FORCED, live=False)
    assert _last(game) == ("play", 0, "24/17")


def test_never_leaves_it_to_the_player_in_a_live_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _choose(alice, "live", "never")
    game = _game(alice, bob, monkeypatch, DANCING, live=True)
    assert (game.phase, game.actor) == ("move", alice)


def test_a_choice_is_made_on_edit_game_boards_and_bad_input_changes_nothing(alice: Any, alice_client: Any) -> None:
    fields = {"board_theme": "classic", "checker_colours": "black-white", "show_point_numbers": "on",
              "show_pip_counts": "on"}
    page = alice_client.get("/accounts/boards/")
    assert "Play a forced move by itself" in page.content.decode()
    bad = alice_client.post("/accounts/boards/", {**fields, "auto_forced_move": "sometimes", "auto_pass_dance": "live"})
    assert bad.status_code == 400
    assert Profile.objects.get(user=alice).auto_forced_move == "live"
    saved = alice_client.post("/accounts/boards/", {**fields, "auto_forced_move": "always", "auto_pass_dance": "never"})
    assert saved.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.auto_forced_move, profile.auto_pass_dance) == ("always", "never")
