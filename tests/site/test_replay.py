"""The replay page: the match step by step with plain links, the board, the IDs and XGID of each
step, the analysis beside each move once done, the chart, and messages for the players only."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from analysis.models import GameAnalysis
from analysis.report import analysis_report
from analysis.services import analysis_request, analysis_run
from backgammon.engine import decode_match_id
from backgammon.models import Game
from tests.site.test_analysis import finish_a_short_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    return finish_a_short_game(alice, bob, monkeypatch)


def page(client: Client, game: Game, step: Any = None) -> str:
    query = {} if step is None else {"step": step}
    response = client.get(reverse("analysis:replay", args=[game.pk]), query)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def words(body: str) -> str:
    return re.sub(r"<[^>]+>", "", body)


def analysed(game: Game, user: Any, capture: Any) -> GameAnalysis:
    with capture(execute=True):
        analysis = analysis_request(game_id=game.pk, user=user)
    analysis_run(analysis.pk)
    return GameAnalysis.objects.get(pk=analysis.pk)


def test_it_steps_through_every_decision_with_plain_links(finished_game: Game, alice_client: Client) -> None:
    first = page(alice_client, finished_game)
    # Three plays, the resignation and its acceptance, and the final position: steps 0 to 5.
    assert "Step 0 of 5" in words(first)
    assert 'href="?step=1"' in first and 'href="?step=5"' in first
    assert "alice plays 61:" in first
    assert "<svg class=\"board\"" in first
    assert "Position ID" in first and "XGID=" in first
    last = page(alice_client, finished_game, 5)
    assert "The final position." in last and 'href="?step=4"' in last and 'id="replay-next"' not in last
    assert "Step 5 of 5" in words(page(alice_client, finished_game, 99))  # clamped, not an error
    assert "Step 0 of 5" in words(page(alice_client, finished_game, "nonsense"))


def test_each_step_shows_its_own_ids(finished_game: Game, alice_client: Client) -> None:
    ids = set()
    for step in range(4):
        found = re.search(r'id="replay-position-id">([^<]+)<', page(alice_client, finished_game, step))
        assert found
        ids.add(found.group(1))
    assert len(ids) == 4
    start = page(alice_client, finished_game, 0)
    # Alice (Black, X) to play the opening 61: XG's own notation of that moment.
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:61:0:0:0:0:10" in start


def replay_ids(client: Client, game: Game, step: int) -> tuple[str, str]:
    body = page(client, game, step)
    found = re.search(r'id="replay-position-id">([^<]+)</code></dd>\s*<dt>Match ID</dt><dd><code>([^<]+)<', body)
    assert found, body
    return found.group(1), found.group(2)


def test_answer_steps_pair_the_ids_as_gnubg_does(alice: Any, bob: Any, alice_client: Client,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The audit's example: Black 31 8/5 6/5, White doubles. gnubg shows that Match ID with the
    # doubler's side of the board (sGfwATDgc/ABMA), not the taker's (4HPwATCwZ/ABMA); a
    # resignation waiting for its answer likewise with the resigner's side.
    from backgammon.engine.actions import Action
    from tests.site.gamebuilder import act, scripted_dice, start_game

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="BP", match_length=5)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    game = act(game, bob, Action.double())
    game = act(game, alice, Action.take())
    game = act(game, bob, Action.resign(1))
    game = act(game, alice, Action.reject_resign())
    # Steps: 0 Alice's play, 1 Bob's double, 2 Alice's take, 3 Bob's resignation, 4 its refusal.
    assert replay_ids(alice_client, game, 1) == ("sGfwATDgc/ABMA", "cAmgAAAAAAAE")
    assert replay_ids(alice_client, game, 2) == ("sGfwATDgc/ABMA", "cBGgAAAAAAAE")
    position_id, match_id = replay_ids(alice_client, game, 4)
    assert position_id == "sGfwATDgc/ABMA" and decode_match_id(match_id).resign_level == 1


def test_messages_are_for_the_players_only(finished_game: Game, bob_client: Client,
                                          charlie_client: Client) -> None:
    assert "Good luck" in page(bob_client, finished_game, 0)
    assert "Good luck" not in page(charlie_client, finished_game, 0)


def test_the_analysis_shows_beside_each_move_with_the_chart(finished_game: Game, alice: Any,
                                                          charlie_client: Client,
                                                          django_capture_on_commit_callbacks: Any) -> None:
    before = page(charlie_client, finished_game, 0)
    assert "No analysis yet" in before and "replay__chart" not in before
    analysis = analysed(finished_game, alice, django_capture_on_commit_callbacks)
    entry = next(e for e in analysis.results["actions"] if e["kind"] == "play")
    body = page(charlie_client, finished_game, 0)
    assert "Equity lost" in body and f"{entry['equity_loss']:.3f}" in body
    assert f"Best play</dt><dd>{entry['best']}" in body
    assert "Luck of the roll" in body
    assert body.count('class="chart__point"') == 3
    assert body.count('class="chart__marker"') == 1
    assert "Error rate (mEMG)" in body and "alice" in body


def test_a_double_and_a_pass_show_gnubgs_cube_verdict(alice: Any, bob: Any, alice_client: Client,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     django_capture_on_commit_callbacks: Any) -> None:
    from backgammon.engine.actions import Action
    from tests.site.gamebuilder import act, scripted_dice, start_game

    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(alice, bob, variant="MP", match_length=0)
    game = act(game, alice, Action.play([(8, 5), (6, 5)]))
    game = act(game, bob, Action.double())  # far too early: a wrong double
    game = act(game, alice, Action.drop())  # and an easy take passed
    assert game.status == Game.Status.FINISHED
    analysis = analysed(game, alice, django_capture_on_commit_callbacks)
    assert analysis.status == "done", analysis.failure
    assert analysis.results["cube_rated"] is True
    double, drop = analysis.results["actions"][2:4]
    assert (double["kind"], double["side"], drop["kind"], drop["side"]) == ("double", 1, "drop", 0)
    assert double["cube_error"] > 0.05 and double["proper"].startswith("No double")
    assert drop["cube_error"] > 0.5
    assert analysis.results["players"]["white"]["cube_decisions"] == 1
    body = page(alice_client, game, 1)  # the double
    assert "Right cube action" in body and double["proper"] in body
    assert f"{double['cube_error']:.3f}" in body


def test_a_missed_double_shows_beside_the_play_that_followed(alice: Any, bob: Any, alice_client: Client,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             django_capture_on_commit_callbacks: Any) -> None:
    from backgammon.engine.actions import Action
    from backgammon.services.games import roll_request
    from tests.site.gamebuilder import act, scripted_dice, start_game
    from tests.site.test_analysis import worst_and_best

    def play(game: Game, player: Any, *, worst: bool) -> Game:
        if game.state().can_double():
            game = act(game, player, roll_request())  # rolls rather than doubling
        chosen = worst_and_best(game)[0 if worst else 1]
        return act(game, player, Action.play([(m.origin, m.destination) for m in chosen.moves]))

    scripted_dice(monkeypatch).then((3, 1), (6, 4), (4, 4))
    game = start_game(alice, bob, variant="MP", match_length=0)
    game = play(game, alice, worst=False)
    assert game.state().can_double()
    game = play(game, bob, worst=True)  # Bob rolls (he may double: rightly not) and plays his worst
    game = play(game, alice, worst=False)  # Alice rolls 44 where gnubg doubles: a missed double
    game = act(game, bob, Action.resign(1))
    game = act(game, alice, Action.accept_resign())
    analysis = analysed(game, alice, django_capture_on_commit_callbacks)
    assert analysis.status == "done", analysis.failure
    rolls = [entry for entry in analysis.results["actions"] if entry["kind"] == "roll"]
    assert "cube_error" not in rolls[0]  # the opening roll: no cube decision
    assert rolls[1]["side"] == 1 and rolls[1]["cube_error"] == 0.0
    assert rolls[1]["proper"].startswith("No double")
    missed = rolls[2]
    assert missed["side"] == 0 and missed["cube_error"] > 0.05 and missed["proper"].startswith("Double")
    black = analysis.results["players"]["black"]
    assert (black["cube_decisions"], black["missed_doubles"], black["cube_lost"]) == (1, 1, missed["cube_error"])
    body = page(alice_client, game, 2)  # Alice's play of the 44
    assert f"No double</dt><dd class=\"replay__no-double\">gnubg: {missed['proper']} (missed double, -{missed['cube_error']:.3f})" in body
    assert "(missed double," not in page(alice_client, game, 1)  # Bob rolled rightly
    assert "No double</dt>" in page(alice_client, game, 1)


def test_an_analysis_stored_before_gnubgs_figures_were_kept_still_shows(finished_game: Game, alice: Any,
                                                                       alice_client: Client) -> None:
    # Stored by the earlier analysis (its own figures, no "figures" key, no stored marks, a
    # "cubeful" flag): the page and the API show it, with the summary recomputed from its entries
    # by gnubg's thresholds, as before.
    entries: list[dict[str, Any]] = []
    for number, action in enumerate(finished_game.actions.order_by("number"), start=1):
        kind = action.data["kind"]
        entry: dict[str, Any] = {"kind": kind, "side": None, "game": 1}
        if kind == "roll":
            entry.update(side=(number // 2) % 2, luck=0.25)
        elif kind == "play":
            entry.update(side=((number - 1) // 2) % 2, equity_loss=0.07 if number == 2 else 0.0,
                         best="13/7 8/7", choices=12, cubeful=True, win_black=0.5)
        entries.append(entry)
    analysis = GameAnalysis.objects.create(game=finished_game, status=GameAnalysis.Status.DONE, results={
        "plies": 0, "actions": entries, "players": {}, "cube_rated": False})
    body = page(alice_client, finished_game, 0)
    assert "Equity lost" in body and "0.070" in body and "Best play</dt><dd>13/7 8/7" in body
    assert "(bad)" in body  # more than 0.06: gnubg's "bad", computed on reading
    api = analysis_report(finished_game, analysis)  # what the API answers
    assert api["players"]["alice"]["errors"] == 1 and api["players"]["alice"]["error_rate"] > 0
    assert api["actions"][1]["mark"] == "bad" and api["actions"][0]["luck"] == 0.25
