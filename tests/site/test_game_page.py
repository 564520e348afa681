"""The game page: each phase's controls, click-to-move links, submitting, refusals, polling, .mat.

Alice (Black) and Bob (White) play; Charlie only watches. Dice are scripted (gamebuilder).
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from backgammon.engine import PerSide, Side, decode_match_id
from backgammon.engine.actions import Action
from backgammon.game_page import TAMPERED
from backgammon.models import Game
from backgammon.services.games import STALE_PAGE
from backgammon.views.game import STALE_PAGE_REDRAWN
from tests.site.gamebuilder import act as service_act
from tests.site.gamebuilder import position, scripted_dice, start_game, starting_from, unchanged

pytestmark = pytest.mark.django_db


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Any:
    return scripted_dice(monkeypatch)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def page_of(client: Client, game: Game, **query: str) -> Any:
    return client.get(reverse("backgammon:game", args=[game.pk]), query)


def post(client: Client, game: Game, kind: str, **fields: Any) -> Any:
    data = {"kind": kind, "expected_number": game.action_count, **fields}
    return client.post(reverse("backgammon:game_act", args=[game.pk]), data)


def text(response: Any) -> str:
    return html.unescape(response.content.decode())


def links(response: Any) -> dict[str, str]:
    """aria-label -> href of every clickable checker on the board."""
    found = re.findall(r'<a class="move" href="([^"]*)" aria-label="([^"]*)"', response.content.decode())
    return {label: html.unescape(href) for href, label in found}


def buttons(response: Any) -> list[str]:
    """The game's action buttons (not the private note's or the privacy switch's, beside the board,
    nor the Submit kept in a <template> for the page's script to show once the move is complete)."""
    body = re.sub(r'<section id="game-note".*?</section>|<form [^>]*class="privacy".*?</form>'
                  r'|<template id="turn-submit">.*?</template>', "", text(response), flags=re.DOTALL)
    return [label.strip() for label in re.findall(r'<button type="submit" class="button[^"]*"[^>]*>([^<]*)</button>', body)]


@pytest.fixture
def bx_game(alice: Any, bob: Any, dice: Any) -> Game:
    """A single game of plain backgammon: Alice won the opening roll 3-1 and must move."""
    dice.then((3, 1))
    return start_game(alice, bob, variant="BX", match_length=0)


def test_it_offers_each_movable_checker_as_a_link_by_the_first_die(alice_client: Client, bx_game: Game) -> None:
    response = page_of(alice_client, bx_game)
    assert response.status_code == 200
    assert links(response) == {
        "move the checker on 24 by 3 to 21": f"/games/{bx_game.pk}/?steps=24-21",
        "move the checker on 13 by 3 to 10": f"/games/{bx_game.pk}/?steps=13-10",
        "move the checker on 8 by 3 to 5": f"/games/{bx_game.pk}/?steps=8-5",
        "move the checker on 6 by 3 to 3": f"/games/{bx_game.pk}/?steps=6-3",
    }
    body = text(response)
    assert "You rolled 3-1: click a checker to move it by 3." in body
    assert "Opening roll: alice 3, bob 1. alice moves first with 3-1." in body
    assert "swap dice" in body and "Submit" not in buttons(response)
    assert "<desc id=\"board-desc\">alice (Black, you): 2 on 24, 5 on 13, 3 on 8, 5 on 6" in body


def test_it_builds_the_turn_step_by_step_then_offers_submit(alice_client: Client, bx_game: Game) -> None:
    first = page_of(alice_client, bx_game, steps="8-5")
    assert "move the checker on 6 by 1 to 5" in links(first)
    assert f'href="/games/{bx_game.pk}/"' in first.content.decode()  # undo goes back to no steps
    assert "swap dice" not in text(first) and "undo" in text(first)
    assert "Submit" not in buttons(first)
    done = page_of(alice_client, bx_game, steps="8-5,6-5")
    assert links(done) == {}
    assert "Your move is complete" in text(done)
    assert buttons(done)[0] == "Submit"
    assert 'name="steps" value="8-5,6-5"' in done.content.decode()


