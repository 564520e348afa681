"""Write tests/engine/data/gnubg_finished_matches.txt: the IDs gnubg gives at a match's end.

Each match record (random legal play, and a few made by hand for the rare endings) is played in
GNU Backgammon by ``gnubg_replay`` (which checks gnubg's Match ID and Position ID against the
engine's after every action in play); the line keeps the rules, the actions as tokens, the Position
ID and Match ID gnubg shows once the match is over, and a label naming the ending. Records gnubg
refuses (it allows no double of a dead cube) are skipped. Deterministic.
Run: .venv/bin/python tools/gen_gnubg_finished_matches.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from gnubg_replay import action_token, gnubg_replay, parse_token

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "engine"))
from random_play import random_record

from backgammon.engine import Action, MatchRules, MatchState, Phase, WinKind, find_variant

OUT = ROOT / "tests" / "engine" / "data" / "gnubg_finished_matches.txt"
HEADER = (
    "# variant length jacoby beavers | action tokens (tools/gnubg_replay.py)"
    " | gnubg Position ID | gnubg Match ID | ending\n"
)
RANDOM_RULES = [
    MatchRules(find_variant("BP"), 3),
    MatchRules(find_variant("BP"), 5),
    MatchRules(find_variant("BO"), 3),
    MatchRules(find_variant("B9"), 1),
    MatchRules(find_variant("MP"), 0),
    MatchRules(find_variant("MP"), 0, jacoby=True, beavers=True),
]
OPENING = "31 8/5,6/5"  # Black opens with 3-1; White is on roll
BY_HAND = [
    # (rules, tokens): every resignation level ending a match, with and without a roll, in
    # match and money play; a drop ending a money game (gnubg lets no drop end a match: it
    # refuses a double the doubler does not need); a beaver dropped and a beaver taken.
    (MatchRules(find_variant("BP"), 1), f"{OPENING} R1 A"),
    (MatchRules(find_variant("BP"), 3), f"{OPENING} 64 R3 A"),
    (MatchRules(find_variant("BP"), 3), f"{OPENING} D T 21 13/11,6/5 R2 A"),
    (MatchRules(find_variant("BP"), 3), f"{OPENING} D T 21 13/11,6/5 D T 64 R1 A"),
    (MatchRules(find_variant("MP"), 0), f"{OPENING} 64 R1 A"),
    # Not under the Jacoby rule: gnubg scores a resigned gammon there as 2 points with the cube
    # in the middle, the engine (by the rule: no gammons before a double) as 1.
    (MatchRules(find_variant("MP"), 0), f"{OPENING} R2 A"),
    (MatchRules(find_variant("MP"), 0), f"{OPENING} D T 21 13/11,6/5 R3 J 64 R3 A"),
    (MatchRules(find_variant("MP"), 0), f"{OPENING} D P"),
    (MatchRules(find_variant("MP"), 0, jacoby=True), f"{OPENING} D T 21 13/11,6/5 D P"),
    (MatchRules(find_variant("MP"), 0, beavers=True), f"{OPENING} D B P"),
    (MatchRules(find_variant("MP"), 0, beavers=True), f"{OPENING} D B T 21 13/11,6/5 R1 A"),
]


def ending(state: MatchState) -> str:
    result = state.last_game_result
    assert result is not None
    label = result.kind.value
    if result.kind.value == "resign":
        label += f"{state.resign_level}"
    if state.crawford:
        label += " crawford"
    return label + (" money" if state.rules.money else " match")


def line(rules: MatchRules, actions: list[Action]) -> str | None:
    try:
        final = gnubg_replay(rules, actions)
    except AssertionError:
        return None  # gnubg refused an action (a double of a dead cube)
    assert final.phase is Phase.MATCH_OVER, actions
    tokens = " ".join(action_token(action) for action in actions)
    flags = f"{rules.variant.code} {rules.match_length} {int(rules.jacoby)} {int(rules.beavers)}"
    position_id = gnubg.positionid(gnubg.board())  # the board gnubg shows beside its Match ID
    return f"{flags} | {tokens} | {position_id} | {gnubg.matchid()} | {ending(final)}\n"


def main() -> None:
    lines = [HEADER]
    for rules, text in BY_HAND:
        made = line(rules, [parse_token(token) for token in text.split()])
        assert made is not None, text
        lines.append(made)
    for rules in RANDOM_RULES:
        kept = 0
        for seed in range(40):
            if kept == 6:
                break
            actions, _ = random_record(rules, seed, double_rate=(0.02, 0.1, 0.3)[seed % 3])
            made = line(rules, actions)
            if made is not None:
                lines.append(made)
                kept += 1
    # Random play rarely resigns a backgammon but often bears off against one: one of each kind.
    for rules in (MatchRules(find_variant("MP"), 0), MatchRules(find_variant("BP"), 3)):
        for seed in range(100, 400):
            actions, states = random_record(rules, seed, double_rate=0.05)
            result = states[-1].last_game_result
            if result is not None and result.kind is WinKind.BACKGAMMON:
                made = line(rules, actions)
                if made is not None:
                    lines.append(made)
                    break
    OUT.write_text("".join(lines))
    print(f"wrote {len(lines) - 1} finished matches to {OUT}")


if __name__ == "__main__":
    main()
