"""Computer players are marked "computer" wherever a player is named (``player_link``, in Django
and Jinja templates alike), and are never "not seen yet": profiles, Who is here, the search and
the buddy list say they are always available. The mark costs no query per name."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from jinja2 import Environment

from accounts.models import Relation
from accounts.templatetags.players import player_link
from backgammon.models import Game
from bots.models import Bot
from gamesite.jinja_env import environment

pytestmark = pytest.mark.django_db

MARK = ' <span class="computer-tag" title="A computer player (GNU Backgammon), always available">computer<span class="visually-hidden"> player</span></span>'


def bot_game(player: Any, bot_name: str = "gnubg-easy", *, players_turn: bool = True) -> Game:
    from django.contrib.auth import get_user_model

    bot = get_user_model().objects.get(username=bot_name)
    return Game.objects.create(variant="BX", black=player, white=bot, time_limit=timedelta(days=1),
                               actor=player if players_turn else bot)


def test_player_link_marks_a_computer_player_by_user_or_by_name(alice: Any) -> None:
    from django.contrib.auth import get_user_model

    easy = get_user_model().objects.get(username="gnubg-easy")
    assert player_link(easy) == f'<a class="player-link" href="/players/gnubg-easy/">gnubg-easy</a>{MARK}'
    assert player_link("gnubg-easy") == player_link(easy)
    assert MARK in player_link("GNUBG-Strong")  # userids are one whatever their case
    assert player_link(alice) == '<a class="player-link" href="/players/alice/">alice</a>'
    assert player_link("alice") == player_link(alice)


def test_jinja_templates_get_the_same_mark() -> None:
    env: Environment = environment()
    assert env.from_string("{{ 'gnubg-medium'|player_link }}").render().endswith(MARK)


def test_a_new_bot_is_marked_at_once_and_a_removed_one_no_more(alice: Any) -> None:
    assert MARK not in player_link(alice)
    made = Bot.objects.create(user=alice, strength="easy")
    assert MARK in player_link(alice)
    made.delete()
    assert MARK not in player_link(alice)


def test_profiles_search_buddies_and_who_is_here_say_always_available(
    alice: Any, alice_client: Client, client: Client
) -> None:
    profile = client.get("/players/gnubg-easy/").content.decode()
    assert "Always available (a computer player)" in profile and "Not yet" not in profile
    assert '<span class="computer-tag">computer player</span>' in profile
    search = client.get("/players/?q=gnubg").content.decode()
    assert search.count("computer player, always available") == 3 and "not seen yet" not in search
    Relation.objects.create(owner=alice, other_id=Bot.objects.get(strength="strong").user_id, kind="buddy")
    buddies = alice_client.get("/accounts/buddies/").content.decode()
    assert "computer player, always available" in buddies and "not seen yet" not in buddies
    here = client.get("/players/here/").content.decode()
    listed = here.split('id="computer-players"')[1]
    for name in ("gnubg-easy", "gnubg-medium", "gnubg-strong"):
        assert f">{name}</a>{MARK}" in listed


def test_the_main_screen_game_status_and_the_game_page_mark_the_computer(
    alice: Any, alice_client: Client
) -> None:
    game = bot_game(alice)
    bot_game(alice, "gnubg-strong", players_turn=False)
    main = alice_client.get("/").content.decode()  # Django template
    assert f">gnubg-easy</a>{MARK}" in main
    status = alice_client.get("/games/").content.decode()  # Jinja: Game status's lists
    assert f">gnubg-easy</a>{MARK}" in status and f">gnubg-strong</a>{MARK}" in status
    page = alice_client.get(f"/games/{game.pk}/").content.decode()  # Jinja: the game region
    heading = page.split('id="game-heading"')[1].split("</h1>")[0]
    assert f">gnubg-easy</a>{MARK}" in heading and f">alice</a>{MARK}" not in heading


def queries_of(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as asked:
        assert client.get(url).status_code == 200
    return len(asked)


def test_the_mark_costs_no_query_per_name(alice: Any, alice_client: Client, make_user: Any) -> None:
    bot_game(alice)
    queries_of(alice_client, "/")  # the first request's own work (marking alice seen)
    cache.clear()
    cold_one = queries_of(alice_client, "/games/")
    warm_one = queries_of(alice_client, "/games/")
    for name in ("gnubg-medium", "gnubg-strong"):
        bot_game(alice, name)
    for n in range(3):
        Game.objects.create(variant="BX", black=alice, white=make_user(f"human{n}"), time_limit=timedelta(days=1))
    cache.clear()
    assert queries_of(alice_client, "/games/") == cold_one
    assert queries_of(alice_client, "/games/") == warm_one
