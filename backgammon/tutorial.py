"""The interactive tutorial: eight lessons, each a set position and roll where the learner makes
the move the lesson teaches, judged by the engine. No Django and no database: a lesson's state is
the page's URL (the steps clicked so far, or a whole move typed or chosen from the list).

>>> lesson = LESSONS[0]
>>> judge_move(lesson, "8/5 6/5").correct
True
>>> judge_move(lesson, "24/21 24/23").text.startswith("That is legal")
True
>>> judge_move(lesson, "13/10").legal
False
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from backgammon.engine import Position, Side
from backgammon.engine.actions import Action
from backgammon.engine.board import STANDARD_LAYOUT, Layout
from backgammon.engine.errors import EngineError, InvalidNotationError
from backgammon.engine.game import MatchRules
from backgammon.engine.match import MatchState, Phase, apply_action, new_match
from backgammon.engine.notation import format_play, parse_play
from backgammon.engine.plays import Play, legal_plays
from backgammon.engine.variants import find_variant

__all__ = ["DECISIONS", "LESSONS", "Lesson", "Verdict", "find_lesson", "judge_decision", "judge_move",
           "judge_play", "lesson_plays"]

MAX_MOVE_TEXT = 60
"""A whole turn in notation is at most four moves: anything longer is not an answer."""

Goal = Callable[[Position, Play], bool]


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its words, and the position and roll (or the cube decision) it sets."""

    number: int
    title: str
    paragraphs: tuple[str, ...]
    task: str
    position: Position
    dice: tuple[int, int] | None
    goal: Goal | None
    success: str
    miss: str
    """What to say of a legal move that misses the lesson's point."""

    @property
    def is_cube_lesson(self) -> bool:
        return self.dice is None


@dataclass(frozen=True, slots=True)
class Verdict:
    """The site's answer to a move: legal or not, the lesson's point or not, and why."""

    legal: bool
    correct: bool
    text: str
    move_text: str = ""


def _layout(points: dict[int, int]) -> Layout:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


def _reaches(dice: tuple[int, int], notation: str) -> Goal:
    """The goal of playing exactly this move (any order of the same checker moves)."""
    def goal(before: Position, play: Play) -> bool:
        return play.result == parse_play(before, dice, notation).result
    return goal


def _hits(before: Position, play: Play) -> bool:
    return play.result.bar()[1] > before.bar()[1]


def _enters(before: Position, play: Play) -> bool:
    return play.result.bar()[0] < before.bar()[0]


def _bears_off_two(before: Position, play: Play) -> bool:
    return play.result.borne_off()[0] == before.borne_off()[0] + 2


def _makes_prime(before: Position, play: Play) -> bool:
    mine = play.result.mine
    return any(all(mine[p - 1] >= 2 for p in range(low, low + 6)) for low in range(1, 20))


