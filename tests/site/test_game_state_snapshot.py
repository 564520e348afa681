"""The stored state snapshot and the facts kept on logged rows: replaying the log stays the truth.

Alice (Black) and Bob (White) play random legal actions through the service; after each stretch
a fresh replay of the log must equal what the game row and its rows say.
"""

from __future__ import annotations

import importlib
import logging
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.urls import reverse

from backgammon.engine import PerSide
from backgammon.engine import match as engine_match
from backgammon.engine.actions import Action, ActionKind
from backgammon.engine.match import MatchState, Phase, replay
from backgammon.engine.match_json import result_to_dict, state_to_dict
from backgammon.models import Game, GameAction
from backgammon.move_records import game_records, logged_actions
from backgammon.services import game_enforce_deadline
from backgammon.services.log_facts import FACT_FIELDS, replay_with_facts
from tests.engine.random_play import random_action
from tests.site.gamebuilder import act, start_game

pytestmark = pytest.mark.django_db

GAMES = [
    ("BP", {}),
    ("B9", {}),
    ("BS", {}),
    ("BO", {"match_length": 3}),
    ("BX", {}),
    ("BR", {}),
    ("BA", {}),
    ("MP", {"stake": 1, "jacoby": True, "beavers": True}),
]


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dice from a seeded generator instead of the clock, so that every run plays the same games."""
    rng = random.Random(2026)
    monkeypatch.setattr("backgammon.services.games.roll_at", lambda key, instant: (rng.randint(1, 6), rng.randint(1, 6)))


def random_site_action(state: MatchState, rng: random.Random) -> Action:
    """A random legal action, with resignations and beavers common enough to meet in a test."""
    if state.phase is Phase.ROLL and rng.random() < 0.05:
        return Action.resign(rng.randint(1, 3))
    if state.phase is Phase.TAKE_OR_DROP and state.rules.beavers and rng.random() < 0.5 and state.can_beaver():
        return Action.beaver()
    if state.phase is Phase.RESIGN_OFFERED:
        return Action.reject_resign() if rng.random() < 0.5 else Action.accept_resign()
    return random_action(state, rng, double_rate=0.2)


def play_randomly(game: Game, rng: random.Random, actions: int) -> Game:
    """Up to ``actions`` random legal actions by whoever must act (fewer if the match ends)."""
    for _ in range(actions):
        if game.status != "active":
            break
        state = game.state()
        assert state.actor is not None
        game = act(game, game.player(state.actor), random_site_action(state, rng))
    return game


def logged(game: Game) -> list[Action]:
    return [Action.from_dict(data) for data in game.actions.order_by("number").values_list("data", flat=True)]


def expected_facts(rules: Any, actions: list[Action]) -> list[dict[str, object]]:
    """What each row should keep, worked out here from the states around it, step by step."""
    state, facts = engine_match.new_match(rules), []
    for action in actions:
        after = engine_match.apply_action(state, action)
        play = action.kind is ActionKind.PLAY
        ended = after.last_game_result != state.last_game_result  # results name their game: never equal
        facts.append({
            "game_number": state.game_number,
            "dice": "".join(map(str, state.dice or ())) if play else "",
            "cube_value": state.cube_value,
            "position_id": state.position.id if play else "",
            "game_result": result_to_dict(after.last_game_result) if ended and after.last_game_result else None,
        })
        state = after
    return facts


def assert_matches_a_fresh_replay(game_id: int) -> None:
    fresh = Game.objects.get(pk=game_id)
    rows = list(fresh.actions.order_by("number"))
    replayed = replay(fresh.rules(), logged(fresh))
    assert fresh.state() == replayed
    assert fresh.state_data == state_to_dict(replayed)
    assert (fresh.position_id, fresh.phase, fresh.game_number) == (
        replayed.position_id(), replayed.phase.value, replayed.game_number,
    )
    kept = [{name: getattr(row, name) for name in FACT_FIELDS} for row in rows]
    assert kept == expected_facts(fresh.rules(), logged(fresh))
    assert replay_with_facts(fresh.rules(), logged(fresh)) == (kept, replayed)


def test_the_snapshot_is_a_fresh_replay_after_many_random_actions(alice: Any, bob: Any) -> None:
    kinds: set[str] = set()
    for variant, options in GAMES:
        rng = random.Random(f"snapshot-{variant}")
        game = start_game(alice, bob, variant, **options)
        for _ in range(6):
            game = play_randomly(game, rng, 25)
            assert_matches_a_fresh_replay(game.pk)
        if game.status == "active":  # the last word of an unfinished game: its player runs out of time
            assert game.deadline is not None
            assert game_enforce_deadline(game_id=game.pk, action_number=game.action_count,
                                         now=game.deadline + timedelta(seconds=1))
            assert_matches_a_fresh_replay(game.pk)
        kinds |= set(game.actions.values_list("kind", flat=True))
        assert game.actions.filter(game_result__isnull=False).exists(), variant
    # The check is only as good as what was played: every kind of action, some more than once.
    assert kinds == {kind.value for kind in ActionKind}


def test_it_reads_the_state_from_the_snapshot_without_touching_the_log(
    alice: Any, bob: Any, django_assert_num_queries: Any
) -> None:
    game = play_randomly(start_game(alice, bob, "BP"), random.Random(3), 30)
    fresh = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(0):
        state = fresh.state()
    assert state == replay(fresh.rules(), logged(fresh))


def test_a_game_without_a_snapshot_is_replayed_and_the_snapshot_filled(alice: Any, bob: Any) -> None:
    game = play_randomly(start_game(alice, bob, "BP"), random.Random(4), 30)
    written = Game.objects.get(pk=game.pk).state_data
    Game.objects.filter(pk=game.pk).update(state_data={})  # as a row from before snapshots
    old = Game.objects.get(pk=game.pk)
    assert old.state() == replay(old.rules(), logged(old))
    assert Game.objects.get(pk=game.pk).state_data == written


def test_a_late_fill_never_overwrites_a_newer_snapshot(alice: Any, bob: Any) -> None:
    rng = random.Random(5)
    game = play_randomly(start_game(alice, bob, "BX"), rng, 10)
    Game.objects.filter(pk=game.pk).update(state_data={})
    reader = Game.objects.get(pk=game.pk)  # a page loaded now, at this action_count...
    moved_on = play_randomly(game, rng, 2)  # ...while two more actions land
    assert reader.state() == replay(reader.rules(), logged(reader)[: reader.action_count])
    assert reader.state() != moved_on.state()
    assert Game.objects.get(pk=game.pk).state_data == state_to_dict(moved_on.state())


def test_an_unreadable_snapshot_costs_a_replay_and_a_warning_not_the_page(
    alice: Any, bob: Any, caplog: pytest.LogCaptureFixture
) -> None:
    game = play_randomly(start_game(alice, bob, "BP"), random.Random(6), 20)
    Game.objects.filter(pk=game.pk).update(state_data={"version": 99})
    broken = Game.objects.get(pk=game.pk)
    with caplog.at_level(logging.WARNING, logger="backgammon.models"):
        state = broken.state()
    assert state == replay(broken.rules(), logged(broken))
    assert f"game {game.pk}: unreadable state snapshot" in caplog.text
    assert Game.objects.get(pk=game.pk).state_data == state_to_dict(state)


def test_the_game_page_of_a_long_match_replays_nothing(
    alice: Any, bob: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play_randomly(start_game(alice, bob, "B9"), random.Random(8), 200)
    assert game.status == "active" and game.game_number > 1
    expected = client_for(alice).get(reverse("backgammon:game", args=[game.pk]))

    def refuse(*args: Any) -> Any:
        raise AssertionError("the game page applied a logged action again")

    for kind in ActionKind:
        monkeypatch.setitem(engine_match._HANDLERS, kind, refuse)
    response = client_for(alice).get(reverse("backgammon:game", args=[game.pk]))
    assert response.status_code == 200
    assert without_csrf(response) == without_csrf(expected)
    assert "Game 1" in without_csrf(response)


def without_csrf(response: Any) -> str:
    """The page with its CSRF tokens (new for every response) blanked out."""
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]*', r"\1", response.content.decode())


def test_the_migration_backfills_existing_games_from_their_logs(alice: Any, bob: Any) -> None:
    games = [play_randomly(start_game(alice, bob, code), random.Random(9), 60) for code in ("BP", "BR")]
    written = {g.pk: (Game.objects.get(pk=g.pk).state_data, list(g.actions.values(*FACT_FIELDS))) for g in games}
    # As the rows were before the migration added the columns: every column at its default.
    GameAction.objects.update(game_number=1, dice="", cube_value=1, position_id="", game_result=None)
    Game.objects.update(state_data={})
    migration = importlib.import_module("backgammon.migrations.0002_action_facts_and_state_snapshot")
    migration.backfill(apps, None)
    for game in games:
        fresh = Game.objects.get(pk=game.pk)
        assert (fresh.state_data, list(fresh.actions.values(*FACT_FIELDS))) == written[game.pk]


@pytest.mark.parametrize("moves", [0, 7])
def test_the_moves_list_puts_a_timeout_under_the_player_who_ran_out_of_time(
    alice: Any, bob: Any, moves: int
) -> None:
    game = play_randomly(start_game(alice, bob, "BP"), random.Random(12), moves)
    loser = game.state().actor
    assert loser is not None and game.deadline is not None
    game_enforce_deadline(game_id=game.pk, action_number=game.action_count, now=game.deadline + timedelta(seconds=1))
    fresh = Game.objects.get(pk=game.pk)
    names = PerSide("alice", "bob")
    last = game_records(logged_actions(fresh), names, counts_gammons=True, with_messages=True)[-1]
    assert last.rows[-1].cells[loser] == "ran out of time"
    assert "ran out of time" not in [row.cells[loser.other] for row in last.rows]
    assert last.result.startswith(f"{names[loser.other]} won: {names[loser]} ran out of time (")


def test_the_action_that_ends_a_game_stays_in_that_game_in_the_moves_list(alice: Any, bob: Any) -> None:
    game = play_randomly(start_game(alice, bob, "BP"), random.Random(13), 1)  # the first play
    doubler = game.state().actor
    assert doubler is not None and game.state().can_double()
    game = act(game, game.player(doubler), Action.double())
    game = act(game, game.player(doubler.other), Action.drop())
    names = PerSide("alice", "bob")
    first, second = game_records(logged_actions(game), names, counts_gammons=True, with_messages=True)
    assert (first.number, second.number) == (1, 2)
    assert [first.rows[-1].cells[doubler], first.rows[-1].cells[doubler.other]] == ["doubles to 2", "passes"]
    assert first.result == f"{names[doubler]} won: {names[doubler.other]} passed the double (1 point)"
    assert second.opening.startswith("Opening roll: alice ") and second.result == ""


def test_an_action_writes_the_snapshot_as_save_would_and_its_listeners_hear_it(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot's UPDATE is built once per process (services/games.py _save_snapshot): the
    row it writes is the one Django's save() writes, and post_save is sent as save() sends it."""
    from django.db.models.signals import post_save

    from backgammon.services import games_awaiting_count
    from backgammon.services.games import _SNAPSHOT_FIELDS
    from tests.site.gamebuilder import scripted_dice

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    assert games_awaiting_count(bob) == 0  # kept (the suite's cache is this process's memory)
    heard: list[tuple[int, Any]] = []

    def listener(*, instance: Game, update_fields: Any, **_: Any) -> None:
        heard.append((instance.pk, update_fields))

    post_save.connect(listener, sender=Game, dispatch_uid="test-snapshot-listener")
    try:
        played = act(game, alice, Action.play(((8, 5), (6, 5))))
    finally:
        post_save.disconnect(dispatch_uid="test-snapshot-listener", sender=Game)
    assert heard == [(game.pk, frozenset(_SNAPSHOT_FIELDS))]
    assert games_awaiting_count(bob) == 1  # the kept count was forgotten by the listener
    columns = [Game._meta.get_field(name).attname for name in _SNAPSHOT_FIELDS]
    written = Game.objects.filter(pk=game.pk).values(*columns).get()
    assert written == {column: getattr(played, column) for column in columns}
    played.save(update_fields=_SNAPSHOT_FIELDS)  # Django's own save of the same instance
    saved_by_django = Game.objects.filter(pk=game.pk).values(*columns).get()
    assert {**written, "updated_at": None} == {**saved_by_django, "updated_at": None}
