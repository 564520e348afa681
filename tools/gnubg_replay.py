"""Replay one of our match records in GNU Backgammon through its text commands.

Each action becomes the command a player would type (``set dice 31``, ``move 8/5 6/5``,
``double``, ``beaver``, ``resign gammon``, ``accept``...). gnubg reads the dice from a file
(``set rng file``), and a next game starts with ``new game``. After every action gnubg's Match
ID, and the Position ID it shows beside it, must equal the engine's while a game is in play (the
audit found them equal there), which keeps the two in step; what gnubg says at the end of the
match, and its own record of the match (``gnubg.match()``, ``export match mat``), are the
references the tests compare with. Shared by the fixture generator and the ``.mat`` tests.

Actions are also written here as short tokens for fixtures: ``31`` a roll, ``8/5,6/5`` a play
(``-`` for none; bar 25, off 0), ``D`` double, ``T`` take, ``P`` drop (pass), ``B`` beaver,
``R1``..``R3`` resign, ``A`` accept and ``J`` reject a resignation.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from gnubg_text import gnubg_command

from backgammon.engine import (
    Action,
    ActionKind,
    MatchRules,
    MatchState,
    Phase,
    apply_action,
    new_match,
)
from backgammon.engine.board import NACKGAMMON_LAYOUT
from backgammon.engine.notation import format_play
from backgammon.engine.plays import find_play
from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

__all__ = ["action_token", "gnubg_replay", "parse_token"]

_SETTINGS = (
    "set display off",
    "set confirm new off",
    "set player 0 human",
    "set player 1 human",
    "set automatic roll off",
    "set automatic move off",
    "set automatic bearoff off",
    "set automatic crawford on",
    "set automatic game off",
    "set automatic doubles 0",
)
_SIMPLE = {
    ActionKind.DOUBLE: "D",
    ActionKind.TAKE: "T",
    ActionKind.DROP: "P",
    ActionKind.BEAVER: "B",
    ActionKind.ACCEPT_RESIGN: "A",
    ActionKind.REJECT_RESIGN: "J",
}
_COMMANDS = {
    ActionKind.DOUBLE: "double",
    ActionKind.TAKE: "take",
    ActionKind.DROP: "drop",
    ActionKind.BEAVER: "beaver",
    ActionKind.ACCEPT_RESIGN: "accept",
    ActionKind.REJECT_RESIGN: "reject",
}
_LEVELS = {1: "single", 2: "gammon", 3: "backgammon"}


def action_token(action: Action) -> str:
    """The fixture token of an action."""
    if action.kind is ActionKind.ROLL:
        assert action.dice is not None
        return f"{action.dice[0]}{action.dice[1]}"
    if action.kind is ActionKind.PLAY:
        return ",".join(f"{a}/{b}" for a, b in action.moves) or "-"
    if action.kind is ActionKind.RESIGN:
        return f"R{action.level}"
    return _SIMPLE[action.kind]


def parse_token(token: str) -> Action:
    """The action a fixture token stands for."""
    simple = {text: kind for kind, text in _SIMPLE.items()}
    if token in simple:
        return Action.from_dict({"kind": simple[token].value})
    if token.startswith("R"):
        return Action.resign(int(token[1:]))
    if token.isdigit() and len(token) == 2:
        return Action.roll(int(token[0]), int(token[1]))
    if token == "-":
        return Action.play([])
    pairs = [move.split("/") for move in token.split(",")]
    return Action.play([(int(a), int(b)) for a, b in pairs])


def gnubg_replay(rules: MatchRules, actions: Sequence[Action]) -> MatchState:
    """Play the record in gnubg (left as gnubg's current match); the engine's final state.

    gnubg reads the dice from a file, in the order they were rolled (each opening roll Black's die
    first, ties included), so its record holds exactly our rolls.
    """
    with tempfile.TemporaryDirectory() as folder:
        dice_file = Path(folder) / "dice.txt"
        rolls = [action.dice for action in actions if action.kind is ActionKind.ROLL]
        dice_file.write_text("".join(f"{a} {b}\n" for a, b in rolls if a and b) + "1 2\n" * 4)
        for command in _SETTINGS:
            gnubg_command(command)
        gnubg_command(f"set rng file {dice_file}")
        gnubg_command(f"set jacoby {'on' if rules.jacoby else 'off'}")
        # One beaver, no raccoons, as the engine allows.
        gnubg_command(f"set beavers {1 if rules.beavers else 0}")
        gnubg_command(f"set cube use {'on' if rules.variant.uses_cube else 'off'}")
        nackgammon = rules.variant.layout == NACKGAMMON_LAYOUT
        gnubg_command(f"set variation {'nackgammon' if nackgammon else 'standard'}")
        length = rules.match_length
        gnubg_command(f"new match {length}" if length else "new session")
        state = new_match(rules)
        for number, action in enumerate(actions, start=1):
            before, state = state, apply_action(state, action)
            said = [gnubg_command(command) for command in _commands(before, action)]
            if _comparable(state):
                assert gnubg.matchid() == state.match_id(), (number, action, said)
                # The board gnubg shows beside that Match ID (the doubler's or resigner's side
                # while an answer waits).
                assert gnubg.positionid(gnubg.board()) == state.position_id(), (number, action, said)
            if state.game_number != before.game_number and state.phase is not Phase.MATCH_OVER:
                gnubg_command("new game")
        return state


def _comparable(state: MatchState) -> bool:
    """gnubg is at the same point: not between games, and not dancing (it passes at once)."""
    if state.phase in (Phase.MATCH_OVER, Phase.OPENING_ROLL):
        return False
    return state.phase is not Phase.MOVE or any(play.moves for play in state.legal_plays())


def _commands(before: MatchState, action: Action) -> list[str]:
    if action.kind is ActionKind.ROLL:
        # gnubg rolls the opening itself when a game starts (again after a tie).
        return [] if before.phase is Phase.OPENING_ROLL else ["roll"]
    if action.kind is ActionKind.PLAY:
        assert before.dice is not None
        if not action.moves:
            return []  # gnubg passes by itself when no checker can move
        return [f"move {format_play(find_play(before.position, before.dice, action.moves))}"]
    if action.kind is ActionKind.RESIGN:
        return [f"resign {_LEVELS[action.level]}"]
    return [_COMMANDS[action.kind]]
