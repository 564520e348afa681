"""Write tests/engine/data/gnubg_match_ids.txt: Match IDs computed by GNU Backgammon itself.

Each line holds the fields of a match state and the ID gnubg gives it through the `gnubg`
package (`gnubg.matchid(cubeinfo, posinfo)`, the encoder gnubg's own `show matchid` uses).
A sample of settled states (game in play, no double or resignation pending) is also
cross-checked through the text commands: `set matchid ID` must make gnubg report the same ID. Run: .venv/bin/python tools/gen_gnubg_match_ids.py
"""

from __future__ import annotations

import random
from pathlib import Path

from gnubg_text import gnubg_command

from backgammon.gnubg_home import gnubg  # a private HOME: no user settings file

OUT = Path(__file__).resolve().parent.parent / "tests" / "engine" / "data" / "gnubg_match_ids.txt"
HEADER = (
    "# cube owner(-1 centred) on_roll crawford game_state turn doubled resigned die0 die1"
    " length score0 score1 jacoby match_id\n"
)
def random_case(rng: random.Random) -> list[int]:
    length = rng.choice([0, 0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25, 64])
    if length:
        score = [rng.randrange(length), rng.randrange(length)]
        crawford = int(length > 1 and length - 1 in score and rng.random() < 0.5)
        jacoby = 0
    else:
        # The binding's cubeinfo keeps no score for money play, so money cases stay at 0-0.
        score = [0, 0]
        crawford = 0
        jacoby = rng.randrange(2)
    # gnubg keeps the cube at 1 in the Crawford game, as our engine does.
    cube = 1 if crawford else 1 << rng.randrange(0, 13)
    owner = -1 if cube == 1 else rng.choice([-1, 0, 1])
    on_roll = rng.randrange(2)
    state = rng.choice([0, 1, 1, 1, 2, 3, 4])
    doubled = int(state == 1 and rng.random() < 0.2)
    resigned = 0 if doubled or rng.random() < 0.6 else rng.randrange(1, 4)
    turn = 1 - on_roll if doubled or resigned else on_roll
    dice = [0, 0] if doubled or rng.random() < 0.3 else [rng.randint(1, 6), rng.randint(1, 6)]
    return [
        cube,
        owner,
        on_roll,
        crawford,
        state,
        turn,
        doubled,
        resigned,
        *dice,
        length,
        *score,
        jacoby,
    ]


def gnubg_id(case: list[int]) -> str:
    (
        cube,
        owner,
        on_roll,
        crawford,
        state,
        turn,
        doubled,
        resigned,
        d0,
        d1,
        length,
        s0,
        s1,
        jacoby,
    ) = case
    cubeinfo = gnubg.cubeinfo(cube, owner, on_roll, length, (s0, s1), crawford, 0)
    cubeinfo["jacoby"] = jacoby
    posinfo = gnubg.posinfo(turn, resigned, doubled, state, (d0, d1))
    return str(gnubg.matchid(cubeinfo, posinfo))


def main() -> None:
    rng = random.Random(20240501)
    fixed = [
        [1, -1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        [1, -1, 1, 0, 1, 1, 0, 0, 4, 3, 3, 0, 0, 0],
        [1, -1, 1, 1, 1, 1, 0, 0, 5, 2, 7, 6, 2, 0],
        [4096, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
        [8, 0, 1, 0, 1, 0, 0, 3, 6, 6, 25, 24, 24, 0],
    ]
    cases = fixed + [random_case(rng) for _ in range(300)]
    for command in ("set display off", "set player 0 human", "set player 1 human", "new match 7"):
        gnubg_command(command)
    lines = [HEADER]
    checked = 0
    for case in cases:
        match_id = gnubg_id(case)
        # `set matchid` keeps only settled states (it drops a pending double or resignation).
        if case[4] == 1 and not case[6] and not case[7]:
            said = gnubg_command(f"set matchid {match_id}")
            assert gnubg.matchid() == match_id, (case, match_id, gnubg.matchid(), said)
            checked += 1
        lines.append(" ".join(map(str, case)) + f" {match_id}\n")
    OUT.write_text("".join(lines))
    print(f"wrote {len(cases)} Match IDs to {OUT}; {checked} also read back by `set matchid`")


if __name__ == "__main__":
    main()
