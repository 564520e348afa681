"""The analysis board's page: paste an XGID (or a Position ID and a Match ID), or set a position
up by clicking, and read gnubg's plays and cube decision beside it.

Everything is in the address (``?xgid=...``), so every board can be linked to and the browser's
back button undoes a click. The analysis itself runs in the worker (position_services); the page
shows the kept answer, or polls for it (``analysis_board_answer``) until it comes. Visitors may
use it too: their new positions count against their address's share.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from accounts.login_guard import client_address
from backgammon.board_svg import Board, layout_board, point_links
from backgammon.engine import (
    BAR,
    OFF,
    EngineError,
    InvalidIdError,
    Play,
    Side,
    encode_xgid,
    format_play,
    parse_play,
    state_for_analysis,
)
from backgammon.engine.game import MAX_CUBE

from .board_setup import BoardSetup, Tool
from .models import PositionAnalysis
from .position_input import MAX_INPUT, board_state
from .position_services import PositionLimitReached, position_analysis_ask

__all__ = ["analysis_board", "analysis_board_answer"]

_NAMES = ("Black", "White")
_TOOL_WORDS = {Tool.BLACK: "add a Black checker on", Tool.WHITE: "add a White checker on",
               Tool.REMOVE: "remove a checker from"}
_DICE = ["00", *[f"{high}{low}" for high in range(6, 0, -1) for low in range(high, 0, -1)], "D"]


@require_GET
def analysis_board(request: HttpRequest) -> HttpResponse:
    query = request.GET
    tool = _tool(query.get("tool", ""))
    plies = 2 if query.get("plies") == "2" else 0
    error, status = "", 200
    try:
        setup, analyse = _read(query)
    except (EngineError, ValueError) as refusal:
        error, status = str(refusal), 400
        setup, analyse = BoardSetup.starting(), False
    shown = _shown_play(setup, query.get("show", ""))
    analysis = None
    if analyse and not setup.problem:
        try:
            analysis = position_analysis_ask(setup.state(), plies, user=request.user,
                                              address=client_address(request) or "")
        except PositionLimitReached as refusal:
            error, status = refusal.message, 429
    context = {
        "setup": setup,
        "board": _board(setup, tool, shown),
        "shown": shown,
        "shown_text": format_play(shown) if shown else "",
        "unshow_url": _link(setup.xgid, tool=tool, analyse="1", plies=str(plies)),
        "tool": tool,
        "tools": [(choice, _link(setup.xgid, tool=choice)) for choice in Tool],
        "full": setup.full(tool),
        "error": error,
        "plies": plies,
        "analysis": analysis,
        "answer": _answer_context(analysis, setup, plies),
        "answer_url": _answer_url(setup, plies) if analysis else "",
        "analyse_url": _link(setup.xgid, tool=tool, analyse="1"),
        "deeper_url": _link(setup.xgid, tool=tool, analyse="1", plies="2"),
        "retry_url": _link(setup.xgid, tool=tool, analyse="1", plies=str(plies)),
        "starting_url": _link(BoardSetup.starting().xgid, tool=tool),
        "empty_url": _link(BoardSetup.empty().xgid, tool=tool),
        "dice_choices": _DICE,
        "cube_choices": [1 << log for log in range(MAX_CUBE.bit_length())],
        "max_input": MAX_INPUT,
    }
    return render(request, "analysis/board.html", context, status=status)


@require_GET
def analysis_board_answer(request: HttpRequest) -> HttpResponse:
    """The answer's panel alone, polled by the page until the worker has answered."""
    plies = 2 if request.GET.get("plies") == "2" else 0
    try:
        setup = BoardSetup.from_xgid(request.GET.get("xgid", "")[:MAX_INPUT])
        xgid = encode_xgid(state_for_analysis(setup.state()))
    except EngineError as refusal:
        return HttpResponse(str(refusal), status=400, content_type="text/plain")
    analysis = PositionAnalysis.objects.filter(xgid=xgid, plies=plies).first()
    if analysis is None:
        return HttpResponse("This position has not been asked for.", status=404, content_type="text/plain")
    context = {"analysis": analysis, "answer": _answer_context(analysis, setup, plies), "plies": plies,
               "setup": setup,
               "answer_url": _answer_url(setup, plies),
               "deeper_url": _link(setup.xgid, analyse="1", plies="2"),
               "retry_url": _link(setup.xgid, analyse="1", plies=str(plies))}
    return render(request, "analysis/_board_answer.html", context)


def _read(query: QueryDict) -> tuple[BoardSetup, bool]:
    """The set-up the address names, and whether it asks for the analysis."""
    analyse = query.get("analyse") == "1"
    position_id, match_id = query.get("position_id", "").strip(), query.get("match_id", "").strip()
    xgid, dice = query.get("xgid", "").strip(), query.get("dice", "").strip()
    if position_id or match_id or (xgid and dice):
        # The paste form: IDs as gnubg or XG write them, read strictly.
        state = board_state(xgid=xgid, position_id=position_id, match_id=match_id, dice=dice,
                            beavers=query.get("beavers") == "1")
        return BoardSetup.from_state(state), True
    if len(xgid) > MAX_INPUT:
        raise InvalidIdError(f"An ID has at most {MAX_INPUT} characters")
    setup = BoardSetup.from_xgid(xgid) if xgid else BoardSetup.starting()
    if query.get("set") == "1":
        setup = _with_settings(setup, query)
    return setup, analyse