START = Position.initial()
PRIME_LESSON = Position(
    _layout({13: 3, 12: 1, 10: 1, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2}),
    _layout({23: 1, 14: 2, 6: 4, 5: 3, 4: 3, 3: 2}),
)
HIT_LESSON = Position(STANDARD_LAYOUT, _layout({24: 1, 14: 1, 13: 5, 8: 3, 6: 5}))
BAR_LESSON = Position(
    _layout({25: 1, 13: 5, 8: 3, 6: 4, 24: 2}),
    _layout({13: 4, 8: 3, 6: 4, 5: 2, 24: 2}),
)
BEAR_OFF_LESSON = Position(
    _layout({5: 2, 4: 3, 3: 3, 2: 2, 1: 2}),
    _layout({6: 2, 5: 2, 4: 3, 3: 3, 2: 3, 1: 2}),
)
CUBE_LESSON = Position(
    _layout({6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 1: 2}),
    _layout({13: 3, 9: 3, 8: 3, 7: 2, 6: 2, 5: 2}),
)

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        1, "The board and your first move",
        (
            ("Backgammon is played on 24 narrow triangles called points. Each player has 15 checkers. "
            "You play the dark checkers and you move them from your 24-point, top right, along the "
            "top, down the left and along the bottom to your 1-point, bottom right: always towards "
            "your home board, points 1 to 6. Your opponent moves the other way round."),
            ("At the start you have 2 checkers on your 24-point, 5 on your 13-point, 3 on your 8-point "
            "and 5 on your 6-point. Each die is a separate move: with 3-1 you may move one checker 3 "
            "points and another 1 point."),
            "Two or more of your checkers on a point make it yours: the opponent may not land there.",
        ),
        "You rolled 3-1. Move one checker from 8 to 5 and one from 6 to 5, to make your 5-point.",
        START, (3, 1), _reaches((3, 1), "8/5 6/5"),
        "That makes your 5-point: two checkers on a point your opponent can no longer land on. "
        "It is the best opening move with 3-1.",
        "That is legal, but the lesson asks you to bring one checker from 8 and one from 6 onto "
        "your 5-point. Try again.",
    ),
    Lesson(
        2, "One checker or two",
        (
            ("The two numbers of a roll are two moves. You may share them between two checkers, or "
            "move one checker by both numbers, one after the other."),
            ("A checker moving by both numbers must land on an open point after the first number "
            "too: a point that is empty, yours, or holds a single opposing checker."),
        ),
        "You rolled 6-5. Run one back checker all the way from 24 to 13 (6 and then 5).",
        START, (6, 5), _reaches((6, 5), "24/13"),
        "24/13, the \"lover's leap\": one checker used both numbers and reached safety on your "
        "13-point.",
        "That is legal, but the lesson asks you to move a single checker from 24 by both numbers. "
        "Try again.",
    ),
    Lesson(
        3, "Doubles",
        (
            ("When both dice show the same number you roll doubles, and you play that number four "
            "times instead of two. You may share the four moves among your checkers in any way."),
            "You must use as many of the numbers as you can: if you can play all four, you must.",
        ),
        "You rolled 6-6. Move two checkers from 24 to 18 and two from 13 to 7.",
        START, (6, 6), _reaches((6, 6), "24/18(2) 13/7(2)"),
        "Four sixes: you made your opponent's bar point (18) and your own (7). Doubles count twice.",
        "That is legal, and it plays four sixes, but the lesson asks for 24/18 twice and 13/7 "
        "twice. Try again.",
    ),
    Lesson(
        4, "Open points and primes",
        (
            ("You may move to a point that is empty, holds your own checkers, or holds a single "
            "opposing checker. You may never land on a point held by two or more of your opponent's "
            "checkers, though you may jump over it."),
            ("Several made points in a row form a prime. Six in a row is a full prime: an opposing "
            "checker behind it cannot get past until the prime breaks."),
            ("Here you hold points 4 to 8, and an opposing checker is stuck on your 2-point. Your "
            "opponent holds your 11-point, so you cannot land there."),
        ),
        "You rolled 3-1. Make your 9-point to complete a full prime from 4 to 9.",
        PRIME_LESSON, (3, 1), _makes_prime,
        "A full prime: six points in a row, 4 to 9. Your opponent's checker on your 2-point is "
        "trapped until you break it.",
        "That is legal, but it leaves a gap: look for the move that makes your 9-point. Try again.",
    ),
    Lesson(
        5, "Hitting a blot",
        (
            ("A single checker alone on a point is a blot. If your opponent lands on it, it is hit: "
            "it goes to the bar in the middle and must start again from the far side of the board."),
            ("Your opponent has just left a blot on your 11-point; another still waits on your "
            "1-point."),
        ),
        "You rolled 5-2. Hit a blot: the one on your 11-point is the juiciest target.",
        HIT_LESSON, (5, 2), _hits,
        "That hits: the opposing checker goes to the bar and loses all the ground it had made.",
        "That is legal, but it does not hit: land a checker on a point with a single opposing "
        "checker. Try again.",
    ),
    Lesson(
        6, "Entering from the bar",
        (
            ("A checker on the bar must come back in through your opponent's home board, your points "
            "19 to 24: a 1 enters on 24, a 2 on 23, up to a 6 on 19. It can enter only on an open "
            "point."),
            ("While you have a checker on the bar you may move nothing else. Once it has entered, the "
            "rest of the roll is played as usual. If neither number enters, you lose your turn."),
            "Your opponent holds your 19-point (their 6-point) and your 20-point.",
        ),
        "You rolled 6-3 with a checker on the bar. The 6 is blocked on 19: enter with the 3, then "
        "play the 6.",
        BAR_LESSON, (6, 3), _enters,
        "Your checker entered with the 3 on your 22-point, and the 6 was free to play.",
        "The checker on the bar must enter first.",
    ),
    Lesson(
        7, "Bearing off",
        (
            ("Once all 15 of your checkers are in your home board you may bear them off: a die "
            "removes a checker from the point of its number (a 2 from your 2-point)."),
            ("A number higher than your highest checker bears off from the highest point you hold. "
            "You may also move a checker inside your home board instead."),
            "The first player to bear off all 15 checkers wins.",
        ),
        "You rolled 6-2. Bear off two checkers: the 6 from your highest point, the 2 from your "
        "2-point.",
        BEAR_OFF_LESSON, (6, 2), _bears_off_two,
        "Two checkers off: the 6 took one from your 5-point, your highest, and the 2 one from "
        "your 2-point.",
        "That is legal, but it bears off only one checker. Both numbers can take a checker off. "
        "Try again.",
    ),
    Lesson(
        8, "The doubling cube",
        (
            ("The doubling cube raises the stakes. Before rolling, on your turn, you may double: your "
            "opponent either takes, and play goes on for twice the stakes with the cube theirs (only "
            "they may double next), or passes and loses the game at the stakes before the double."),
            ("The cube starts in the middle showing 64, which means 1. A gammon (the loser has borne "
            "off nothing) scores double, a backgammon triple."),
            ("In a match, the Crawford rule applies: in the first game after a player comes within "
            "one point of winning the match, nobody may double."),
            ("Here you are far ahead in the race: 53 pips to your opponent's 126, and you have "
            "already borne a checker off."),
        ),
        "Your turn, before you roll. Double, or roll on?",
        CUBE_LESSON, None, None,
        "Double! You are far ahead: your opponent should pass and give you the game now, and if "
        "they take, you play for twice the stakes as a big favourite.",
        "Rolling is legal, but you are so far ahead that your opponent would be glad to pass now. "
        "Try again.",
    ),
)

