"""game_apply_action, turn by turn: every branch of the flow, through the service only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from gamebuilder import (  # noqa: F401 (fast_passwords is an autouse fixture)
    ScriptedDice,
    act,
    fast_passwords,
    position,
    scripted_dice,
    start_game,
    starting_from,
)

from backgammon.engine import PerSide
from backgammon.engine.actions import Action
from backgammon.models import Game, GameAction
from backgammon.services import roll_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> ScriptedDice:
    return scripted_dice(monkeypatch)


def kinds(game: Game) -> list[tuple[str, int | None]]:
    return [(a.kind, a.side) for a in game.actions.order_by("number")]


def test_it_rolls_the_opening_at_once_and_rolls_ties_again(alice: Any, bob: Any, dice: ScriptedDice) -> None:
    dice.then((3, 3), (2, 2), (2, 5))
    with time_machine.travel(timezone.now(), tick=False):
        game = start_game(alice, bob, "BP")
        now = timezone.now()
    assert kinds(game) == [("roll", None)] * 3
    # White's die is higher: White moves first with both numbers, its own first.
    assert (game.phase, game.turn, game.dice, game.actor) == ("move", 1, "52", bob)
    assert game.action_count == 3
    assert game.deadline == now + timedelta(days=3)
    # Each roll of one request reads the next millisecond of the table, kept for audits.
    stamps = [a.created_at for a in game.actions.order_by("number")]
    assert stamps == [now, now + timedelta(milliseconds=1), now + timedelta(milliseconds=2)]
    assert dice.instants == stamps


def test_it_turns_the_cube_on_tied_openings_in_money_play_up_to_the_cap(
    alice: Any, bob: Any, dice: ScriptedDice
) -> None:
    dice.then((3, 3), (4, 4), (6, 6), (6, 1))
    game = start_game(alice, bob, "MP", automatic_doubles=2)
    assert game.cube_value == 4
    assert game.action_count == 4 and game.actor == alice


def test_it_rolls_for_a_player_who_cannot_double(alice: Any, bob: Any, dice: ScriptedDice) -> None:
    dice.then((3, 1), (6, 5))
    game = start_game(alice, bob, "BX")
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    # No cube in BX: Bob's roll is made for him at once.
    assert kinds(game)[-2:] == [("play", 0), ("roll", 1)]
    assert (game.phase, game.turn, game.dice, game.actor) == ("move", 1, "65", bob)


def test_it_lets_a_player_who_may_double_roll_and_the_server_picks_the_dice(
    alice: Any, bob: Any, dice: ScriptedDice
) -> None:
    dice.then((3, 1))
    game = start_game(alice, bob, "BP")
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    assert (game.phase, game.actor) == ("roll", bob)
    dice.then((4, 2))
    # The client's dice are placeholders: the server's roll is what counts.
    game = act(game, bob, Action.roll(6, 6))
    assert (game.phase, game.dice) == ("move", "42")
    assert game.actions.get(number=game.action_count).data == {"kind": "roll", "dice": [4, 2]}


def test_it_records_the_play_in_notation_with_its_message(alice: Any, bob: Any, dice: ScriptedDice) -> None:
    dice.then((3, 1))
    game = start_game(alice, bob, "BP")
    game = act(game, alice, Action.play([(6, 5), (8, 5)]), message="  good luck  ")
    logged = game.actions.get(number=game.action_count)
    assert (logged.kind, logged.side, logged.notation, logged.message) == ("play", 0, "8/5 6/5", "good luck")
    assert game.position_id == "sGfwATDgc/ABMA"  # seen from Bob, who is on turn


def _opening_then_bob_to_roll(alice: Any, bob: Any, dice: ScriptedDice, variant: str = "BP", **options: Any) -> Game:
    dice.then((3, 1))
    game = start_game(alice, bob, variant, **options)
    return act(game, alice, Action.play([(8, 5), (6, 5)]))


def test_a_double_taken_gives_the_cube_and_the_doubler_rolls_at_once(
    alice: Any, bob: Any, dice: ScriptedDice
) -> None:
    game = _opening_then_bob_to_roll(alice, bob, dice)
    game = act(game, bob, Action.double())
    assert (game.phase, game.actor, game.turn) == ("take_or_drop", alice, 1)
    dice.then((5, 4))
    game = act(game, alice, Action.take())
    assert (game.cube_value, game.cube_owner) == (2, 0)
    # Bob cannot redouble (Alice owns the cube), so his roll is automatic.
    assert (game.phase, game.actor, game.dice) == ("move", bob, "54")


def test_a_double_dropped_scores_and_the_next_game_starts_by_itself(
    alice: Any, bob: Any, dice: ScriptedDice
) -> None:
    game = _opening_then_bob_to_roll(alice, bob, dice)
    game = act(game, bob, Action.double())
    dice.then((6, 2))
    game = act(game, alice, Action.drop())
    assert (game.score_black, game.score_white, game.game_number) == (0, 1, 2)
    assert kinds(game)[-2:] == [("drop", 0), ("roll", None)]
    assert (game.phase, game.actor, game.dice, game.cube_value) == ("move", alice, "62", 1)
    assert game.status == "active"


def _beavered(alice: Any, bob: Any, dice: ScriptedDice) -> Game:
    """Bob doubled to 2 and Alice beavered: Bob must take at 4 or drop."""
    game = _opening_then_bob_to_roll(alice, bob, dice, "MP", beavers=True)
    game = act(game, bob, Action.double())
    game = act(game, alice, Action.beaver())
    # Alice holds the cube at 2 and offers 4 back, as gnubg records a beaver.
    assert (game.cube_value, game.cube_owner, game.phase, game.actor) == (2, 0, "take_or_drop", bob)
    return game


def test_a_beaver_taken_gives_the_beaverer_the_cube_at_four(alice: Any, bob: Any, dice: ScriptedDice) -> None:
    game = _beavered(alice, bob, dice)
    dice.then((5, 4))
    game = act(game, bob, Action.take())
    # Bob cannot redouble (Alice owns the cube), so his roll is automatic.
    assert (game.cube_value, game.cube_owner, game.phase, game.actor, game.dice) == (4, 0, "move", bob, "54")


def test_after_a_beaver_the_doubler_may_drop_and_loses_the_cube_before_it(
    alice: Any, bob: Any, dice: ScriptedDice
) -> None:
    game = _beavered(alice, bob, dice)
    game = act(game, bob, Action.drop())
    assert kinds(game)[-3:] == [("double", 1), ("beaver", 0), ("drop", 1)]
    assert (game.status, game.winner, game.score_black, game.score_white) == ("finished", alice, 2, 0)
    assert game.match_id == "QQwAACAAAAAE"  # gnubg's, after the same beaver and drop


def test_a_forced_pass_is_the_empty_play(alice: Any, bob: Any, dice: ScriptedDice, monkeypatch: Any) -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    starting_from(monkeypatch, position=position({25: 1, 6: 14}, closed))
    dice.then((6, 1))
    game = start_game(alice, bob, "BP")
    assert game.state().legal_plays()[0].moves == ()
    game = act(game, alice, Action.play([]))
    assert (game.phase, game.actor) == ("roll", bob)
    assert game.actions.get(number=game.action_count).notation == ""


def test_a_resignation_rejected_gives_the_turn_back(alice: Any, bob: Any, dice: ScriptedDice) -> None:
    dice.then((3, 1))
    game = start_game(alice, bob, "BP")
    game = act(game, alice, Action.resign(2))
    assert (game.phase, game.actor) == ("resign_offered", bob)
    game = act(game, bob, Action.reject_resign())
    assert (game.phase, game.actor, game.dice) == ("move", alice, "31")


def test_a_resignation_accepted_ends_a_money_game(alice: Any, bob: Any, dice: ScriptedDice) -> None:
    dice.then((3, 1))
    game = start_game(alice, bob, "MP")
    game = act(game, alice, Action.resign(2))
    game = act(game, bob, Action.accept_resign())
    assert (game.status, game.winner, game.actor, game.deadline) == ("finished", bob, None, None)
    assert game.result == "bob won: alice resigned (2 points)"


@pytest.mark.parametrize(
    ("theirs", "result"),
    [
        ({6: 14}, "alice won (1 point)"),
        ({6: 15}, "alice won a gammon (2 points)"),
        ({6: 14, 24: 1}, "alice won a backgammon (3 points)"),
    ],
)
def test_bearing_off_the_last_checker_scores_single_gammon_or_backgammon(
    alice: Any, bob: Any, dice: ScriptedDice, monkeypatch: Any, theirs: dict[int, int], result: str
) -> None:
    starting_from(monkeypatch, position=position({2: 1}, theirs))
    dice.then((6, 1))
    game = start_game(alice, bob, "MP")
    game = act(game, alice, Action.play([(2, 0)]))
    assert (game.status, game.winner, game.result, game.phase) == ("finished", alice, result, "match_over")


def test_the_next_game_of_a_match_starts_by_itself(
    alice: Any, bob: Any, dice: ScriptedDice, monkeypatch: Any
) -> None:
    starting_from(monkeypatch, position=position({2: 1}, {6: 15}))
    dice.then((6, 1), (1, 4))
    game = start_game(alice, bob, "BP")
    game = act(game, alice, Action.play([(2, 0)]))
    assert (game.score_black, game.score_white, game.game_number, game.crawford) == (2, 0, 2, False)
    assert kinds(game)[-2:] == [("play", 0), ("roll", None)]
    assert (game.status, game.phase, game.actor, game.dice) == ("active", "move", bob, "41")


def test_the_crawford_game_has_no_cube_so_every_roll_is_automatic(
    alice: Any, bob: Any, dice: ScriptedDice, monkeypatch: Any
) -> None:
    starting_from(monkeypatch, position=position({2: 1}, {6: 14}), score=PerSide(3, 0))
    dice.then((6, 1), (5, 2), (3, 1))
    game = start_game(alice, bob, "BP")
    game = act(game, alice, Action.play([(2, 0)]))
    assert (game.score_black, game.game_number, game.crawford) == (4, 2, True)
    game = act(game, alice, Action.play([(13, 8), (13, 11)]))
    assert (game.phase, game.actor, game.dice) == ("move", bob, "31")


def test_reaching_the_match_length_ends_the_match(
    alice: Any, bob: Any, dice: ScriptedDice, monkeypatch: Any
) -> None:
    starting_from(monkeypatch, position=position({2: 1}, {6: 15}), score=PerSide(4, 3))
    dice.then((6, 1))
    game = start_game(alice, bob, "BP")
    game = act(game, alice, Action.play([(2, 0)]))
    assert (game.status, game.winner, game.actor, game.deadline) == ("finished", alice, None, None)
    assert game.result == "alice won the match 6-3"


def test_anti_backgammon_is_a_draw_after_500_moves_each(
    alice: Any, bob: Any, dice: ScriptedDice, monkeypatch: Any
) -> None:
    starting_from(monkeypatch, moves_played=PerSide(499, 499))
    dice.then((3, 1), (3, 1))
    game = start_game(alice, bob, "BA")
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    game = act(game, bob, Action.play([(8, 5), (6, 5)]))
    assert (game.status, game.winner, game.phase) == ("finished", None, "match_over")
    assert "draw" in game.result


def test_the_snapshot_is_what_replaying_the_log_gives(alice: Any, bob: Any) -> None:
    import random

    rng = random.Random(7)
    game = start_game(alice, bob, "BP")
    for _ in range(40):
        if game.status != "active":
            break
        state = game.state()
        if state.phase.value == "move":
            play = rng.choice(state.legal_plays())
            action = Action.play([(m.origin, m.destination) for m in play.moves])
        elif state.phase.value == "take_or_drop":
            action = Action.take()
        elif state.can_double() and rng.random() < 0.2:
            action = Action.double()
        else:
            action = roll_request()
        game = act(game, game.actor, action)
    fresh = Game.objects.get(pk=game.pk)
    replayed = fresh.state()
    assert fresh.action_count == GameAction.objects.filter(game=fresh).count() > 40 // 2
    assert fresh.position_id == replayed.position_id()
    assert fresh.match_id == replayed.match_id()
    assert fresh.phase == replayed.phase.value and fresh.turn == int(replayed.turn)
    assert fresh.dice == "".join(map(str, replayed.dice or ()))
    assert (fresh.cube_value, fresh.score_black, fresh.score_white) == (
        replayed.cube_value, replayed.score.black, replayed.score.white,
    )
