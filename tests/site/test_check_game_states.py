"""manage.py check_game_states: replay every active game, report snapshots that differ, repair them.

Alice and Bob play two games through the service; then their rows are damaged by hand, as a bug
or a manual edit would, and the command must notice, leave things alone without --repair, and put
them right with it.
"""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from backgammon.engine.actions import Action
from backgammon.engine.match import replay
from backgammon.engine.match_json import state_to_dict
from backgammon.models import Game, GameAction
from backgammon.move_records import logged_actions
from backgammon.services import game_abort
from tests.site.gamebuilder import act, scripted_dice, start_game
from tests.site.test_game_state_snapshot import logged, play_randomly, seeded_dice  # noqa: F401

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command("check_game_states", *args, stdout=out)
    return out.getvalue()


def run_failing(*args: str) -> tuple[str, str]:
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("check_game_states", *args, stdout=out)
    return out.getvalue(), str(failed.value)


@pytest.fixture
def games(alice: Any, bob: Any) -> list[Game]:
    rng = random.Random(11)
    return [play_randomly(start_game(alice, bob, code), rng, 40) for code in ("BP", "BR")]


def snapshot(game: Game) -> tuple[Any, ...]:
    fresh = Game.objects.get(pk=game.pk)
    rows = list(fresh.actions.order_by("number").values_list("game_number", "dice", "position_id", "game_result"))
    return fresh.state_data, fresh.position_id, fresh.phase, fresh.dice, fresh.updated_at, rows


def test_it_finds_nothing_wrong_with_games_the_service_wrote(games: list[Game]) -> None:
    assert run() == "2 game(s) checked: 0 mismatched, 0 repaired\n"


def test_it_reports_a_wrong_snapshot_and_changes_nothing_without_repair(games: list[Game]) -> None:
    bp, br = games
    earlier = replay(bp.rules(), logged(bp)[: bp.action_count - 3])
    Game.objects.filter(pk=bp.pk).update(state_data=state_to_dict(earlier), position_id="4HPwATDgc/ABMA")
    GameAction.objects.filter(game=br, number=5).update(dice="66")
    before = [snapshot(bp), snapshot(br)]

    out, error = run_failing()

    assert f"game #{bp.pk}: the snapshot differs from the replay in state_data, position_id" in out
    assert f"game #{br.pk}: the facts kept on action(s) 5 differ from the replay" in out
    assert "2 game(s) checked: 2 mismatched, 0 repaired" in out
    assert error == "2 game(s) do not match their logs; run with --repair to rewrite them from the logs"
    assert [snapshot(bp), snapshot(br)] == before


def test_it_repairs_from_the_replay_with_repair(games: list[Game]) -> None:
    bp, br = games
    good = [snapshot(bp)[:4], snapshot(br)[5]]
    Game.objects.filter(pk=bp.pk).update(state_data={}, position_id="", phase="roll", dice="")
    GameAction.objects.filter(game=br).update(game_number=7, position_id="", game_result=None)
    assert {row.game_number for row in logged_actions(br)} == {7}  # the broken log, now kept

    out = run("--repair")

    assert f"game #{bp.pk}: repaired" in out and f"game #{br.pk}: repaired" in out
    assert "2 game(s) checked: 2 mismatched, 2 repaired" in out
    assert [snapshot(bp)[:4], snapshot(br)[5]] == good
    assert Game.objects.get(pk=bp.pk).state() == replay(bp.rules(), logged(bp))
    assert run() == "2 game(s) checked: 0 mismatched, 0 repaired\n"
    assert {row.game_number for row in logged_actions(Game.objects.get(pk=br.pk))} == {1}  # the repair forgot the kept log


def test_it_reports_a_log_that_does_not_replay_and_cannot_repair_it(games: list[Game]) -> None:
    bp, _ = games
    GameAction.objects.filter(game=bp, number=2).update(data={"kind": "take"})
    out, error = run_failing("--repair")
    assert f"game #{bp.pk}: the log does not replay: Action 2" in out
    assert f"game #{bp.pk}: cannot be repaired" in out
    assert error == "1 game(s) do not match their logs"


def test_it_checks_finished_games_only_with_all(games: list[Game], make_user: Any) -> None:
    bp, _ = games
    staff = make_user("staff")
    staff.is_staff = True
    game_abort(game_id=bp.pk, staff=staff, reason="test")
    Game.objects.filter(pk=bp.pk).update(state_data={})
    assert run() == "1 game(s) checked: 0 mismatched, 0 repaired\n"
    out, _ = run_failing("--all")
    assert "2 game(s) checked: 1 mismatched" in out


def test_repair_gives_a_finished_game_the_match_id_gnubg_gives_it(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Finished games keep the Match ID written when they ended; before issue 6 the engine kept
    # the turn with the doubler after a drop (cAwAAAAACAAE) where gnubg gives it to the dropper.
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "MP", stake=1)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    game = act(game, bob, Action.double())
    game = act(game, alice, Action.drop())
    assert (game.status, game.match_id) == ("finished", "cAQAAAAACAAE")
    Game.objects.filter(pk=game.pk).update(match_id="cAwAAAAACAAE")
    assert run() == "0 game(s) checked: 0 mismatched, 0 repaired\n"  # active games only
    out, _ = run_failing("--all")
    assert "the snapshot differs from the replay in match_id" in out
    assert "1 mismatched, 1 repaired" in run("--all", "--repair")
    assert Game.objects.get(pk=game.pk).match_id == "cAQAAAAACAAE"


def test_repair_gives_a_match_won_by_bearing_off_the_position_id_gnubg_pairs(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before issue 30 a match won by bearing off kept the winner's side of the board beside a
    # Match ID with the loser on roll; gnubg shows the loser's side there.
    from backgammon.engine import PerSide
    from tests.site.gamebuilder import position, starting_from

    starting_from(monkeypatch, position=position({1: 1}, {13: 15}), score=PerSide(4, 0))
    scripted_dice(monkeypatch).then((6, 1))
    game = start_game(alice, bob, "BP", match_length=5)
    game = act(game, alice, Action.play([(1, 0)]))
    paired, winners_side = position({13: 15}, {}).id, position({}, {13: 15}).id
    assert (game.status, game.position_id) == ("finished", paired)
    Game.objects.filter(pk=game.pk).update(position_id=winners_side)
    assert "the snapshot differs from the replay in position_id" in run_failing("--all")[0]
    assert "1 mismatched, 1 repaired" in run("--all", "--repair")
    assert Game.objects.get(pk=game.pk).position_id == paired