def test_it_swaps_the_dice_order_by_link(alice_client: Client, bx_game: Game) -> None:
    response = page_of(alice_client, bx_game, swap="1")
    assert "move the checker on 6 by 1 to 5" in links(response)
    assert f"/games/{bx_game.pk}/?steps=6-5&swap=1" in links(response).values()
    assert "click a checker to move it by 1" in text(response)


def test_it_submits_a_complete_turn_and_redirects(alice_client: Client, bx_game: Game, dice: Any) -> None:
    dice.then((6, 4))  # Bob cannot double in BX: his roll follows at once
    response = post(alice_client, bx_game, "play", steps="8-5,6-5", message="good luck")
    assert response.status_code == 302 and response.url == f"/games/{bx_game.pk}/"
    game = fresh(bx_game)
    last_play = game.actions.filter(kind="play").get()
    assert (last_play.notation, last_play.message) == ("8/5 6/5", "good luck")
    assert game.actor == game.white and game.dice == "64"
    bob_page = page_of(Client(), game)  # anonymous: sent to log in
    assert bob_page.status_code == 302


def test_the_regions_forms_carry_one_token_that_the_csrf_check_accepts(alice: Any, bx_game: Game, dice: Any) -> None:
    # A browser without JavaScript posts the region's plain forms: their token is read once per
    # region (gamesite.jinja_env.render_jinja), and Django's real check must still take it.
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    page = browser.get(reverse("backgammon:game", args=[bx_game.pk]), {"steps": "8-5,6-5"},
                       headers={"HX-Request": "true"})  # the region alone
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()))
    assert len(tokens) == 1
    refused = post(browser, bx_game, "play", steps="8-5,6-5")
    assert refused.status_code == 403 and fresh(bx_game).action_count == bx_game.action_count
    dice.then((6, 4))
    response = post(browser, bx_game, "play", steps="8-5,6-5", csrfmiddlewaretoken=tokens.pop())
    assert response.status_code == 302
    assert fresh(bx_game).actions.filter(kind="play").get().notation == "8/5 6/5"


def test_it_shows_the_opponent_their_last_move_and_the_moves_list(alice_client: Client, bob_client: Client,
                                                                  bx_game: Game, dice: Any) -> None:
    dice.then((6, 4))
    post(alice_client, bx_game, "play", steps="8-5,6-5", message="good luck")
    response = page_of(bob_client, fresh(bx_game))
    body = text(response)
    assert "You rolled 6-4" in body
    # Bob sees Alice's 8 and 6 as his 17 and 19, and her 5 as his 20: outlined in blue.
    assert body.count('class="outline-last"') == 3
    assert "<td>31: 8/5 6/5</td>" in body and "“good luck”" in body
    assert 'id="board-desc">bob (White, you)' in body


def test_it_accepts_a_typed_move(alice_client: Client, bx_game: Game, dice: Any) -> None:
    dice.then((6, 4))
    response = post(alice_client, bx_game, "play", moves_text="24/21 24/23")
    assert response.status_code == 302
    assert fresh(bx_game).actions.get(kind="play").notation == "24/23 24/21"


def test_it_refuses_tampered_steps_and_starts_the_turn_again(alice_client: Client, bx_game: Game) -> None:
    response = page_of(alice_client, bx_game, steps="8-2,nonsense")
    assert response.status_code == 200
    assert TAMPERED in text(response)
    assert "move the checker on 8 by 3 to 5" in links(response)


def test_it_refuses_an_unfinished_or_illegal_submission_and_changes_nothing(alice_client: Client,
                                                                            bx_game: Game) -> None:
    with unchanged(bx_game):
        unfinished = post(alice_client, bx_game, "play", steps="8-5")
        tampered = post(alice_client, bx_game, "play", steps="8-1,6-5")
        typed = post(alice_client, bx_game, "play", moves_text="13/9 13/")
        illegal = post(alice_client, bx_game, "play", moves_text="24/18")
    assert unfinished.status_code == tampered.status_code == typed.status_code == illegal.status_code == 400
    assert "Your move is not finished" in text(unfinished)
    assert "move the checker on 6 by 1 to 5" in links(unfinished)  # the turn so far is kept
    assert TAMPERED in text(tampered)
    assert 'role="alert"' in text(typed) and 'value="13/9 13/"' in text(typed)
    assert 'role="alert"' in text(illegal)


