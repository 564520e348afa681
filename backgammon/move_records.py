"""The moves list of the game page: the log read as plain values, then grouped per game.

Each logged row carries what the list needs from the states around it (its game number, the dice
a play used, the result when it ended a game: see services.log_facts), so building the list reads
rows only and never replays the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from django.conf import settings

from accounts.relations import either_ignores
from backgammon.engine import PerSide, Side
from backgammon.engine.actions import Action, ActionKind
from backgammon.engine.game import GameResult
from backgammon.engine.match_json import result_from_dict
from backgammon.engine.matfile import export_mat
from backgammon.models import Game
from gamesite.kept import forget, keep_unchanging, kept, kept_if_any

__all__ = [
    "GameRecord", "LoggedAction", "MoveRow", "earlier_game_records", "forget_logged", "game_records", "logged_actions",
    "mat_text", "messages_shown_to", "remember_appended", "result_words",
]


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One logged action with the facts its row keeps from the states around it.

    ``rolled`` is a roll's dice (the opening roll: Black's die, then White's) and ``level`` a
    resignation's size. ``game_number`` is the game of the match the action belongs to; ``dice``
    the roll a play played; ``cube_value`` the cube before it; ``board_id`` the Position ID a
    play started from (the mover's side); ``result`` the result of the game it ended, if any.
    """

    number: int
    side: Side | None
    kind: ActionKind
    rolled: tuple[int, int] | None
    level: int
    notation: str
    message: str
    game_number: int
    dice: tuple[int, int] | None
    cube_value: int
    board_id: str
    result: GameResult | None

    def __reduce__(self) -> tuple[Any, ...]:
        # Kept logs are pickled and unpickled on most actions: the values in one tuple load
        # several times faster than a slotted dataclass's own state, set field by field; read
        # with one attrgetter, a log of 80 actions pickles in half the time of a generator's.
        return (LoggedAction, _logged_values(self))

    @property
    def actor(self) -> Side | None:
        """Who acted: the player, or for a timeout (logged by the system) the one who ran out of time."""
        if self.side is None and self.kind is ActionKind.TIMEOUT and self.result is not None:
            return None if self.result.winner is None else self.result.winner.other
        return self.side


_logged_values = attrgetter(*LoggedAction.__slots__)  # type: ignore[attr-defined]


_ROW_FIELDS = (
    "number", "side", "kind", "data", "notation", "message", "game_number", "dice", "cube_value",
    "position_id", "game_result",
)


# The log up to a given action never changes, so it is kept under the game's action count: each
# version of a game is shown to both players and to every click of the turn, and read once.
LOGGED_SECONDS = 3600


def logged_key(game_id: int, action_count: int, from_game: int) -> str:
    return f"backgammon:logged:{game_id}:{action_count}:{from_game}"


def logged_actions(game: Game, *, from_game: int = 1) -> list[LoggedAction]:
    """The game's log as the page reads it: the rows' columns alone, no replay; ``from_game``
    leaves out the earlier games of a match (the page reads only the current game's rows).

    One query for plain values: a long match has hundreds of rows, and model instances for
    them would cost more than everything else on the page. Only the rows up to ``game``'s
    action count, even when a move has landed since the game was read, so what is kept under
    that count (gamesite.kept) is that version's log and nothing later.

    Right after an action (``remember_appended``) the new version is the one before it, as
    kept, and the rows just appended: no query. Each version is also remembered on the game
    object, for the two regions an action renders (the mover's answer, the opponent's update).
    """
    memo: dict[tuple[int, int], list[LoggedAction]] = game.__dict__.setdefault("_logged_versions", {})
    version = (game.action_count, from_game)
    if version not in memo:
        key = logged_key(game.pk, game.action_count, from_game)
        # A version just appended under the row lock cannot be kept yet: no need to ask for it.
        appended = _appended_to_kept(game, from_game)
        if appended is None:
            memo[version] = kept(key, lambda: _read_logged(game, from_game), LOGGED_SECONDS)
        else:
            keep_unchanging(key, appended, LOGGED_SECONDS)
            memo[version] = appended
    return memo[version]


