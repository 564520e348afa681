"""The Jellyfish ``.mat`` match record, as GNU Backgammon writes and reads it.

A header of ``; [Key "value"]`` comments, `` N point match`` (0 for a single or money game), then
per game `` Game k``, a score line (the score before the game) and numbered lines holding one
entry per column: Black (player 1, gnubg's player 0) on the left, White on the right. An entry is
a roll and its play in the mover's numbering (``31: 8/5 6/5``, only ``66:`` for no move),
`` Doubles => 2``, `` Takes``, `` Drops``, `` Beavers => 4`` or `` Wins 2 points``. The layout
is gnubg's to the space: its reader finds the right column by position, so the left cell is
always padded (a bare ``  2)  Takes`` reads as a double after the take).

As gnubg writes them: a beaver taken leaves no `` Takes`` when a roll follows (gnubg's reader
takes the beaver as taken at the next roll), a beaver dropped is followed by the doubler's
`` Drops``, and a resignation accepted before the roll was played keeps the roll (``31:``).
Where gnubg's reader would read them wrong, they differ from gnubg's own files: a beaver taken
with no roll after it (a resignation first) writes the doubler's `` Takes``, or the resignation
would be scored on the cube before the beaver (6 points for a gammon at 4, not 8); and a roll with
one legal play or none is left out before an accepted resignation, since gnubg's reader plays such
a bare roll (a play that never happened). A game still in progress ends at its last action: an
unplayed roll is left out, since readers take a bare ``66:`` for a roll with no legal move.

Tied opening rolls, refused resignations and the automatic doubles of money play leave no line,
as in files from other programs. GNU Backgammon knows only the standard and Nackgammon starting
positions and the usual rules, so it can replay records of BX, BP, B9, BN, BO and money play, not
of the race variants (BR, BS) or Anti-Backgammon (BA); their records are still written, and the
header's comments say what a reader will get wrong.

>>> from backgammon.engine import Action, MatchRules, PerSide, find_variant
>>> actions = [Action.roll(3, 1), Action.play([(8, 5), (6, 5)])]
>>> text = export_mat(MatchRules(find_variant("BP"), 3), actions, PerSide("alice", "bob"))
>>> print(text, end="")  # doctest: +NORMALIZE_WHITESPACE
; [Player 1 "alice"]
; [Player 2 "bob"]
; [Variation "Backgammon"]
; [Crawford "On"]
<BLANKLINE>
 3 point match
<BLANKLINE>
 Game 1
 alice : 0                      bob : 0
  1) 31: 8/5 6/5
<BLANKLINE>
>>> text.splitlines()[-2]  # the left cell padded to its column, as gnubg writes it
'  1) 31: 8/5 6/5                 '
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import match as _match
from .actions import Action, ActionKind
from .board import NACKGAMMON_LAYOUT, STANDARD_LAYOUT, PerSide, Side
from .game import GameResult, MatchRules, WinKind
from .match import MatchState, Phase, apply_action
from .notation import format_play
from .plays import find_play, legal_plays

__all__ = ["export_mat"]

_UNSAFE = re.compile(r"[\s:\"\]]+")


_ROLL_ENTRY = re.compile(r"[1-6][1-6]:")


@dataclass(slots=True)
class _Game:
    """One game being written: its score line and entries in order, each (column, text)."""

    number: int
    score: PerSide[int]
    entries: list[tuple[Side, str]] = field(default_factory=list)
    beaver_taken_by: Side | None = None
    """The doubler took a beaver: its ``Takes`` waits to see whether a roll line says it."""

    def add(self, side: Side, text: str) -> None:
        if self.beaver_taken_by is not None and not _ROLL_ENTRY.match(text):
            self.entries.append((self.beaver_taken_by, " Takes"))
        self.beaver_taken_by = None
        self.entries.append((side, text))

    def close(self) -> None:
        if self.beaver_taken_by is not None:
            self.entries.append((self.beaver_taken_by, " Takes"))
            self.beaver_taken_by = None


def export_mat(
    rules: MatchRules,
    actions: Iterable[Action],
    names: PerSide[str],
    *,
    event: str = "",
    date: _dt.date | None = None,
    site: str = "",
) -> str:
    """The ``.mat`` text of a match record (finished or not).

    Names are written without spaces, colons or quotes, which the format cannot hold.
    """
    names = PerSide(_safe_name(names.black, "Black"), _safe_name(names.white, "White"))
    games = _games(rules, actions)
    lines = _header(rules, names, event, date, site)
    lines += ["", f" {rules.match_length} point match", ""]
    for game in games:
        left = f" {names.black} : {game.score.black}"
        lines += [f" Game {game.number}", f"{left:<31} {names.white} : {game.score.white}"]
        lines += _move_lines(game.entries)
        lines.append("")
    return "\n".join(lines) + "\n"


def _safe_name(name: str, default: str) -> str:
    cleaned = _UNSAFE.sub("_", name.strip()).strip("_")
    return cleaned or default


def _header(
    rules: MatchRules, names: PerSide[str], event: str, date: _dt.date | None, site: str
) -> list[str]:
    tags: list[tuple[str, str]] = []
    if site:
        tags.append(("Site", site))
    if event:
        tags.append(("Event", event))
    tags += [("Player 1", names.black), ("Player 2", names.white)]
    if date is not None:
        tags.append(("EventDate", f"{date.year:04d}.{date.month:02d}.{date.day:02d}"))
    layout = rules.variant.layout
    variation = {STANDARD_LAYOUT: "Backgammon", NACKGAMMON_LAYOUT: "NackGammon"}
    tags.append(("Variation", variation.get(layout, rules.variant.name)))
    crawford = rules.match_length > 0 and rules.variant.uses_cube
    tags.append(("Crawford", "On" if crawford else "Off"))
    if rules.money:
        tags += [
            ("Jacoby", "On" if rules.jacoby else "Off"),
            ("Beaver", "On" if rules.beavers else "Off"),
        ]
    lines = [f'; [{key} "{value.replace(chr(34), chr(39))}"]' for key, value in tags]
    return lines + [f"; {note}" for note in _reader_notes(rules)]


def _reader_notes(rules: MatchRules) -> list[str]:
    """What a reader of the file (GNU Backgammon) would get wrong about these rules."""
    variant = rules.variant
    name = f"{variant.name} ({variant.code})"
    notes = []
    if variant.last_off_loses:
        notes.append(
            f"{name}: the first to bear off all checkers loses, and"
            f" {variant.draw_after_moves} moves a side is a draw;"
            " GNU Backgammon reads the moves as ordinary backgammon and scores them wrongly."
        )
    if variant.starts_on_bar:
        notes.append(
            f"{name}: all checkers start on the bar; GNU Backgammon cannot replay these moves."
        )
    if not variant.counts_gammons and not variant.last_off_loses:
        notes.append(
            f"Gammons and backgammons count as a single game in {name};"
            " GNU Backgammon scores them double unless its Jacoby rule is on."
        )
    if rules.money and rules.automatic_doubles:
        notes.append(
            f"Automatic doubles (up to {rules.automatic_doubles}) turned the cube on tied opening"
            " rolls; the file does not record them, so GNU Backgammon replays those games at a"
            " lower cube."
        )
    return notes


def _games(rules: MatchRules, actions: Iterable[Action]) -> list[_Game]:
    state = _match.new_match(rules)  # looked up now, as replay does: tests patch it
    games = [_Game(1, state.score)]
    for action in actions:
        after = apply_action(state, action)
        for side, text in _entries(state, action, after):
            games[-1].add(side, text)
        if action.kind is ActionKind.TAKE and state.beavered:
            games[-1].beaver_taken_by = state.actor
        if after.game_number != state.game_number:
            games[-1].close()
            games.append(_Game(after.game_number, after.score))
        state = after
    games[-1].close()
    return games


def _entries(state: MatchState, action: Action, after: MatchState) -> list[tuple[Side, str]]:
    """What ``action`` writes: its own entry, and the winner's line when it ends the game."""
    entries: list[tuple[Side, str]] = []
    actor = state.actor
    kind = action.kind
    if kind is ActionKind.PLAY and state.dice is not None:
        play = find_play(state.position, state.dice, action.moves)
        entries.append((state.turn, f"{state.dice[0]}{state.dice[1]}: {format_play(play)} "))
    elif kind is ActionKind.DOUBLE:
        entries.append((state.turn, f" Doubles => {state.cube_value * 2}"))
    elif kind is ActionKind.TAKE and actor is not None and not state.beavered:
        entries.append((actor, " Takes"))
    elif kind is ActionKind.BEAVER and actor is not None:
        entries.append((actor, f" Beavers => {state.cube_value * 4}"))
    elif kind is ActionKind.DROP and actor is not None:
        entries.append((actor, " Drops"))
    elif kind is ActionKind.ACCEPT_RESIGN and _roll_kept(state):
        assert state.dice is not None
        entries.append((state.turn, f"{state.dice[0]}{state.dice[1]}: "))
    ended = after.last_game_result is not state.last_game_result
    result = after.last_game_result
    if ended and result is not None and result.winner is not None:
        entries.append((result.winner, _wins(result, after)))
    return entries