def test_a_refused_move_and_its_message_come_back_escaped(alice_client: Client, bx_game: Game) -> None:
    hostile = '"><script>alert(1)</script>'
    with unchanged(bx_game):
        response = post(alice_client, bx_game, "play", moves_text=f"24/18 {hostile}", message=hostile)
    assert response.status_code == 400
    body = response.content.decode()
    assert "<script>alert(1)</script>" not in body
    assert 'value="24/18 &#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in body
    assert 'value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in body  # the message field


def test_it_refuses_a_stale_page(alice_client: Client, bx_game: Game) -> None:
    with unchanged(bx_game):
        response = alice_client.post(reverse("backgammon:game_act", args=[bx_game.pk]),
                                     {"kind": "play", "steps": "8-5,6-5", "expected_number": bx_game.action_count - 1})
    assert response.status_code == 409
    # The answer draws the game as it is now: it says so, rather than ask for a reload.
    assert STALE_PAGE_REDRAWN in text(response) and STALE_PAGE not in text(response)


def test_it_refuses_the_other_player_and_spectators(bob_client: Client, charlie_client: Client,
                                                    bx_game: Game) -> None:
    with unchanged(bx_game):
        bobs = post(bob_client, bx_game, "play", steps="8-5,6-5")
        charlies = post(charlie_client, bx_game, "play", steps="8-5,6-5")
    assert bobs.status_code == 400 and "It is not your turn: waiting for alice" in text(bobs)
    assert charlies.status_code == 403 and "only its players can move" in text(charlies)


def test_spectators_watch_from_blacks_side_without_controls(charlie_client: Client, bx_game: Game) -> None:
    response = page_of(charlie_client, bx_game, steps="8-5")
    body = text(response)
    assert response.status_code == 200 and links(response) == {}
    assert "watching" in body and "Waiting for alice to move." in body
    assert 'id="board-desc">alice (Black): 2 on 24' in body
    assert buttons(response) == []


def test_the_page_of_a_missing_game_is_404(alice_client: Client, db: None) -> None:
    assert alice_client.get(reverse("backgammon:game", args=[999999])).status_code == 404


def test_htmx_gets_only_the_game_region(alice_client: Client, bx_game: Game) -> None:
    response = alice_client.get(reverse("backgammon:game", args=[bx_game.pk]), {"steps": "8-5"},
                                headers={"HX-Request": "true"})
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="game"') and "<html" not in body
    assert "HX-Request" in response["Vary"]


CLICK = {"HX-Request": "true", "HX-Target": "game-main"}


def test_a_click_building_the_turn_gets_only_the_main_column(alice_client: Client, bx_game: Game) -> None:
    url = reverse("backgammon:game", args=[bx_game.pk])
    alice_client.get(url)  # the page the clicks come from
    with CaptureQueriesContext(connection) as main_queries:
        response = alice_client.get(url, {"steps": "8-5"}, headers=CLICK)
    with CaptureQueriesContext(connection) as region_queries:
        alice_client.get(url, {"steps": "8-5"}, headers={"HX-Request": "true"})
    assert len(main_queries) <= len(region_queries)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div class="game__main" id="game-main"')
    assert 'id="game"' not in body and 'class="panel moves"' not in body and "<html" not in body
    assert "move the checker on 6 by 1 to 5" in links(response) and "undo" in text(response)
    assert "HX-Target" in response["Vary"]
    finished = alice_client.get(url, {"steps": "8-5,6-5"}, headers=CLICK)
    assert "Your move is complete" in text(finished) and buttons(finished)[0] == "Submit"
    assert 'name="steps" value="8-5,6-5"' in finished.content.decode()
    # The same click asked for the whole region (a page from before this column existed) still gets it.
    whole = alice_client.get(url, {"steps": "8-5"}, headers={"HX-Request": "true"})
    assert 'class="panel moves"' in whole.content.decode()


