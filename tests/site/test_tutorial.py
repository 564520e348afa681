"""The tutorial: every lesson renders for a visitor; the engine judges every answer (the lesson's
point, legal but beside it, illegal with the reason); input that is not an answer gets a 400 with a
message and a fresh board; nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from backgammon.tutorial import LESSONS, judge_decision, judge_move, judge_play, lesson_plays

pytestmark = pytest.mark.django_db

MOVE_LESSONS = [lesson for lesson in LESSONS if not lesson.is_cube_lesson]
ANSWERS = {1: "8/5 6/5", 2: "24/13", 3: "24/18(2) 13/7(2)", 4: "12/9 10/9", 5: "13/11* 13/8",
           6: "bar/22 13/7", 7: "5/off 2/off"}
MISSES = {1: "13/10 6/5", 2: "13/7 13/8", 3: "13/7(4)", 4: "13/10 6/5", 5: "13/8 6/4",
          7: "5/off 3/1"}
ILLEGAL = {
    1: ("13/10", "You must use both dice"),
    4: ("12/11 12/9", "Point 11 is blocked"),
    6: ("13/7 13/10", "A checker on the bar must enter first"),
    7: ("6/off 2/off", "You have no checker on point 6"),
}


def url(number: int) -> str:
    return f"/help/tutorial/{number}/"


def test_the_tutorial_is_linked_from_help_and_the_home_page(client: Client) -> None:
    home = client.get("/").content.decode()
    assert home.count('href="/help/tutorial/"') == 2  # HELP menu and the welcome text
    index = client.get("/help/tutorial/")
    assert index.status_code == 200
    for lesson in LESSONS:
        assert f'href="/help/tutorial/{lesson.number}/"' in index.content.decode()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: str(lesson.number))
def test_each_lesson_renders_for_a_visitor(client: Client, lesson: Any) -> None:
    response = client.get(url(lesson.number))
    assert response.status_code == 200
    body = response.content.decode()
    assert f"Lesson {lesson.number}:</span> {lesson.title}" in body.replace("&#x27;", "'")
    assert '<svg class="board"' in body
    if lesson.is_cube_lesson:
        assert 'name="decision" value="double"' in body
    else:
        assert 'class="move"' in body  # checkers to click
        assert body.count('type="radio" name="move"') == len(lesson_plays(lesson))


@pytest.mark.parametrize("lesson", MOVE_LESSONS, ids=lambda lesson: str(lesson.number))
def test_the_engine_judges_every_legal_play(lesson: Any) -> None:
    verdicts = {text: judge_play(lesson, play) for text, play in lesson_plays(lesson)}
    assert all(verdict.legal for verdict in verdicts.values())
    assert verdicts[judge_move(lesson, ANSWERS[lesson.number]).move_text].correct
    assert any(v.correct for v in verdicts.values())
    if lesson.number in MISSES:
        assert not judge_move(lesson, MISSES[lesson.number]).correct
        assert not all(v.correct for v in verdicts.values())
    # The list's texts read back as the same plays (what the radio buttons submit).
    for text, verdict in verdicts.items():
        assert judge_move(lesson, text) == verdict


@pytest.mark.parametrize("lesson", MOVE_LESSONS, ids=lambda lesson: str(lesson.number))
def test_the_page_says_well_done_for_the_lessons_move(client: Client, lesson: Any) -> None:
    response = client.get(url(lesson.number), {"move": ANSWERS[lesson.number]})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Well done!" in body
    if lesson.number < len(LESSONS):
        assert f'href="/help/tutorial/{lesson.number + 1}/">Next lesson' in body


def test_a_legal_move_beside_the_point_may_be_retried(client: Client) -> None:
    body = client.get(url(5), {"move": "13/8 6/4"}).content.decode()
    assert "Not quite." in body and "does not hit" in body
    assert 'href="/help/tutorial/5/" hx-get="/help/tutorial/5/" hx-push-url="true">Try again' in body


@pytest.mark.parametrize(("number", "move", "reason"), [(n, *ILLEGAL[n]) for n in ILLEGAL])
def test_an_illegal_move_gets_the_engines_reason(client: Client, number: int, move: str, reason: str) -> None:
    response = client.get(url(number), {"move": move})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Not allowed." in body and reason in body


def test_click_to_move_builds_the_turn_in_the_url(client: Client) -> None:
    body = client.get(url(1), {"steps": "8-5"}).content.decode()
    assert "Well done!" not in body
    assert 'href="/help/tutorial/1/?steps=8-5%2C6-5"' in body  # the 6 moves by the 1 next
    assert "undo" in body
    done = client.get(url(1), {"steps": "8-5,6-5"}).content.decode()
    assert "Well done!" in done
    missed = client.get(url(1), {"steps": "24-21,24-23"}).content.decode()
    assert "Not quite." in missed


def test_hitting_by_clicks(client: Client) -> None:
    body = client.get(url(5), {"steps": "13-11,13-8"}).content.decode()
    assert "Well done!" in body and "That hits" in body


def test_the_cube_lesson(client: Client) -> None:
    assert judge_decision(LESSONS[7], "double").correct
    assert not judge_decision(LESSONS[7], "roll").correct
    double = client.get(url(8), {"decision": "double"}).content.decode()
    assert "Well done!" in double and "The cube now offers 2" in double
    assert "Not quite." in client.get(url(8), {"decision": "roll"}).content.decode()


@pytest.mark.parametrize(("number", "query", "message"), [
    (1, {"steps": "x"}, "do not fit this lesson"),
    (1, {"steps": "24-1"}, "do not fit this lesson"),
    (1, {"steps": "8-5,6-5,13-12"}, "do not fit this lesson"),
    (1, {"steps": "8-5,8-5,8-5,8-5,8-5"}, "at most four moves"),
    (1, {"move": "zz"}, "Not a move: &#x27;zz&#x27;"),
    (1, {"move": ""}, "Write a move"),
    (1, {"move": "13/10 " * 20}, "at most 60 characters"),
    (1, {"move": "<script>alert(1)</script>"}, "&lt;script&gt;"),
    (8, {"decision": "maybe"}, "is not a choice here"),
])
def test_input_that_is_not_an_answer_is_a_400_with_a_fresh_board(
    client: Client, number: int, query: dict[str, str], message: str
) -> None:
    response = client.get(url(number), query)
    assert response.status_code == 400
    body = response.content.decode()
    assert message in body
    assert "<script>alert" not in body
    assert '<svg class="board"' in body and "Well done!" not in body


def test_unknown_lessons_are_404_and_the_pages_take_get_only(client: Client) -> None:
    assert client.get("/help/tutorial/0/").status_code == 404
    assert client.get("/help/tutorial/9/").status_code == 404
    assert client.post(url(1), {"move": "8/5 6/5"}).status_code == 405
    assert client.post("/help/tutorial/").status_code == 405


def test_a_lesson_makes_no_query_for_a_visitor(client: Client, django_assert_max_num_queries: Any) -> None:
    with django_assert_max_num_queries(0):
        assert client.get(url(1), {"steps": "8-5"}).status_code == 200


def test_players_see_the_tutorial_too(alice_client: Client) -> None:
    body = alice_client.get(url(8), {"decision": "double"}).content.decode()
    assert 'href="/games/new/"' in body  # the last lesson leads to a real game


@pytest.mark.parametrize("query", [{"move": "8/5\x00 6/5"}, {"steps": "8-5\x00"}, {"decision": "\x00"}])
def test_a_nul_anywhere_is_a_400(client: Client, query: dict[str, str]) -> None:
    number = 8 if "decision" in query else 1
    assert client.get(url(number), query).status_code == 400
