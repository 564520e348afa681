"""The computer opponents: accounts, challenges, whole matches, no clock, the safety net."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse
from django_tasks.base import TaskResultStatus
from django_tasks.signals import task_finished
from django_tasks_db.models import DBTaskResult
from gamebuilder import act, fast_passwords, position, scripted_dice, starting_from  # noqa: F401

from accounts.models import Profile
from backgammon.engine import Phase
from backgammon.engine.actions import Action
from backgammon.models import Challenge, Game
from backgammon.services import challenge_create, roll_request
from backgammon.signals import worker_tick
from bots.accounts import create_bot_accounts
from bots.models import Bot
from bots.tasks import act_in_game, bot_act, bot_answer_challenge, nudge_waiting
from tests.engine.random_play import random_action

pytestmark = pytest.mark.django_db

BOT_NAMES = ["gnubg-easy", "gnubg-medium", "gnubg-strong"]
THREE_DAYS = timedelta(days=3)


@pytest.fixture(autouse=True)
def bot_accounts(db: None) -> None:
    """The migration made them, but a browser or worker test earlier in the run flushes tables."""
    create_bot_accounts(get_user_model(), Profile, Bot)


@pytest.fixture
def tasks_run_at_once(settings: Any) -> Iterator[list[Any]]:
    """Tasks run when enqueued (on commit); a task that raised fails the test."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    failures: list[Any] = []

    def collect(sender: Any, task_result: Any, **kwargs: Any) -> None:
        if task_result.errors:
            failures.append(task_result.errors[0].traceback)

    task_finished.connect(collect)
    yield failures
    task_finished.disconnect(collect)
    assert not failures, failures[0]


def bot(name: str) -> Any:
    return get_user_model().objects.get(username=name)


def challenge_bot(human: Any, name: str, variant: str, capture: Any, **options: Any) -> Game:
    options.setdefault("time_limit", THREE_DAYS)
    with capture(execute=True):
        challenge = challenge_create(challenger=human, opponent=name, variant=variant, **options)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert challenge.game is not None
    return challenge.game


def play_out(game: Game, human: Any, capture: Any, seed: int = 7, limit: int = 3000) -> Game:
    """The human plays random legal actions until the match ends; the bot answers through tasks."""
    rng = random.Random(seed)
    for _ in range(limit):
        game = Game.objects.get(pk=game.pk)  # a fresh row: the model caches its state
        if game.status != Game.Status.ACTIVE:
            return game
        assert game.actor_id == human.pk, f"The bot left game {game.pk} waiting in {game.phase}"
        action = random_action(game.state(), rng, double_rate=0.05)
        if action.kind.value == "roll":
            action = roll_request()
        with capture(execute=True):
            act(game, human, action)
    raise AssertionError("The match did not end")


def test_the_three_bots_exist_with_unusable_passwords() -> None:
    bots = Bot.objects.select_related("user").order_by("user__username")
    assert [(b.user.username, b.strength) for b in bots] == [
        ("gnubg-easy", "easy"),
        ("gnubg-medium", "medium"),
        ("gnubg-strong", "strong"),
    ]
    for b in bots:
        assert not b.user.has_usable_password()
        assert b.user.profile.userid_skeleton