def test_a_click_with_tampered_steps_says_so_in_the_main_column(alice_client: Client, bx_game: Game) -> None:
    with unchanged(bx_game):
        response = alice_client.get(reverse("backgammon:game", args=[bx_game.pk]), {"steps": "8-2"}, headers=CLICK)
    assert TAMPERED in text(response)
    assert "move the checker on 8 by 3 to 5" in links(response)


def test_turn_links_target_the_main_column_and_forms_the_whole_region(alice_client: Client, bx_game: Game) -> None:
    body = page_of(alice_client, bx_game, steps="8-5").content.decode()
    main = re.search(r'<div class="game__main" id="game-main" data-phase="move" hx-target="#game-main" '
                     r'hx-select="#game-main">', body)
    assert main is not None  # the board's checkers inherit it
    controls = re.search(r'<div class="controls" hx-target="#game" hx-select="#game">(.*)', body, re.DOTALL)
    assert controls is not None  # its forms (Submit, the typed move, resign) post and get the region back
    for label in ("undo", "start the turn again"):
        link = re.search(rf'<a href="[^"]*" ([^>]*)>{label}</a>', controls.group(1))
        assert link is not None and 'hx-target="#game-main" hx-select="#game-main"' in link.group(1)


def test_the_poll_answers_204_until_the_game_changes(alice_client: Client, bob_client: Client,
                                                     bx_game: Game, dice: Any,
                                                     django_assert_max_num_queries: Any) -> None:
    poll = reverse("backgammon:game_poll", args=[bx_game.pk])
    number = str(bx_game.action_count)
    bob_client.get(poll, {"n": number})  # the first request of a minute also marks bob as seen
    with django_assert_max_num_queries(3):  # session, user, and one indexed look-up of the game
        unchanged_answer = bob_client.get(poll, {"n": number}, headers={"HX-Request": "true"})
    assert unchanged_answer.status_code == 204
    dice.then((6, 4))
    post(alice_client, bx_game, "play", steps="8-5,6-5")
    changed = bob_client.get(poll, {"n": number}, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert changed.content.decode().lstrip().startswith('<section id="game"')
    assert "You rolled 6-4" in text(changed)


def test_a_poll_that_heard_of_a_later_action_reads_the_game_once(alice_client: Client, bob_client: Client,
                                                                  bx_game: Game, dice: Any) -> None:
    poll = reverse("backgammon:game_poll", args=[bx_game.pk])
    number = str(bx_game.action_count)
    bob_client.get(poll, {"n": number})  # the first request of a minute also marks bob as seen
    dice.then((6, 4))
    post(alice_client, bx_game, "play", steps="8-5,6-5")
    now = str(fresh(bx_game).action_count)
    htmx = {"HX-Request": "true"}
    bob_client.get(poll, {"n": number}, headers=htmx)  # once, so both ask with the same things kept
    with CaptureQueriesContext(connection) as plain:
        looked_up = bob_client.get(poll, {"n": number}, headers=htmx)
    with CaptureQueriesContext(connection) as told:
        heard = bob_client.get(poll, {"n": number, "heard": now}, headers=htmx)
    assert len(told) == len(plain) - 1
    assert heard.status_code == looked_up.status_code == 200
    unmasked = [re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text(answer)) for answer in (heard, looked_up)]
    assert "You rolled 6-4" in unmasked[0] and unmasked[0] == unmasked[1]
    # Told of news that is not there after all (or asked with nonsense): the usual answers.
    assert bob_client.get(poll, {"n": now, "heard": str(int(now) + 1)}, headers=htmx).status_code == 204
    assert bob_client.get(poll, {"n": "-5", "heard": now}, headers=htmx).status_code == 200  # the usual path
    for nonsense in ("x", "-1", "", now, "²", "9" * 5000, "1e9", " 7"):
        assert bob_client.get(poll, {"n": now, "heard": nonsense}, headers=htmx).status_code == 204


def test_a_poll_that_heard_news_of_a_private_game_tells_an_outsider_nothing(
        alice_client: Client, charlie_client: Client, bx_game: Game) -> None:
    alice_client.post(reverse("backgammon:game_privacy", args=[bx_game.pk]), {"private": "1"})
    poll = reverse("backgammon:game_poll", args=[bx_game.pk])
    answer = charlie_client.get(poll, {"n": "0", "heard": str(bx_game.action_count)})
    assert answer.status_code == 404 and "You rolled" not in text(answer)