def _with_settings(setup: BoardSetup, query: QueryDict) -> BoardSetup:
    """The set-up with the settings form's choices: who is on roll, the dice, cube and score."""
    def number(name: str, low: int, high: int) -> int:
        text = query.get(name, "0").strip() or "0"
        if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
            raise ValueError(f"The {name.replace('_', ' ')} must be a whole number from {low} to {high}.")
        return int(text)

    dice = query.get("roll", "00")
    if dice not in _DICE:
        raise ValueError("Choose the dice from the list.")
    cube = number("cube", 1, MAX_CUBE)
    if cube & (cube - 1):
        raise ValueError("The cube is a power of 2.")
    owner = {"": None, "black": Side.BLACK, "white": Side.WHITE}.get(query.get("owner", ""), None)
    length = number("length", 0, 64)
    flags = int(query.get("crawford") == "1") if length else (
        int(query.get("jacoby") == "1") + 2 * int(query.get("beavers") == "1"))
    return BoardSetup(
        setup.black, setup.white, Side.WHITE if query.get("turn") == "white" else Side.BLACK, dice,
        cube.bit_length() - 1, owner if cube > 1 else None,
        number("score_black", 0, 64) if length else 0, number("score_white", 0, 64) if length else 0,
        length, flags,
    )


def _tool(text: str) -> Tool:
    try:
        return Tool(text)
    except ValueError:
        return Tool.BLACK


def _link(xgid: str, **params: str) -> str:
    return reverse("analysis:board") + "?" + urlencode({"xgid": xgid, **params})


def _answer_url(setup: BoardSetup, plies: int) -> str:
    return reverse("analysis:board_answer") + "?" + urlencode({"xgid": setup.xgid, "plies": str(plies)})


def _shown_play(setup: BoardSetup, text: str) -> Play | None:
    """The play named by ``?show=`` (one of the ranked plays' links), or None."""
    if not text or len(text) > MAX_INPUT or setup.problem or not setup.dice.isdigit():
        return None
    state = setup.state()
    try:
        return parse_play(state.position, (int(setup.dice[0]), int(setup.dice[1])), text) if state.dice else None
    except EngineError:
        return None


def _board(setup: BoardSetup, tool: Tool, shown: Play | None = None) -> Board:
    """The set-up from Black's side, every point a set-up link; or, with a play shown, the
    position after it with its moves marked (and nothing to click)."""
    position = setup.position
    dice: tuple[tuple[int, bool], ...] = ()
    if setup.dice.isdigit() and setup.dice != "00":
        dice = ((int(setup.dice[0]), shown is not None), (int(setup.dice[1]), shown is not None))
    black_on_roll = setup.on_roll is Side.BLACK
    value = 1 << setup.cube_log
    cube: tuple[int, str | None]
    if setup.dice == "D":
        cube = (value * 2, "offered-mine" if black_on_roll else "offered-theirs")
    else:
        cube = (value, None if setup.cube_owner is None else "mine" if setup.cube_owner is Side.BLACK else "theirs")
    my_dice, their_dice = (dice, ()) if black_on_roll else ((), dice)
    if shown is not None:
        after = shown.result if black_on_roll else shown.result.swapped()
        steps = [_black_numbering(move.origin, move.destination, black_on_roll) for move in shown.moves]
        return layout_board(after, viewer=Side.BLACK, names=_NAMES, cube=cube, my_dice=my_dice,
                            their_dice=their_dice, steps=[step for step in steps if step is not None])
    board = layout_board(position, viewer=Side.BLACK, names=_NAMES, cube=cube, my_dice=my_dice,
                         their_dice=their_dice)
    verb = _TOOL_WORDS[tool]
    links = [
        (point, _link(setup.clicked(point, tool).xgid, tool=tool),
         f"{verb} {'the bar' if point == BAR else f'point {point}'}")
        for point in [*range(1, 25), BAR]
    ]
    return replace(board, moves=point_links(position, links))


def _black_numbering(origin: int, destination: int, black_moved: bool) -> tuple[int, int] | None:
    """A move in Black's numbering, for its marks; White's moves to or from the bar or off the
    board have no mark on Black's side of the board (its bar half and tray are Black's)."""
    if black_moved:
        return origin, destination
    if origin == BAR or destination == OFF:
        return None
    return 25 - origin, 25 - destination


def _answer_context(analysis: PositionAnalysis | None, setup: BoardSetup, plies: int) -> dict[str, Any]:
    if analysis is None or analysis.status != PositionAnalysis.Status.DONE:
        return {}
    plays = analysis.result.get("plays", [])
    best = plays[0]["equity"] if plays else 0.0
    return {
        "plays": [{**play, "loss": play["equity"] - best, "rank": rank,
                   "show_url": _link(setup.xgid, analyse="1", plies=str(plies), show=play["move"])}
                  for rank, play in enumerate(plays, start=1)],
        "cube": analysis.result.get("cube"),
    }
