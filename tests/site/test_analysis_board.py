"""The analysis board's page: set a position up by clicking or paste its IDs, ask, and read
gnubg's answer; the worker computes it, web processes never load gnubg."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from analysis.board_setup import BoardSetup, Tool
from analysis.models import PositionAnalysis
from analysis.position_services import position_analysis_run
from backgammon.engine import BAR, Side
from tests.site.test_analysis import finish_a_short_game

pytestmark = pytest.mark.django_db

BOARD = reverse("analysis:board")
START = BoardSetup.starting().xgid
ROLLED = "XGID=-b----E-C---eE---c-e----B-:0:0:1:63:0:0:0:5:10"


def page(client: Client, **params: str) -> tuple[int, str]:
    response = client.get(BOARD, params)
    return response.status_code, html.unescape(response.content.decode())


def point_links(body: str) -> dict[int, str]:
    """The set-up links on the board, by point."""
    links = re.findall(r'<a class="move" href="([^"]+)"[^>]*data-origin="(\d+)"', body)
    return {int(point): href for href, point in links}


def run_queued() -> None:
    for row in PositionAnalysis.objects.filter(status="queued"):
        position_analysis_run(row.pk)


def test_the_page_shows_the_starting_position_with_every_point_clickable(client: Client) -> None:
    status, body = page(client)
    assert status == 200
    assert "Analysis board" in body and f'id="board-xgid">{START}<' in body
    assert sorted(point_links(body)) == [*range(1, 25), BAR]
    assert 'id="analyse"' in body
    assert not PositionAnalysis.objects.exists()  # nothing is analysed until asked


def test_a_click_adds_or_removes_a_checker_through_the_address(client: Client) -> None:
    empty = BoardSetup.empty()
    _, body = page(client, xgid=empty.xgid, tool="black")
    assert "Not a position to analyse yet" in body and "borne off every checker" in body
    href = point_links(body)[6]
    params = parse_qs(urlsplit(href).query)
    assert params["tool"] == ["black"]
    after = BoardSetup.from_xgid(params["xgid"][0])
    assert after.black[5] == 1 and sum(after.black) == 1
    assert after.clicked(6, Tool.REMOVE) == empty
    white_on_black = after.clicked(6, Tool.WHITE)
    assert white_on_black.black[5] == 0 and white_on_black.white[24 - 6] == 1
    assert BoardSetup.starting().clicked(6, Tool.BLACK) == BoardSetup.starting()  # all 15 are on


def test_the_settings_form_sets_turn_dice_cube_and_score(client: Client) -> None:
    status, body = page(client, xgid=START, set="1", turn="white", roll="52", cube="2", owner="black",
                        length="7", score_black="3", score_white="4")
    assert status == 200
    setup = BoardSetup.from_xgid(re.search(r'id="board-xgid">([^<]+)<', body).group(1))
    assert (setup.on_roll, setup.dice, setup.cube_value, setup.cube_owner) == (Side.WHITE, "52", 2, Side.BLACK)
    assert (setup.length, setup.score_black, setup.score_white) == (7, 3, 4)
    assert setup.problem == ""


@pytest.mark.parametrize(("params", "words"), [
    ({"xgid": "XGID=nonsense"}, "ten fields"),
    ({"xgid": START, "set": "1", "cube": "3"}, "power of 2"),
    ({"xgid": START, "set": "1", "length": "x"}, "whole number"),
    ({"xgid": START, "set": "1", "roll": "77"}, "from the list"),
    ({"position_id": "4HPwATDgc/ABMA", "match_id": "bad"}, "12 characters"),
    ({"xgid": ROLLED, "dice": "99", "analyse": "1"}, "not a roll"),
])
def test_bad_input_is_refused_with_a_message_and_changes_nothing(client: Client, params: dict[str, str],
                                                                  words: str) -> None:
    status, body = page(client, **params)
    assert status == 400 and words in body
    assert f'id="board-xgid">{START}<' in body  # the starting position again
    assert not PositionAnalysis.objects.exists()


def test_asking_queues_the_worker_and_the_page_polls_for_the_answer(alice_client: Client,
                                                                    django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        status, body = page(alice_client, xgid=ROLLED, analyse="1")
    assert status == 200 and "Thinking" in body
    poll = re.search(r'hx-get="([^"]+)" hx-trigger="load delay', body).group(1)
    assert alice_client.get(poll).content.decode().count("Thinking") == 1
    run_queued()
    answer = html.unescape(alice_client.get(poll).content.decode())
    assert "Thinking" not in answer and "hx-trigger" not in answer
    rows = re.findall(r'<tr><td>(\d+)</td><td><a href="([^"]+)"[^>]*>([^<]+)</a></td>', answer)
    assert (rows[0][0], rows[0][2]) == ("1", "24/15") and len(rows) == 14  # 12 shown, 2 folded
    assert "The other 2 plays" in answer
    assert "Cube before the roll: <strong>No double, take</strong>" in answer
    assert "Look deeper: 2-ply" in answer
    # A play's link shows the board after it, its moves marked, and nothing to click.
    _, shown = page(alice_client, **{key: value[0] for key, value in parse_qs(urlsplit(rows[0][1]).query).items()})
    assert "The board after <strong>24/15</strong>" in shown and not point_links(shown)
    assert shown.count('outline-step outline-to') == 2  # 24/18/15: two steps
    # Asked again by anyone, the kept answer shows at once.
    _, again = page(Client(), xgid=ROLLED, analyse="1")
    assert "24/18 13/10" in again and PositionAnalysis.objects.count() == 1


def test_pasted_ids_are_analysed_at_once(alice_client: Client) -> None:
    status, body = page(alice_client, position_id="4HPwATDgc/ABMA", match_id="MIGlAAAAAAAE", dice="",
                        analyse="1")
    assert status == 200 and f'id="board-xgid">{ROLLED.replace(":63:", ":31:")}<' in body
    assert PositionAnalysis.objects.get().plies == 0
    page(alice_client, xgid=ROLLED, analyse="1", plies="2")
    assert sorted(PositionAnalysis.objects.values_list("plies", flat=True)) == [0, 2]


@override_settings(POSITION_ANALYSES_PER_MINUTE=1)
def test_visitors_are_limited_by_address(client: Client) -> None:
    assert page(client, xgid=ROLLED, analyse="1")[0] == 200
    status, body = page(client, xgid=ROLLED.replace(":63:", ":21:"), analyse="1")
    assert status == 429 and "1 new positions in the last minute" in body
    assert PositionAnalysis.objects.get().requested_from == "address:127.0.0.1"


def test_a_bad_answer_address_is_refused(client: Client) -> None:
    answer = reverse("analysis:board_answer")
    assert client.get(answer, {"xgid": "nonsense"}).status_code == 400
    assert client.get(answer, {"xgid": ROLLED}).status_code == 404  # never asked for


def test_every_replay_step_links_to_the_board(alice: Any, bob: Any, alice_client: Client,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game = finish_a_short_game(alice, bob, monkeypatch)
    replay = reverse("analysis:replay", args=[game.pk])
    body = html.unescape(alice_client.get(replay, {"step": "2"}).content.decode())
    link = re.search(r'id="replay-analyse" href="([^"]+)"', body).group(1)
    xgid = parse_qs(urlsplit(link).query)["xgid"][0]
    assert xgid in body and "analyse=1" in link
    assert alice_client.get(link).status_code == 200


def test_web_processes_never_load_gnubg() -> None:
    script = ("import sys, django; django.setup(); import gamesite.urls, api.api, analysis.board_views; "
              "print('gnubg loaded' if 'gnubg' in sys.modules else 'gnubg not loaded')")
    printed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                             env={**__import__("os").environ, "DJANGO_SETTINGS_MODULE": "gamesite.settings"})
    assert printed.stdout.strip() == "gnubg not loaded"


@pytest.mark.parametrize("xgid", [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:\u00b2\u00b2:0:0:0:5:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:\u00b2:0:0:5:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10\x00",
    "XGID=-b----E-C---eE---c-e\x00---B-:0:0:1:00:0:0:0:5:10",
])
def test_odd_characters_in_an_xgid_are_refused_with_400(client: Client, xgid: str) -> None:
    status, _ = page(client, xgid=xgid, analyse="1")
    assert status == 400
    assert not PositionAnalysis.objects.exists()


def test_odd_digits_in_the_settings_form_are_refused(client: Client) -> None:
    status, _ = page(client, xgid=START, set="1", length="\u00b2")
    assert status == 400