def test_the_poll_that_heard_news_of_a_finished_game_stops(alice_client: Client, bob_client: Client,
                                                           bx_game: Game) -> None:
    post(alice_client, bx_game, "resign", level="1")
    post(bob_client, fresh(bx_game), "accept_resign")
    game = fresh(bx_game)
    poll = reverse("backgammon:game_poll", args=[game.pk])
    final = alice_client.get(poll, {"n": str(bx_game.action_count), "heard": str(game.action_count)})
    assert final.status_code == 200 and "bob won" in text(final)
    over = alice_client.get(poll, {"n": str(game.action_count), "heard": str(game.action_count + 1)})
    assert over.status_code == 286


def test_the_poll_stops_once_the_game_is_over(alice_client: Client, bob_client: Client, bx_game: Game) -> None:
    post(alice_client, bx_game, "resign", level="1")
    post(bob_client, fresh(bx_game), "accept_resign")
    game = fresh(bx_game)
    assert game.status == "finished"
    answer = alice_client.get(reverse("backgammon:game_poll", args=[game.pk]), {"n": str(game.action_count)})
    assert answer.status_code == 286
    over = page_of(alice_client, game)
    # The same words in the prompt, the players panel and the moves list.
    assert text(over).count("bob won: alice resigned (1 point)") == 3
    assert "game_poll" not in over.content.decode() and "/poll/" not in over.content.decode()


def test_the_roll_and_double_buttons_then_take_or_pass(alice_client: Client, bob_client: Client, alice: Any,
                                                       bob: Any, dice: Any) -> None:
    dice.then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    assert "Double" not in buttons(page_of(alice_client, game))  # no cube action before the first play
    game = service_act(game, alice, Action.play(((8, 5), (6, 5))))
    dice.then((6, 4))
    game = service_act(game, bob, Action.roll(1, 1))  # Bob may double, so he rolls himself
    game = service_act(game, bob, Action.play(((24, 18), (13, 9))))
    roll_page = page_of(alice_client, game)
    # Double asks for confirmation first (the default preference): a link to that step.
    assert buttons(roll_page) == ["Roll", "Offer to resign"]
    assert f'href="/games/{game.pk}/?confirm=double"' in text(roll_page)
    assert "Your turn: roll the dice, or double." in text(roll_page)
    assert post(alice_client, game, "double").status_code == 302
    game = fresh(game)
    answer = page_of(bob_client, game)
    assert buttons(answer) == ["Take", "Pass (drop)"]
    assert "alice doubles to 2: take, or pass and lose 1." in text(answer)
    assert "Waiting for bob to take or pass the double." in text(page_of(alice_client, game))
    dice.then((5, 2))
    assert post(bob_client, game, "take").status_code == 302
    game = fresh(game)
    assert game.cube_value == 2 and game.cube_owner == Side.WHITE
    body = text(page_of(alice_client, game))
    assert "2, owned by bob" in body and "<td>doubles to 2</td><td>takes</td>" in body


def test_after_a_beaver_the_doubler_is_offered_take_or_drop(alice_client: Client, bob_client: Client, alice: Any,
                                                            bob: Any, dice: Any) -> None:
    dice.then((3, 1))
    game = start_game(alice, bob, variant="MP", match_length=0, beavers=True)
    game = service_act(game, alice, Action.play(((8, 5), (6, 5))))
    game = service_act(game, bob, Action.double())
    offered = page_of(alice_client, game)
    assert buttons(offered) == ["Take", "Pass (drop)", "Beaver"]
    body = offered.content.decode()  # the plain yes first, the others secondary
    assert '"button" name="kind" value="take"' in body and '"button secondary" name="kind" value="beaver"' in body
    assert post(alice_client, game, "beaver").status_code == 302
    game = fresh(game)
    answer = page_of(bob_client, game)
    assert buttons(answer) == ["Take", "Pass (drop)"]
    assert "alice beavers to 4: take, or pass and lose 2." in text(answer)
    assert "Waiting for bob to take or pass the double." in text(page_of(alice_client, game))
    assert post(bob_client, game, "drop").status_code == 302
    game = fresh(game)
    assert (game.status, game.winner, game.score_black) == ("finished", alice, 2)


