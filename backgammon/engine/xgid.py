"""eXtreme Gammon's XGID: one line naming a position, the cube, the dice and the score.

``XGID=POSITION:CUBE:CUBEPOS:TURN:DICE:SCOREX:SCOREO:CJ:LENGTH:MAXCUBE``. POSITION is 26
characters from player X's side: O's bar, X's points 1 to 24, X's bar; ``-`` is empty, ``A``..``O``
are 1 to 15 of X's checkers and ``a``..``o`` of O's. CUBE is log2 of the cube's value and CUBEPOS
its owner (1 X, -1 O, 0 centred); TURN is 1 when X is on roll, -1 when O is. DICE is the roll,
``00`` before it, ``D`` when the player on roll has doubled and the opponent must answer, ``B``
when the opponent has beavered that double; CUBE and CUBEPOS stay those before the double, as XG
writes them. CJ is the Crawford flag in a match; in a money game it is 1 for the Jacoby rule plus
2 for beavers. LENGTH is 0 for money play. MAXCUBE is log2 of the largest cube.

Here X is always Black, so the string of a whole replay keeps one point of view. GNU Backgammon
reads these strings (``set xgid``) back to the engine's own Position and Match IDs (tested); a
pending double it reads as the doubler about to double (it keeps no offer from an XGID), and
``B`` it does not read at all.

>>> from backgammon.engine import MatchRules, find_variant, new_match, apply_action, Action
>>> state = apply_action(new_match(MatchRules(find_variant("BP"), 5)), Action.roll(5, 2))
>>> encode_xgid(state)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10'
"""

from __future__ import annotations

from .board import Layout, Side
from .match import MatchState, Phase

__all__ = ["encode_xgid", "xgid_position_text"]

MAX_CUBE_LOG2 = 10
_BAR = 24


def encode_xgid(state: MatchState) -> str:
    """The XGID of ``state``, Black as X."""
    board = state.position_for(Side.BLACK)
    cube_value, cube_owner = _cube_before_the_offer(state)
    fields = [
        xgid_position_text(board.mine, board.theirs),
        str(cube_value.bit_length() - 1),
        _cube_position(cube_owner),
        "1" if state.on_roll is Side.BLACK else "-1",
        _dice_text(state),
        str(state.score.black),
        str(state.score.white),
        str(_rules_flags(state)),
        str(state.rules.match_length),
        str(MAX_CUBE_LOG2),
    ]
    return "XGID=" + ":".join(fields)


def _rules_flags(state: MatchState) -> int:
    rules = state.rules
    if rules.match_length:
        return int(state.crawford)
    return int(rules.jacoby) + 2 * int(rules.beavers)


def xgid_position_text(x_side: Layout, o_side: Layout) -> str:
    """O's bar, X's points 1..24 (O's checkers there are on O's point 25 - p), X's bar."""
    cells = [_count_char(o_side[_BAR], upper=False)]
    for point in range(1, 25):
        mine, theirs = x_side[point - 1], o_side[24 - point]
        cells.append(_count_char(mine, upper=True) if mine else _count_char(theirs, upper=False))
    cells.append(_count_char(x_side[_BAR], upper=True))
    return "".join(cells)


def _count_char(count: int, *, upper: bool) -> str:
    if count == 0:
        return "-"
    letter = chr(ord("A") + count - 1)
    return letter if upper else letter.lower()


def _cube_position(owner: Side | None) -> str:
    if owner is None:
        return "0"
    return "1" if owner is Side.BLACK else "-1"


def _cube_before_the_offer(state: MatchState) -> tuple[int, Side | None]:
    """The cube as it was before the pending double: XG writes a beaver as ``B`` on that cube.

    The engine keeps a beavered cube at the doubled value, in the beaverer's hands, and forgets
    who held it before. The doubler held it unless it was still centred: a cube above what the
    automatic doubles of the opening can reach has been turned (and so was the doubler's).
    """
    if not state.beavered:
        return state.cube_value, state.cube_owner
    before = state.cube_value // 2
    centred = before <= 1 << state.rules.automatic_doubles  # beavers are money play's
    return before, None if centred else state.turn


def _dice_text(state: MatchState) -> str:
    if state.phase is Phase.TAKE_OR_DROP:
        return "B" if state.beavered else "D"
    if state.phase is Phase.MOVE and state.dice is not None:
        return f"{state.dice[0]}{state.dice[1]}"
    return "00"