def _roll_kept(state: MatchState) -> bool:
    """A resignation after a roll keeps it, unless it had one legal play or none: gnubg's reader
    plays such a bare roll."""
    return state.dice is not None and len(legal_plays(state.position, state.dice)) > 1


def _wins(result: GameResult, after: MatchState) -> str:
    unit = "point" if result.points == 1 else "points"
    text = f" Wins {result.points} {unit}"
    if after.phase is Phase.MATCH_OVER and after.rules.match_length:
        text += " and the match"
    if result.kind is WinKind.TIMEOUT:
        text += " (the opponent ran out of time)"
    return text


def _move_lines(entries: list[tuple[Side, str]]) -> list[str]:
    """Entries laid out two to a line: Black's on the left, White's on the right."""
    rows: list[list[str]] = []
    cell = 0
    for side, text in entries:
        if cell % 2 != int(side):
            cell += 1
        if cell // 2 == len(rows):
            rows.append(["", ""])
        rows[cell // 2][cell % 2] = text
        cell += 1
    lines = []
    for number, (left, right) in enumerate(rows, start=1):
        only_wins = not right and left.startswith(" Wins") or not left and right.startswith(" Wins")
        prefix = "     " if only_wins else f"{number:3d}) "
        # gnubg splits a line without two rolls at the first double space after column 15.
        left_cell = f"{left:<28}" if len(left) <= 26 else f"{left}  "
        if only_wins and not right:
            left_cell = left
        lines.append(f"{prefix}{left_cell}{right}")
    return lines