def test_it_shows_a_finished_match_game_and_the_next_game_starts(alice_client: Client, alice: Any, bob: Any,
                                                                 bob_client: Client, dice: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Alice has one checker left on her 1 point and Bob has borne off nothing: a gammon.
    starting_from(monkeypatch, position=position({1: 1}, {13: 15}))
    dice.then((6, 1), (4, 2))
    game = start_game(alice, bob, variant="BP", match_length=5)
    response = post(alice_client, game, "play", steps="1-off")
    assert response.status_code == 302
    game = fresh(game)
    assert (game.score_black, game.game_number) == (2, 2)
    body = text(page_of(bob_client, game))
    assert "Game 1: alice won a gammon (2 points). The next game has started." in body
    assert "alice 2 – 0 bob" in body
    # Once game 2 is under way the notice is old news; the moves list keeps game 1's result.
    assert post(alice_client, game, "play", moves_text="8/4 6/4").status_code == 302
    later = text(page_of(bob_client, fresh(game)))
    assert "The next game has started" not in later
    assert "alice won a gammon (2 points)" in later


def test_a_match_won_by_bearing_off_shows_the_ids_as_gnubg_pairs_them(alice_client: Client, alice: Any,
                                                                      bob: Any, dice: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # Alice (4-0 in a 5-point match) bears off her last checker. gnubg then passes the roll to
    # the loser: its Match ID has Bob on roll, and the Position ID beside it is Bob's side of the
    # board (tests/engine/test_match_id.py checks both against gnubg's own on 45 finished matches).
    starting_from(monkeypatch, position=position({1: 1}, {13: 15}), score=PerSide(4, 0))
    dice.then((6, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    assert post(alice_client, game, "play", steps="1-off").status_code == 302
    game = fresh(game)
    assert game.status == "finished"
    shown = re.findall(r"<dt>(Position ID|Match ID)</dt><dd><code[^>]*>([^<]+)</code>", text(page_of(alice_client, game)))
    ids = dict(shown)
    assert ids["Position ID"] == position({13: 15}, {}).id  # Bob's 15 on his 13 point, Alice's none
    assert decode_match_id(ids["Match ID"]).player_on_roll is Side.WHITE
    assert (ids["Position ID"], ids["Match ID"]) == (game.position_id, game.match_id)


def test_a_forced_pass_says_why_and_passes_the_turn(alice_client: Client, alice: Any, bob: Any,
                                                     dice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Alice has two checkers on the bar and Bob has closed his home board.
    starting_from(monkeypatch, position=position({25: 2, 13: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}))
    dice.then((6, 1), (4, 2))
    game = start_game(alice, bob, variant="BX", match_length=0)
    page = page_of(alice_client, game)
    assert "No legal move: every entry point is blocked" in text(page)
    assert links(page) == {}

    response = post(alice_client, game, "play", steps="")

    assert response.status_code == 302
    game = fresh(game)
    assert game.actor_id == bob.pk
    passed = game.actions.filter(kind="play").get()
    assert (passed.side, passed.data["moves"]) == (Side.BLACK, [])


def test_resigning_and_answering(alice_client: Client, bob_client: Client, bx_game: Game) -> None:
    page = page_of(alice_client, bx_game)
    assert 'name="level" value="1"' in page.content.decode()
    assert 'name="level" value="2"' not in page.content.decode()  # BX counts no gammons
    post(alice_client, bx_game, "resign", level="1")
    game = fresh(bx_game)
    answer = page_of(bob_client, game)
    assert buttons(answer) == ["Accept", "Reject"]
    assert "alice offers to resign a single game: accept or reject." in text(answer)


def test_the_match_file_downloads(alice_client: Client, charlie_client: Client, bx_game: Game, dice: Any) -> None:
    dice.then((6, 4))
    post(alice_client, bx_game, "play", steps="8-5,6-5")
    response = charlie_client.get(reverse("backgammon:game_mat", args=[bx_game.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="game-{bx_game.pk}.mat"'
    body = response.content.decode()
    assert "alice" in body and "bob" in body and "8/5 6/5" in body


def test_a_roll_reads_higher_die_first_in_the_opening_prompt_and_moves_list(
    alice_client: Client, bob_client: Client, alice: Any, bob: Any, dice: Any
) -> None:
    dice.then((5, 6))  # Alice's die 5, Bob's 6: Bob moves first with the dice as they fell, 5 then 6
    game = start_game(alice, bob, variant="BX", match_length=0)
    body = text(page_of(bob_client, game))
    assert "Opening roll: alice 5, bob 6. bob moves first with 6-5." in body
    assert "You rolled 6-5:" in body and "5-6" not in body
    dice.then((2, 1))
    assert post(bob_client, game, "play", moves_text="24/13").status_code == 302
    moves = text(page_of(alice_client, fresh(game)))
    assert "65: 24/13" in moves and "56:" not in moves


def test_after_swapping_the_prompt_names_the_die_a_click_plays(
    alice_client: Client, alice: Any, bob: Any, dice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Alice rolls 6-1 with everything on her 13 point; Bob holds her 12 point, so no checker moves by 1.
    starting_from(monkeypatch, position=position({13: 15}, {13: 2, 6: 13}))
    dice.then((6, 1))
    game = start_game(alice, bob, variant="BX", match_length=0)
    swapped = page_of(alice_client, game, swap="1")
    assert set(links(swapped)) == {"move the checker on 13 by 6 to 7"}
    assert "You rolled 6-1: click a checker to move it by 6." in text(swapped)


def turn_map(response: Any) -> Any:
    import json

    found = re.search(r'<script id="turn-map" type="application/json">(.*?)</script>', response.content.decode(),
                      re.DOTALL)
    return None if found is None else json.loads(found.group(1))


def test_the_player_to_move_gets_the_turns_click_map_and_nobody_else(
    alice_client: Client, bob_client: Client, charlie_client: Client, bx_game: Game
) -> None:
    clicks = turn_map(page_of(alice_client, bx_game, steps="8-5"))
    # The partial turns static/js/turn.js builds the move from, from the start of the turn; the
    # page's own steps are walked from there.
    assert clicks["dice"] == [3, 1] and clicks["steps"] == [[8, 5]] and clicks["swap"] is False
    start = clicks["nodes"][clicks["roots"][0]]
    assert start[0] == 0 and start[1] == [3, 1]
    assert clicks["prompts"][start[2]] == "You rolled 3-1: click a checker to move it by 3."
    assert start[3]["8"][:2] == [3, 5] and start[3]["24"][:2] == [3, 21]
    after = clicks["nodes"][start[3]["8"][2]]
    assert after[3]["6"][:2] == [1, 5] and clicks["nodes"][after[3]["6"][2]][0] == 1  # complete
    complete = clicks["nodes"][after[3]["6"][2]]
    assert clicks["prompts"][complete[2]] == "Your move is complete: Submit it, or undo a step."
    assert len(clicks["prompts"]) == len(set(clicks["prompts"]))  # each written once
    assert clicks["nodes"][clicks["roots"][1]][3]["6"][:2] == [1, 5]  # dice swapped: the 1 first
    assert clicks["base"] == f"/games/{bx_game.pk}/" and clicks["mine"][7] == 3 and clicks["off"] == [0, 0]
    assert turn_map(page_of(bob_client, bx_game)) is None  # waiting for Alice
    assert turn_map(page_of(charlie_client, bx_game)) is None  # watching


def test_no_click_map_for_a_forced_pass_or_the_step_confirming_a_move(
    alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch, dice: Any, bx_game: Game
) -> None:
    from accounts.models import Profile

    Profile.objects.filter(user=alice).update(confirm_submit=True)
    confirming = page_of(alice_client, bx_game, steps="8-5,6-5", confirm="submit")
    assert "Submit 8/5 6/5?" in text(confirming) and turn_map(confirming) is None
    starting_from(monkeypatch, position=position({25: 2, 13: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}))
    dice.then((6, 1))
    stuck = start_game(alice, bob, variant="BX", match_length=0)
    assert "No legal move" in text(page_of(alice_client, stuck)) and turn_map(page_of(alice_client, stuck)) is None
