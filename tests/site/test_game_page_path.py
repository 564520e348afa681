"""The game page's request goes one way: everything it shows is read in one step at its start
(backgammon/game_reads.py), and working the page out and rendering it read nothing more, neither
the database nor the cache, whatever the game shows (a match's earlier games, time given, a
finished rated game's analysis panel and rating changes) and whoever looks (a player, a watcher).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backgammon.engine.actions import Action
from backgammon.game_page import build_page
from backgammon.game_reads import gather
from backgammon.game_region import REGION_TEMPLATE, link_maker, region_context
from backgammon.models import Game
from backgammon.services.more_time import game_give_time
from backgammon.views.access import known_actor
from gamesite.jinja_env import NO_TOKEN, render_jinja
from tests.site.gamebuilder import act, scripted_dice, start_game
from tests.site.test_kept_answers import _trips_to_the_cache
from tests.site.test_request_costs import _match_of_many_games

pytestmark = pytest.mark.django_db


def _built_and_rendered_without_reads(monkeypatch: pytest.MonkeyPatch, game: Game, user: Any) -> str:
    """The region for ``user``: read first, then worked out and rendered with every read counted."""
    game = known_actor(Game.objects.select_related("black", "white").get(pk=game.pk))  # as the view has it
    reads = gather(game, user, whole_page=True)
    with CaptureQueriesContext(connection) as queries:
        trips = _trips_to_the_cache(monkeypatch, writes=("set", "set_many", "delete", "delete_many"))
        page = build_page(game, reads, user=user, link=link_maker(game))
        markup = render_jinja(REGION_TEMPLATE, {**region_context(page), "user": user, "csrf_token": NO_TOKEN})
    assert [query["sql"] for query in queries.captured_queries] == []
    assert trips == []
    return markup


@pytest.mark.parametrize("viewer", ["bob", "charlie"], ids=["a player", "a watcher"])
def test_a_match_with_earlier_games_and_time_given_is_built_and_rendered_from_what_was_read(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, charlie: Any, viewer: str
) -> None:
    game = _match_of_many_games(alice, bob, games=1, turns=2)
    waiting = game.black if game.actor_id == game.white_id else game.white
    game_give_time(game_id=game.pk, giver=waiting, extra=timedelta(days=1))
    user = {"bob": bob, "charlie": charlie}[viewer]
    markup = _built_and_rendered_without_reads(monkeypatch, game, user)
    assert "<h3>Game 1</h3>" in markup and "<h3>Game 2</h3>" in markup
    assert "more-time__log" in markup
    assert " left" in markup  # the clock of the player to act, in words


def test_a_finished_rated_game_is_built_and_rendered_from_what_was_read(
    monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any
) -> None:
    scripted_dice(monkeypatch).then((3, 1))
    game = act(act(start_game(alice, bob, "BX"), alice, Action.resign(1)), bob, Action.accept_resign())
    assert game.status == Game.Status.FINISHED and game.rated
    markup = _built_and_rendered_without_reads(monkeypatch, game, alice)
    assert "Rating changes: bob +" in markup
    assert 'id="analysis"' in markup


def test_the_whole_page_carries_the_menu_counts_and_the_note_it_read(alice: Any, bob: Any, alice_client: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from backgammon.services.notes import game_note_save
    from messaging.services import message_send

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, "BX")
    game_note_save(game_id=game.pk, author=alice, text="watch the 5-point")
    message_send(sender=bob, to="alice", body="hello")
    reads = gather(Game.objects.select_related("black", "white").get(pk=game.pk), alice, whole_page=True)
    assert reads.note_text == "watch the 5-point"
    assert reads.menu_counts == {"games_awaiting_count": 1, "unread_messages_count": 1}
    body = alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "watch the 5-point" in body
    assert '1<span class="visually-hidden"> unread</span>' in body


def test_a_matchs_earlier_messages_leave_the_page_once_one_player_ignores_the_other(
    alice: Any, bob: Any, bob_client: Any
) -> None:
    from accounts.relations import relation_set

    game = _match_of_many_games(alice, bob, games=1, turns=2, message="good luck, have fun")
    assert game.game_number == 2
    url = f"/games/{game.pk}/"
    assert "good luck, have fun" in bob_client.get(url).content.decode()  # kept drawn, with it
    relation_set(owner=alice, username="bob", kind="ignore")
    page = bob_client.get(url).content.decode()
    assert "<h3>Game 1</h3>" in page and "good luck, have fun" not in page
