"""The answer to a roll that leaves the roller to move (backgammon/views/game.py, _rolled.html): the
region's main column, swapped in for the page's, with the few other parts a roll changes out of
band. Checked as the page sees it: the page before the roll with the answer put in as htmx puts it
(the main column replaced, each out-of-band part replaced, the region's class following the main
column's phase, as static/js/live.js sets it) is the region the page would fetch after the roll."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from gamebuilder import act, position, scripted_dice, start_game, starting_from

from accounts.models import Profile
from backgammon.engine import TimeControl
from backgammon.engine.actions import Action
from backgammon.models import Game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "game"}
MAIN_START = '<div class="game__main" id="game-main"'
CLOSED = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}  # White's closed board, from White's side
DANCING = position({25: 1, 6: 14}, CLOSED)  # alice's checker on the bar cannot enter
OUT_OF_BAND = (r'<div id="game-alerts"[^>]*>.*?</div>', r'<code id="match-id"[^>]*>.*?</code>',
               r'<span id="time-left"[^>]*>.*?</span>', r'<div id="game-poll"[^>]*></div>')


def _region(client: Client, game: Game) -> str:
    """The game region as the page asks for it."""
    return _plain(client.get(f"/games/{game.pk}/poll/?n=0", **HTMX).content.decode())


def _plain(markup: str) -> str:
    """Written alike: the forms' CSRF tokens (masked afresh on each answer) and the clocks'
    reading (a few milliseconds apart)."""
    markup = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken" value="-"', markup)
    return re.sub(r"data-match-clock='[^']*'", "data-match-clock='-'", markup)


def _roll(client: Client, game: Game) -> Any:
    return client.post(f"/games/{game.pk}/act/", {"kind": "roll", "expected_number": game.action_count}, **HTMX)


def _put_in(page: str, answer: str) -> str:
    """What htmx makes of the page's region with the roll's answer (HX-Retarget and HX-Reselect:
    the main column): each out-of-band part first, then the main column, then live.js's class."""
    main_end = answer.index('<div id="game-alerts" hx-swap-oob="true">')
    for pattern in OUT_OF_BAND:
        part = re.search(pattern, answer[main_end:], re.DOTALL)
        if part is None:
            assert re.search(pattern, page, re.DOTALL) is None, f"the page keeps {pattern}"
            continue
        fresh = part.group(0).replace(' hx-swap-oob="true"', "")
        page, count = re.subn(pattern, lambda _found, fresh=fresh: fresh, page, count=1, flags=re.DOTALL)
        assert count == 1, pattern
    start, end = page.index(MAIN_START), page.index('<aside class="game__side"')
    page = page[:start] + answer[:main_end].strip() + "\n    " + page[end:]
    phase = re.search(r'id="game-main" data-phase="([a-z_]+)"', answer)
    assert phase is not None
    return re.sub(r'class="game game--[a-z_]+"', f'class="game game--{phase.group(1)}"', page, count=1)


def _opened(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, *, live: bool) -> Game:
    """A 5-point match in which alice opened with 3-1 and bob is to roll (or double), then rolls 4-2."""
    scripted_dice(monkeypatch).then((3, 1), (4, 2))
    options: dict[str, Any] = {"time_control": TimeControl.live(12, 300)} if live else {}
    game = start_game(alice, bob, "BP", match_length=5, **options)
    return act(game, alice, Action.play(((8, 5), (6, 5))))