def remember_appended(game: Game, rows: Sequence[Any]) -> None:
    """The service appended ``rows`` (GameAction, saved) to ``game``, whose action count already
    includes them: the next read of its log can build on the version before them."""
    game._appended_rows = (game.action_count - len(rows), list(rows))  # type: ignore[attr-defined]


def version_to_read(game: Game, from_game: int) -> str:
    """The kept log a page of ``game`` reads (for gamesite.kept.ask_together): right after an
    action, the version before it (see logged_actions), otherwise the game's own."""
    appended = getattr(game, "_appended_rows", None)
    count = game.action_count if appended is None else appended[0]
    return logged_key(game.pk, count, from_game)


def _appended_to_kept(game: Game, from_game: int) -> list[LoggedAction] | None:
    """The version before the rows just appended, as kept, and those rows; None when it is not
    kept (or the rows began a new game, whose version before was never asked for)."""
    appended = getattr(game, "_appended_rows", None)
    if appended is None or not settings.KEPT_ANSWERS:
        return None
    before, rows = appended
    if before + len(rows) != game.action_count:
        return None
    earlier = kept_if_any(logged_key(game.pk, before, from_game))
    if earlier is None:
        return None
    return [*earlier, *(_logged(*(getattr(row, name) for name in _ROW_FIELDS)) for row in rows
                        if row.game_number >= from_game)]


def _read_logged(game: Game, from_game: int) -> list[LoggedAction]:
    rows = game.actions.filter(number__lte=game.action_count).order_by("number")
    if from_game > 1:
        rows = rows.filter(game_number__gte=from_game)
    return [_logged(*row) for row in rows.values_list(*_ROW_FIELDS)]


def forget_logged(game: Game) -> None:
    """After the log's facts were rewritten in place (services.consistency's repair)."""
    forget(*(logged_key(game.pk, game.action_count, number) for number in range(1, game.game_number + 1)))


def earlier_game_records(game: Game, names: PerSide[str], *, counts_gammons: bool,
                         with_messages: bool) -> tuple[list[GameRecord], bool]:
    """The moves lists of the match's games before the current one (they never change again),
    and whether a message came with any of their actions."""
    rows = game.actions.filter(game_number__lt=game.game_number).order_by("number")
    logged = [_logged(*row) for row in rows.values_list(*_ROW_FIELDS)]
    records = game_records(logged, names, counts_gammons=counts_gammons, with_messages=with_messages)
    return records, any(item.message for item in logged)


def messages_shown_to(game: Game, viewer: Any, logged: Sequence[LoggedAction]) -> bool:
    """Whether ``viewer`` reads the messages among ``logged`` (the game page, the API's GAME,
    the replay): only the game's two players do, and neither once one ignores the other (the
    messages from before the ignore too; new ones are refused). The ignore list is asked only
    when there is a message to hide, so the usual game costs no query."""
    if game.side_of(viewer) is None:
        return False
    return not any(item.message for item in logged) or not either_ignores(game.black_id, game.white_id)


def _logged(
    number: int, side: int | None, kind: str, data: dict[str, Any], notation: str, message: str,
    game_number: int, dice: str, cube_value: int, position_id: str, game_result: object,
) -> LoggedAction:
    # ``data`` is what Action.to_dict wrote, checked by the engine when it was appended.
    rolled = data.get("dice")
    return LoggedAction(
        number=number,
        side=None if side is None else Side(side),
        kind=ActionKind(kind),
        rolled=None if rolled is None else (rolled[0], rolled[1]),
        level=data.get("level", 0),
        notation=notation,
        message=message,
        game_number=game_number,
        dice=(int(dice[0]), int(dice[1])) if len(dice) == 2 else None,
        cube_value=cube_value,
        board_id=position_id,
        result=None if game_result is None else result_from_dict(game_result),
    )


@dataclass
class MoveRow:
    number: int
    cells: list[str | None] = field(default_factory=lambda: [None, None])
    messages: list[str] = field(default_factory=lambda: ["", ""])

    @property
    def has_message(self) -> bool:
        return any(self.messages)