def test_a_challenge_to_a_bot_is_accepted_by_the_worker(
    alice: Any, tasks_run_at_once: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = challenge_bot(alice, "gnubg-medium", "BP", django_capture_on_commit_callbacks)
    assert game.black_id == alice.pk and game.white_id == bot("gnubg-medium").pk
    # Whoever won the opening roll, the game now waits for alice: the bot has already played.
    game.refresh_from_db()
    assert game.actor_id == alice.pk


def test_a_challenge_between_people_is_left_alone(
    alice: Any, bob: Any, tasks_run_at_once: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_create(
            challenger=alice, opponent="bob", variant="BX", time_limit=THREE_DAYS
        )
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.PENDING


@pytest.mark.parametrize(
    ("name", "variant", "options"),
    [
        ("gnubg-easy", "BP", {"match_length": 3}),
        ("gnubg-medium", "MP", {"jacoby": True, "beavers": True}),
        ("gnubg-strong", "BX", {}),
        ("gnubg-medium", "BA", {}),
        ("gnubg-easy", "BR", {}),
        ("gnubg-medium", "BS", {"match_length": 1}),
        ("gnubg-easy", "BO", {"match_length": 1}),
    ],
)
def test_a_whole_match_against_a_bot_ends(
    alice: Any,
    name: str,
    variant: str,
    options: dict[str, Any],
    tasks_run_at_once: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = challenge_bot(alice, name, variant, django_capture_on_commit_callbacks, **options)
    game = play_out(game, alice, django_capture_on_commit_callbacks)
    assert game.status == Game.Status.FINISHED
    assert game.winner_id in (alice.pk, bot(name).pk) or variant == "BA"
    bot_actions = game.actions.filter(side=1)
    assert bot_actions.filter(kind="play").exists()


def test_a_bot_never_has_a_deadline_and_its_opponent_keeps_theirs(
    alice: Any,
    monkeypatch: pytest.MonkeyPatch,
    tasks_run_at_once: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    scripted_dice(monkeypatch).then((1, 2), (3, 1))  # the bot (White) wins the opening
    with time_machine.travel("2026-01-05 12:00:00+00:00", tick=False):
        game = challenge_bot(alice, "gnubg-medium", "BX", django_capture_on_commit_callbacks)
        game = Game.objects.get(pk=game.pk)
        assert game.actor_id == alice.pk
        assert game.deadline is not None
        # BX has no cube, so alice's 3-1 was rolled for her. Without the worker, the game then
        # waits for the bot with no clock running.
        play = game.state().legal_plays()[0]
        game = act(game, alice, Action.play([(m.origin, m.destination) for m in play.moves]))
    assert game.actor_id == bot("gnubg-medium").pk
    assert game.deadline is None


def test_a_stale_task_does_nothing(
    alice: Any, tasks_run_at_once: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = challenge_bot(alice, "gnubg-medium", "BX", django_capture_on_commit_callbacks)
    game.refresh_from_db()
    count = game.action_count
    assert not act_in_game(game.pk, count - 1)
    assert not act_in_game(game.pk, count)  # alice's turn, not the bot's
    game.refresh_from_db()
    assert game.action_count == count


def run_queued_bot_tasks() -> int:
    """Run what the database queue holds for the bots, as the worker's main thread would."""
    ran = 0
    for queued in DBTaskResult.objects.filter(status=TaskResultStatus.READY).order_by("enqueued_at"):
        task = {bot_act.module_path: bot_act, bot_answer_challenge.module_path: bot_answer_challenge}
        task[queued.task_path].call(*queued.args_kwargs["args"])
        queued.delete()
        ran += 1
    return ran


def test_the_worker_tick_queues_the_bots_turn_again_when_it_was_lost(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tasks queued on commit are lost (deleted, as with a killed worker): the tick is the
    # safety net. It only queues (it runs on a thread, where gnubg must not think), once.
    scripted_dice(monkeypatch).then((1, 2), (3, 1))
    with time_machine.travel("2026-01-05 12:00:00+00:00", tick=False):
        challenge = challenge_create(
            challenger=alice, opponent="gnubg-strong", variant="BX", time_limit=THREE_DAYS
        )
        DBTaskResult.objects.all().delete()
        assert nudge_waiting() == 0  # too fresh: its task may still come
    with time_machine.travel("2026-01-05 12:00:10+00:00", tick=False):
        worker_tick.send(sender=None)
        assert nudge_waiting() == 0  # already queued: not twice
        challenge.refresh_from_db()
        assert challenge.game is None  # the tick itself does nothing
        assert run_queued_bot_tasks() == 1  # accepts: the bot wins the opening and...
    challenge.refresh_from_db()
    assert challenge.game is not None
    DBTaskResult.objects.all().delete()  # ...its turn's task is lost too
    with time_machine.travel("2026-01-05 12:00:20+00:00", tick=False):
        worker_tick.send(sender=None)
        assert run_queued_bot_tasks() == 1  # ...plays its 3-1 at 2-ply
    game = Game.objects.get(pk=challenge.game.pk)
    assert game.actor_id == alice.pk
    assert game.actions.filter(kind="play", side=1).count() == 1
    assert game.state().phase in (Phase.ROLL, Phase.MOVE)


def test_a_bot_takes_a_reasonable_double_and_drops_a_hopeless_one(
    alice: Any,
    monkeypatch: pytest.MonkeyPatch,
    tasks_run_at_once: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # Alice (Black) starts far ahead in a race; doubled there, the bot drops.
    crushing = position({1: 4, 2: 4, 3: 3}, {6: 5, 5: 5, 4: 5})
    starting_from(monkeypatch, position=crushing)
    scripted_dice(monkeypatch).then((2, 1), (1, 1))
    game = challenge_bot(alice, "gnubg-medium", "MP", django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.actor_id == alice.pk and game.phase == Phase.MOVE
    with django_capture_on_commit_callbacks(execute=True):
        game = act(game, alice, Action.play([(3, 1), (3, 2)]))
    game = Game.objects.get(pk=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        act(game, alice, Action.double())
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.actions.last().kind == "drop"


def test_the_new_game_page_offers_the_computer_and_its_challenge_is_accepted(
    alice: Any,
    alice_client: Any,
    tasks_run_at_once: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    page = alice_client.get(reverse("backgammon:new_game")).content.decode()
    assert "Play the computer" in page
    for name in BOT_NAMES:
        assert f"?opponent={name}" in page
    form = {"opponent": "gnubg-strong", "variant": "BX", "match_length": "",
            "time_limit": str(3 * 86400)}
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(reverse("backgammon:new_game"), form)
    assert response.status_code == 302
    challenge = Challenge.objects.get(challenger=alice)
    assert challenge.status == Challenge.Status.ACCEPTED


def test_who_is_a_bot_is_kept_in_the_cache_and_forgotten_when_a_bot_is_added_or_removed() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bots.receivers import bot_user_ids

    easy = bot("gnubg-easy")
    human = get_user_model().objects.create_user("carol", password="x")
    assert bot_user_ids([easy.pk, human.pk]) == {easy.pk}
    with CaptureQueriesContext(connection) as asked:
        assert bot_user_ids([easy.pk, human.pk]) == {easy.pk}
    assert not [q for q in asked.captured_queries if "bots_bot" in q["sql"]]  # the cache answered

    added = Bot.objects.create(user=human, strength=Bot.Strength.EASY)
    assert bot_user_ids([easy.pk, human.pk]) == {easy.pk, human.pk}
    added.delete()
    assert bot_user_ids([easy.pk, human.pk]) == {easy.pk}