@pytest.mark.parametrize("live,home_left", [(False, False), (True, False), (False, True)])
def test_a_roll_is_answered_with_the_parts_of_the_region_it_changes(
        alice: Any, bob: Any, bob_client: Client, monkeypatch: pytest.MonkeyPatch, live: bool,
        home_left: bool) -> None:
    Profile.objects.filter(user=bob).update(home_board_left=home_left)
    game = _opened(alice, bob, monkeypatch, live=live)
    if not live:  # bob rolls five hours into the three days her move gave him
        Game.objects.filter(pk=game.pk).update(deadline=F("deadline") - timedelta(hours=5))
    before = _region(bob_client, game)
    assert 'class="game game--roll"' in before and 'data-phase="roll"' in before

    answer = _roll(bob_client, game)

    assert answer.status_code == 200
    assert (answer["HX-Retarget"], answer["HX-Reselect"]) == ("#game-main", "#game-main")
    assert answer["HX-Reswap"] == "outerHTML show:none"
    body = answer.content.decode()
    # Neither the moves list nor the players' panel is sent again.
    assert 'id="game"' not in body and 'class="panel moves"' not in body and 'id="turn-map"' in body
    rolled = Game.objects.get(pk=game.pk)
    assert (rolled.phase, rolled.actor, rolled.action_count) == ("move", bob, game.action_count + 1)
    assert f'data-number="{rolled.action_count}"' in body and rolled.match_id in body
    assert ('<span id="time-left" hx-swap-oob="true">' in body) is not live
    assert _put_in(_plain(before), _plain(body)) == _region(bob_client, rolled)


def test_a_roll_clears_the_alert_the_page_showed(alice: Any, bob: Any, bob_client: Client,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    game = _opened(alice, bob, monkeypatch, live=False)
    stale = bob_client.post(f"/games/{game.pk}/act/", {"kind": "roll", "expected_number": game.action_count - 1},
                            **HTMX)
    assert stale.status_code == 409
    before = _plain(stale.content.decode())
    assert '<div id="game-alerts"><p class="game__alert" role="alert">' in before

    answer = _roll(bob_client, game)

    assert answer.status_code == 200 and "HX-Retarget" in answer
    after = _put_in(before, _plain(answer.content.decode()))
    assert '<div id="game-alerts"></div>' in after
    assert after == _region(bob_client, Game.objects.get(pk=game.pk))


@pytest.mark.parametrize("dance_choice", ["never", "always"])
def test_a_roll_that_passed_by_itself_is_answered_with_the_whole_region(
        alice: Any, bob: Any, alice_client: Client, monkeypatch: pytest.MonkeyPatch, dance_choice: str) -> None:
    """alice, on the bar against a closed board, rolls and dances: with "pass a dance by itself"
    the turn has gone on to bob, and her answer is the region; otherwise it is hers to pass."""
    starting_from(monkeypatch, position=DANCING)
    scripted_dice(monkeypatch).then((6, 1), (6, 5), (4, 2))  # she opens with 6-1 and dances
    game = start_game(alice, bob, "BP", match_length=5, time_limit=timedelta(days=3))
    game = act(game, alice, Action.play([]))
    game = act(game, bob, Action.roll(6, 5))
    game = act(game, bob, Action.play(((13, 7), (13, 8))))
    assert (game.phase, game.actor) == ("roll", alice)
    Profile.objects.filter(user=alice).update(auto_pass_dance=dance_choice)

    answer = _roll(alice_client, game)

    assert answer.status_code == 200
    passed = Game.objects.get(pk=game.pk)
    body = answer.content.decode()
    if dance_choice == "always":
        assert (passed.phase, passed.actor) == ("roll", bob)
        assert "HX-Retarget" not in answer and body.lstrip().startswith('<section id="game"')
    else:
        assert (passed.phase, passed.actor) == ("move", alice)
        assert answer["HX-Retarget"] == "#game-main" and 'id="game"' not in body


def test_other_actions_and_plain_forms_are_answered_as_before(alice: Any, bob: Any, bob_client: Client,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game = _opened(alice, bob, monkeypatch, live=False)
    doubled = bob_client.post(f"/games/{game.pk}/act/", {"kind": "double", "expected_number": game.action_count},
                              **HTMX)
    assert doubled.status_code == 200 and "HX-Retarget" not in doubled
    assert doubled.content.decode().lstrip().startswith('<section id="game"')
    # A browser without JavaScript posts the form itself: post, redirect, get.
    game = _opened(alice, bob, monkeypatch, live=False)
    plain = bob_client.post(f"/games/{game.pk}/act/", {"kind": "roll", "expected_number": game.action_count})
    assert plain.status_code == 302 and plain["Location"] == f"/games/{game.pk}/"
    assert Game.objects.get(pk=game.pk).phase == "move"
