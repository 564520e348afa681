"""What a request costs: the game page of a long match reads no more than a short game's, the
earlier games' moves lists are kept rendered (never shown to the wrong viewer), an htmx action
answers with the game region, and the game row is read once per action."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from backgammon.engine.actions import Action
from backgammon.engine.match import Phase
from backgammon.models import Game, GameAction
from backgammon.services import roll_request
from tests.site.gamebuilder import act, fast_passwords, start_game, unchanged  # noqa: F401

pytestmark = pytest.mark.django_db

PAGE_QUERY_LIMIT = 10


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def _play_a_turn(game: Game, rng: random.Random, message: str = "") -> Game:
    """The player to act rolls if need be, then plays a random legal play."""
    if game.phase == Phase.ROLL.value:
        game = act(game, game.actor, roll_request())
    state = game.state()
    play = rng.choice(state.legal_plays())
    return act(game, game.actor, Action.play([(m.origin, m.destination) for m in play.moves]), message=message)


def _match_of_many_games(black: Any, white: Any, *, games: int, turns: int, message: str = "") -> Game:
    """A match whose games each end by a dropped double after ``turns`` turns; the first play of
    game 1 carries ``message``."""
    rng = random.Random(5)
    game = start_game(black, white, "BP", match_length=25)
    for number in range(games):
        for turn in range(turns):
            game = _play_a_turn(game, rng, message=message if number == 0 and turn == 0 else "")
        assert game.phase == Phase.ROLL.value and game.state().can_double()
        doubler = game.actor
        game = act(game, doubler, Action.double())
        game = act(game, game.actor, Action.drop())
    return game


def _page_queries(client: Client, game: Game) -> list[str]:
    url = reverse("backgammon:game", args=[game.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return [query["sql"] for query in queries.captured_queries]


def test_a_long_match_page_makes_the_same_queries_as_a_short_game(
    alice: Any, bob: Any, alice_client: Client, django_assert_max_num_queries: Any
) -> None:
    short = start_game(alice, bob, "BP", match_length=25)
    long = _match_of_many_games(alice, bob, games=6, turns=12)
    assert long.game_number == 7 and long.action_count > 150
    for game in (short, long):
        _page_queries(alice_client, game)  # the first view renders the earlier games and keeps them
    with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
        short_queries = _page_queries(alice_client, short)
    with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
        long_queries = _page_queries(alice_client, long)
    # The one difference: the kept moves lists are read from the cache (a table in the tests,
    # Redis in production), whatever the match's length.
    assert [sql for sql in long_queries if "django_cache" not in sql] and len(
        [sql for sql in long_queries if "django_cache" not in sql]) == len(short_queries)


def test_the_page_reads_only_the_current_games_rows_once_the_earlier_games_are_kept(
    alice: Any, bob: Any, alice_client: Client
) -> None:
    game = _match_of_many_games(alice, bob, games=2, turns=4)
    first = _page_queries(alice_client, game)
    again = _page_queries(alice_client, game)
    earlier_rows = [sql for sql in first if "backgammon_gameaction" in sql and '"game_number" <' in sql]
    assert len(earlier_rows) == 1
    assert not [sql for sql in again if "backgammon_gameaction" in sql and '"game_number" <' in sql]
    page = alice_client.get(reverse("backgammon:game", args=[game.pk])).content.decode()
    for number in (1, 2, 3):
        assert f"<h3>Game {number}</h3>" in page
    assert page.count("passed the double (1 point)") >= 2


def test_a_spectator_never_sees_the_players_messages_from_the_kept_moves_list(
    alice: Any, bob: Any, charlie: Any, alice_client: Client, client_for: Any
) -> None:
    game = _match_of_many_games(alice, bob, games=1, turns=2, message="good luck, private")
    url = reverse("backgammon:game", args=[game.pk])
    assert "good luck, private" in alice_client.get(url).content.decode()  # kept for players
    watcher = client_for(charlie).get(url).content.decode()
    assert "<h3>Game 1</h3>" in watcher
    assert "good luck, private" not in watcher


def test_an_action_from_htmx_answers_with_the_game_region_and_no_redirect(
    alice: Any, bob: Any, client_for: Any
) -> None:
    game = start_game(alice, bob, "BP")
    player = client_for(game.actor)
    play = game.state().legal_plays()[0]
    text = " ".join(f"{m.origin}/{'off' if m.destination == 0 else m.destination}" for m in play.moves)
    response = player.post(reverse("backgammon:game_act", args=[game.pk]),
                           {"kind": "play", "moves_text": text, "expected_number": game.action_count},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Replace-Url"] == reverse("backgammon:game", args=[game.pk])
    body = response.content.decode()
    assert body.lstrip().startswith("<section id=\"game\"") and "<html" not in body
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.action_count > game.action_count
    assert f"?n={fresh.action_count}" in body  # the region is the new state's


def test_a_plain_form_action_still_redirects_to_the_page(alice: Any, bob: Any, client_for: Any) -> None:
    game = start_game(alice, bob, "BP")
    play = game.state().legal_plays()[0]
    text = " ".join(f"{m.origin}/{m.destination}" for m in play.moves)
    response = client_for(game.actor).post(reverse("backgammon:game_act", args=[game.pk]),
                                           {"kind": "play", "moves_text": text, "expected_number": game.action_count})
    assert response.status_code == 302 and response["Location"] == reverse("backgammon:game", args=[game.pk])


def test_a_refused_action_from_htmx_changes_nothing_and_says_why(alice: Any, bob: Any, client_for: Any) -> None:
    game = start_game(alice, bob, "BP")
    with unchanged(game):
        response = client_for(game.actor).post(
            reverse("backgammon:game_act", args=[game.pk]),
            {"kind": "play", "moves_text": "13/1", "expected_number": game.action_count},
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 400
    assert "HX-Replace-Url" not in response
    assert re.search(r'<section id="game"', response.content.decode())


def test_an_action_reads_the_game_row_once(alice: Any, bob: Any, client_for: Any) -> None:
    game = start_game(alice, bob, "BP")
    play = game.state().legal_plays()[0]
    text = " ".join(f"{m.origin}/{m.destination}" for m in play.moves)
    client = client_for(game.actor)
    with CaptureQueriesContext(connection) as queries:
        client.post(reverse("backgammon:game_act", args=[game.pk]),
                    {"kind": "play", "moves_text": text, "expected_number": game.action_count})
    reads = [q["sql"] for q in queries.captured_queries
             if q["sql"].startswith("SELECT") and 'FROM "backgammon_game" ' in q["sql"] and '"backgammon_game"."id" =' in q["sql"]]
    assert len(reads) == 1 and "FOR UPDATE" in reads[0]


def test_an_action_appends_its_rows_in_one_insert_and_each_row_knows_its_id(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows go in with one cached statement, which on PostgreSQL also writes the game's
    snapshot (services/games.py _appended_and_saved): one round trip for both. An opening roll
    that ties is re-rolled in the same request: several rows in one INSERT."""
    from backgammon.services import games
    from tests.site.gamebuilder import scripted_dice

    scripted_dice(monkeypatch).then((3, 3), (4, 4), (5, 2))
    appended: list[list[Any]] = []
    together = games._appended_and_saved
    monkeypatch.setattr(games, "_appended_and_saved",
                        lambda game, rows, values: (appended.append(rows), together(game, rows, values))[1])
    with CaptureQueriesContext(connection) as queries:
        game = start_game(alice, bob, "BP")
    inserts = [q["sql"] for q in queries.captured_queries if 'INSERT INTO "backgammon_gameaction"' in q["sql"]]
    rows = [row for batch in appended for row in batch]
    assert len(inserts) == len(appended) and len(rows) >= 3  # two ties and the opening roll that counts
    assert all('UPDATE "backgammon_game" SET' in sql for sql in inserts)
    snapshot_alone = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "backgammon_game" SET "action_count"')]
    assert snapshot_alone == []
    stored = dict(GameAction.objects.filter(game=game).values_list("number", "pk"))
    assert {row.number: row.pk for row in rows} == stored
    assert [row.data for row in rows][:2] == [{"kind": "roll", "dice": [3, 3]}, {"kind": "roll", "dice": [4, 4]}]