DECISIONS = ("double", "roll")


def find_lesson(number: int) -> Lesson | None:
    return LESSONS[number - 1] if 1 <= number <= len(LESSONS) else None


def lesson_plays(lesson: Lesson) -> list[tuple[str, Play]]:
    """Every legal play of the lesson's roll, in notation, sorted: the list to choose from."""
    assert lesson.dice is not None
    plays = legal_plays(lesson.position, lesson.dice)
    return sorted(((format_play(play), play) for play in plays), key=lambda item: item[0])


def judge_play(lesson: Lesson, play: Play) -> Verdict:
    """A legal play: the lesson's point, or legal but not what the lesson asks."""
    assert lesson.goal is not None
    text = format_play(play)
    if lesson.goal(lesson.position, play):
        return Verdict(True, True, lesson.success, text)
    return Verdict(True, False, lesson.miss, text)


def judge_move(lesson: Lesson, move_text: str) -> Verdict:
    """A whole move in notation (typed, or chosen from the list), judged by the engine.

    An illegal move is a wrong answer with the engine's reason; text that is not a move at all
    raises InvalidNotationError (the page answers 400).
    """
    assert lesson.dice is not None
    if len(move_text) > MAX_MOVE_TEXT:
        raise InvalidNotationError(f"A move is at most {MAX_MOVE_TEXT} characters, like 13/9 13/10")
    if not move_text.strip():
        raise InvalidNotationError("Write a move, like 13/9 13/10")
    try:
        play = parse_play(lesson.position, lesson.dice, move_text)
    except InvalidNotationError:
        raise
    except EngineError as error:
        return Verdict(False, False, f"Not a legal move: {error}.", move_text.strip())
    return judge_play(lesson, play)


def cube_state(lesson: Lesson) -> MatchState:
    """The money game of the cube lesson, you (Black) to roll or double, cube in the middle."""
    start = new_match(MatchRules(find_variant("MP"), 0))
    return replace(start, phase=Phase.ROLL, turn=Side.BLACK, position=lesson.position)


def judge_decision(lesson: Lesson, decision: str) -> Verdict:
    """The cube lesson's answer: the engine confirms the double is legal and turns the cube."""
    if decision not in DECISIONS:
        raise ValueError(f"{decision!r} is not a choice here: double or roll")
    state = cube_state(lesson)
    if decision == "roll":
        return Verdict(True, False, lesson.miss, "Roll")
    offered = apply_action(state, Action.double(), by=Side.BLACK)
    return Verdict(True, True, f"{lesson.success} The cube now offers {offered.cube_value * 2}.",
                   "Double")
