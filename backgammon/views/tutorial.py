"""The tutorial's pages: the list of lessons and one page per lesson with a board to play on.

Nothing is stored: the turn being built is in the URL (``?steps=8-5,6-5&swap=1``, as on the game
page), a whole move typed or chosen from the list is ``?move=8/5 6/5`` and the cube lesson's
answer ``?decision=double``. Every page works for visitors and with JavaScript off (links and GET
forms); htmx only swaps the lesson region. Input that is not an answer (a malformed or tampered
URL, text that is not a move) gets a 400 with the reason and a fresh board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from backgammon.board_svg import MoveLink, layout_board
from backgammon.engine import EngineError, Position, Side
from backgammon.engine.notation import parse_play
from backgammon.engine.turn import Turn
from backgammon.game_page import format_steps, parse_steps
from backgammon.tutorial import (
    LESSONS,
    Lesson,
    Verdict,
    find_lesson,
    judge_decision,
    judge_move,
    judge_play,
    lesson_plays,
)

__all__ = ["tutorial_index", "tutorial_lesson"]

NAMES = ("You (Black)", "Your opponent (White)")
TAMPERED = "Those moves do not fit this lesson's roll: start again from the lesson's position"


@require_GET
def tutorial_index(request: HttpRequest) -> HttpResponse:
    return render(request, "backgammon/tutorial.html", {"lessons": LESSONS})


class _BadAnswer(ValueError):
    """Input that is not an answer at all: the page says why, with status 400."""


def _turn(lesson: Lesson, steps_text: str, swap: bool) -> Turn:
    assert lesson.dice is not None
    dice = (lesson.dice[1], lesson.dice[0]) if swap else lesson.dice
    turn = Turn(lesson.position, dice)
    try:
        for origin, destination in parse_steps(steps_text):
            turn = turn.step_to(origin, destination)
    except ValueError as error:  # EngineError is a ValueError too
        raise _BadAnswer(TAMPERED if isinstance(error, EngineError) else f"{TAMPERED} ({error})") from None
    return turn


def _link_maker(lesson: Lesson) -> Any:
    base = reverse("backgammon:tutorial_lesson", args=[lesson.number])

    def link(steps: str = "", swap: bool = False) -> str:
        query = {key: value for key, value in (("steps", steps), ("swap", "1" if swap else "")) if value}
        return f"{base}?{urlencode(query)}" if query else base

    return link


@dataclass(frozen=True, slots=True)
class _Answer:
    """The turn being built (None once answered), the verdict if any, the board to show and the
    checker moves of the answered play (outlined on it)."""

    turn: Turn | None
    verdict: Verdict | None
    position: Position
    played: tuple[tuple[int, int], ...] = ()


def _answer(lesson: Lesson, request: HttpRequest) -> _Answer:
    query = request.GET
    if lesson.is_cube_lesson:
        decision = query.get("decision")
        if decision is None:
            return _Answer(None, None, lesson.position)
        try:
            return _Answer(None, judge_decision(lesson, decision), lesson.position)
        except ValueError as error:
            raise _BadAnswer(str(error)) from None
    if "move" in query:
        try:
            verdict = judge_move(lesson, query["move"])
        except EngineError as error:
            raise _BadAnswer(str(error)) from None
        if not verdict.legal:
            return _Answer(None, verdict, lesson.position)
        assert lesson.dice is not None
        play = parse_play(lesson.position, lesson.dice, verdict.move_text)
        return _Answer(None, verdict, play.result, tuple((m.origin, m.destination) for m in play.moves))
    turn = _turn(lesson, query.get("steps", ""), query.get("swap") == "1")
    if turn.is_complete():
        played = tuple((m.origin, m.destination) for m in turn.steps)
        return _Answer(None, judge_play(lesson, turn.play()), turn.current, played)
    return _Answer(turn, None, turn.current)


def _board(lesson: Lesson, answer: _Answer, link: Any, swap: bool) -> Any:
    turn, verdict = answer.turn, answer.verdict
    moves = []
    dice: tuple[tuple[int, bool], ...] = ()
    steps: list[tuple[int, int]] = list(answer.played)
    if turn is not None:
        steps = [(m.origin, m.destination) for m in turn.steps]
        remaining = list(turn.remaining_dice())
        shown = turn.dice * 2 if turn.dice[0] == turn.dice[1] else turn.dice
        for value in shown:  # a die is shown used once a step has used it
            if value in remaining:
                remaining.remove(value)
                dice += ((value, False),)
            else:
                dice += ((value, True),)
        for origin, (die, destination) in sorted(turn.movable().items(), reverse=True):
            moves.append(MoveLink(origin, destination, die,
                                  link(format_steps([*steps, (origin, destination)]), swap)))
    elif lesson.dice is not None:
        dice = tuple((value, True) for value in lesson.dice)
    # The cube lesson's double, once made, shows the cube turned to 2 on the doubler's side.
    cube = (2, "offered-mine") if lesson.is_cube_lesson and verdict and verdict.correct else (1, None)
    return layout_board(answer.position, viewer=Side.BLACK, names=NAMES, my_dice=dice, cube=cube,
                        steps=steps, moves=moves)


@require_GET
def tutorial_lesson(request: HttpRequest, number: int) -> HttpResponse:
    lesson = find_lesson(number)
    if lesson is None:
        raise Http404("There is no such lesson.")
    link = _link_maker(lesson)
    swap = request.GET.get("swap") == "1"
    error, status = "", 200
    try:
        answer = _answer(lesson, request)
    except _BadAnswer as refusal:
        error, status, swap = str(refusal), 400, False
        fresh = None if lesson.dice is None else Turn(lesson.position, lesson.dice)
        answer = _Answer(fresh, None, lesson.position)
    turn, verdict = answer.turn, answer.verdict
    context = {
        "lesson": lesson,
        "lessons": LESSONS,
        "next_lesson": find_lesson(number + 1),
        "previous_lesson": find_lesson(number - 1) if number > 1 else None,
        "board": _board(lesson, answer, link, swap),
        "turn": turn,
        "verdict": verdict,
        "error": error,
        "retry_url": link(),
        "undo_url": link(format_steps([(m.origin, m.destination) for m in turn.steps[:-1]]), swap)
        if turn is not None and turn.steps else None,
        "swap_url": link("", not swap) if turn is not None and not turn.steps
        and turn.dice[0] != turn.dice[1] else None,
        "plays": [] if lesson.is_cube_lesson else [text for text, _ in lesson_plays(lesson)],
        "move_text": request.GET.get("move", "")[:80] if status == 400 else "",
    }
    return render(request, "backgammon/tutorial_lesson.html", context, status=status)