@dataclass
class GameRecord:
    """The moves list of one game of the match: an opening line, then numbered rows (Black, White)."""

    number: int
    opening: str = ""
    rows: list[MoveRow] = field(default_factory=list)
    result: str = ""


def _dice_text(dice: tuple[int, int] | None) -> str:
    # Players read a roll higher die first ("61", never "16"), whatever order the dice fell in.
    return "" if dice is None else f"{max(dice)}{min(dice)}"


_RESIGN = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def _entry(item: LoggedAction) -> str:
    kind = item.kind
    if kind is ActionKind.PLAY:
        return f"{_dice_text(item.dice)}: {item.notation or 'cannot move'}"
    return {
        ActionKind.DOUBLE: f"doubles to {item.cube_value * 2}",
        ActionKind.TAKE: "takes",
        ActionKind.DROP: "passes",
        ActionKind.BEAVER: f"beavers, cube to {item.cube_value * 4}",
        ActionKind.RESIGN: f"offers to resign {_RESIGN.get(item.level, '')}",
        ActionKind.ACCEPT_RESIGN: "accepts the resignation",
        ActionKind.REJECT_RESIGN: "rejects the resignation",
        ActionKind.TIMEOUT: "ran out of time",
    }.get(kind, "")


def game_records(
    logged: Sequence[LoggedAction], names: PerSide[str], *, counts_gammons: bool, with_messages: bool,
) -> list[GameRecord]:
    """The moves list: one record per game, rows numbered like a .mat file, Black left, White right.

    Messages are private between the two players (as on ItsYourTurn): ``with_messages`` only for them.
    """
    records: list[GameRecord] = []
    for item in logged:
        number = item.game_number
        if not records or records[-1].number != number:
            records.append(GameRecord(number))
        record = records[-1]
        if item.kind is ActionKind.ROLL and item.side is None and item.rolled:
            black, white = item.rolled
            record.opening = f"Opening roll: {names.black} {black}, {names.white} {white}"
            continue
        if item.kind is ActionKind.ROLL:
            continue
        side = item.actor
        if side is None:
            continue
        _place(record, side, _entry(item), item.message if with_messages else "")
        if item.result is not None:
            record.result = result_words(item.result, names, counts_gammons=counts_gammons)
    return records


def _place(record: GameRecord, side: Side, text: str, message: str) -> None:
    row = record.rows[-1] if record.rows else None
    if side is Side.BLACK or row is None or row.cells[1] is not None:
        row = MoveRow(len(record.rows) + 1)
        record.rows.append(row)
    row.cells[side] = text
    row.messages[side] = message


_HOW = {
    "single": "won",
    "gammon": "won a gammon",
    "backgammon": "won a backgammon",
    "drop": "won: {loser} passed the double",
    "resign": "won: {loser} resigned",
    "timeout": "won: {loser} ran out of time",
}


def result_words(result: Any, names: PerSide[str], *, counts_gammons: bool = True) -> str:
    """'alice won a gammon (2 points)', or the draw of anti-backgammon.

    Where gammons do not count (BX, BN...) a gammon is just a win, and is called one.
    """
    if result.winner is None:
        return "a draw: 500 moves each without a winner"
    plural = "" if result.points == 1 else "s"
    kind = str(result.kind)
    if not counts_gammons and kind in ("gammon", "backgammon"):
        kind = "single"
    how = _HOW.get(kind, "won").format(loser=names[result.winner.other])
    return f"{names[result.winner]} {how} ({result.points} point{plural})"


def mat_text(game: Game, *, site: str = "") -> str:
    """The match so far as a Jellyfish/GNU Backgammon .mat file, the players named by userid,
    with the headers gnubg's own export writes (where, what, when)."""
    logged = game.actions.order_by("number").values_list("data", flat=True)
    names = PerSide(game.black.get_username(), game.white.get_username())
    return export_mat(
        game.rules(), [Action.from_dict(data) for data in logged], names, site=site,
        event=f"Gammon Turn game {game.pk}: {game.variant_name}", date=game.created_at.date(),
    )
