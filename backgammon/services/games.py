"""Applying actions to a game: the one locked path from a request (or a deadline) to the log.

Every change goes: lock the game row, site checks (player? active? your turn? page current?),
the engine's checks, append the action and the automatic follow-ups, rewrite the snapshot, then
(after commit) schedule the next deadline. The state comes from the game's stored snapshot, not
a replay of the log: the row lock is held for the time of one action, however long the match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache, partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connections, router, transaction
from django.db.models import QuerySet
from django.db.models.signals import post_save, pre_save
from django.utils import timezone

from accounts.relations import either_ignores
from backgammon.engine import EngineError, PerSide, Side
from backgammon.engine.actions import Action, ActionKind
from backgammon.engine.clock import MatchClock
from backgammon.engine.dice import roll_at
from backgammon.engine.game import WinKind
from backgammon.engine.match import MatchState, Phase, apply_action
from backgammon.engine.match_json import state_to_dict
from backgammon.engine.notation import format_play
from backgammon.engine.plays import Play, find_play, only_play
from backgammon.models import Game, GameAction
from backgammon.move_records import remember_appended
from backgammon.signals import actions_logged, game_changed, match_finished, untimed_player_ids
from gamesite.after_answer import after_answer
from gamesite.text import text_refusal

from .clocks import deadline_from
from .log_facts import action_facts
from .refusals import ActionRejected, Refusal

__all__ = [
    "MESSAGE_MAX",
    "STATE_COLUMNS",
    "ActionSource",
    "game_apply_action",
    "game_enforce_deadline",
    "game_start",
    "overdue_games",
    "result_text",
    "roll_request",
    "write_state_columns",
]

MESSAGE_MAX = 500
NO_MESSAGES_ACROSS_IGNORE = "That player cannot receive your messages: make the move without one."
STALE_PAGE = "This game has moved on since your page was loaded: reload to see the new position"
# A chain of automatic actions is short (a few tied opening rolls, one automatic roll); a longer
# one means the engine keeps asking for the same thing, and we refuse rather than loop forever.
_MAX_FOLLOW_UPS = 50
# Forced plays the site makes in one request, by the players' choice (accounts.models.AutoPlay):
# one each way at most, so two players who both cannot move (both on the bar against closed
# boards) are handed the turn in turn instead of passing for each other without end.
_MOST_AUTO_PLAYS = 2
# Only the system times a player out; a player's request of this kind is refused.
_SYSTEM_KINDS = frozenset({ActionKind.TIMEOUT})


def _dice_key() -> bytes:
    key = settings.DICE_KEY
    return key if isinstance(key, bytes) else str(key).encode("utf-8")


@dataclass
class _Log:
    """The actions appended in one transaction, applied to the state as they come."""

    game: Game
    state: MatchState
    now: datetime
    mover_id: int | None = None  # the player who asked for these actions; None for the site's own
    rows: list[GameAction] = field(default_factory=list)
    rolls: int = 0
    auto_plays: int = 0

    def roll(self, *, side: Side | None, message: str = "") -> None:
        """Append a roll of the server's dice."""
        # Each roll of a request reads the dice table one millisecond further on: a tied opening
        # roll re-rolled at the same instant would give the same tie again. created_at keeps the
        # instant, so any roll can be checked against the keyed table afterwards.
        instant = self.now + timedelta(milliseconds=self.rolls)
        self.rolls += 1
        dice = roll_at(_dice_key(), instant)
        self.append(Action.roll(*dice), side=side, message=message, at=instant)

    def append(
        self, action: Action, *, side: Side | None, message: str = "", at: datetime | None = None
    ) -> None:
        notation = ""
        try:
            # The engine judges the action first: a play outside the MOVE phase has no dice to name.
            new_state = apply_action(self.state, action, by=side)
            if action.kind is ActionKind.PLAY and self.state.dice is not None:
                notation = format_play(find_play(self.state.position, self.state.dice, action.moves))
        except EngineError as refusal:
            raise ActionRejected(str(refusal)) from None
        self.rows.append(
            GameAction(
                game=self.game,
                number=self.game.action_count + len(self.rows) + 1,
                side=None if side is None else int(side),
                kind=action.kind.value,
                data=action.to_dict(),
                notation=notation,
                message=message,
                created_at=at or self.now,
                **action_facts(self.state, action, new_state),
            )
        )
        self.state = new_state

    def follow_ups(self) -> None:
        """The actions nobody chooses: opening rolls (ties again) and rolls of a player who cannot double."""
        for _ in range(_MAX_FOLLOW_UPS):
            state = self.state
            if state.phase is Phase.OPENING_ROLL:
                self.roll(side=None)
            elif state.phase is Phase.ROLL and state.roll_is_automatic:
                self.roll(side=state.turn)
            elif state.phase is Phase.MOVE and (play := self._play_without_choice()) is not None:
                self.append(Action.play([(move.origin, move.destination) for move in play.moves]), side=state.turn)
                self.auto_plays += 1
            else:
                return
        raise RuntimeError(f"Game {self.game.pk}: automatic actions did not come to an end")

    def _play_without_choice(self) -> Play | None:
        """The one legal play of the player to move (a forced move, or no move at all: a dance),
        when they chose to have the site make it in a game like this one; else None."""
        state = self.state
        if state.dice is None or self.auto_plays >= _MOST_AUTO_PLAYS:
            return None
        play = only_play(state.position, state.dice)
        if play is None:
            return None
        forced_move, dance = _auto_play_choices(self.game.player_id(state.turn))
        choice = dance if not play.moves else forced_move
        return play if choice == "always" or (choice == "live" and self.game.is_live) else None

    def save(self) -> Game:
        """Append the rows and rewrite the snapshot; the caller holds the row lock."""
        clock = _charged_clock(self.game, self.state, self.now, new_turn=self._turn_came_round())
        if clock is not None:
            reading = clock.reading(self.now)
            for row in self.rows:
                row.clock_black_ms, row.clock_white_ms = reading.black, reading.white
        _write_snapshot(self.game, self.state, self.now, self.rows, clock)
        game = self.game
        remember_appended(game, self.rows)
        actions_logged.send(sender=Game, game=game, actions=self.rows)
        # A live game's reserve is the worker's live sweep's (backgammon/tasks.py says why).
        if game.deadline is not None and not game.is_live:
            transaction.on_commit(partial(_schedule, game.pk, game.action_count, game.deadline))
        # Whether the player to act now did not choose these actions: after a roll the roller
        # still moves, and nobody needs telling that it is their turn.
        chooser = self.rows[0].side if self.rows else None
        actor = self.state.actor
        turn_passed = actor is not None and chooser != int(actor)
        same_turn = actor is not None and not turn_passed  # they rolled and still move
        # Those who hear of it (the opponent's open page, a bot, a your-turn mail) hear once the
        # mover's answer has gone out (gamesite/after_answer.py).
        changed = partial(
            game_changed.send,
            sender=Game,
            game=game,
            mover_id=self.mover_id,
            game_id=game.pk,
            action_number=game.action_count,
            actor_id=game.actor_id,
            player_ids=(game.black_id, game.white_id),
            turn_passed=turn_passed,
            same_turn=same_turn,
            # The player to act only rolled, with no message: their opponent's open page needs
            # the dice, not a new region (backgammon/live.py).
            rolled_only=same_turn and len(self.rows) == 1 and self.rows[0].kind == ActionKind.ROLL.value
            and not self.rows[0].message,
        )
        transaction.on_commit(partial(after_answer, changed))
        return game


    def _turn_came_round(self) -> bool:
        """Whether these actions began a new turn for the player to act now even if they were
        the one acting before: a turn of the opponent's (a dance the site passed) or a new
        game's opening roll came between."""
        actor = self.state.actor
        return actor is not None and any(row.side is None or row.side != int(actor) for row in self.rows)


def _auto_play_choices(user_id: int) -> tuple[str, str]:
    """A player's (forced move, dance) choices: "never", "live" or "always"."""
    from accounts.models import AutoPlay, Profile

    row = Profile.objects.filter(user_id=user_id).values_list("auto_forced_move", "auto_pass_dance").first()
    return row or (AutoPlay.LIVE.value, AutoPlay.LIVE.value)


def _schedule(game_id: int, action_number: int, deadline: datetime) -> None:
    from backgammon.tasks import schedule_deadline

    schedule_deadline(game_id=game_id, action_number=action_number, deadline=deadline)


def _charged_clock(game: Game, state: MatchState, now: datetime, *, new_turn: bool = False) -> MatchClock | None:
    """A live game's clock after actions applied at ``now``: whoever ran is charged to ``now``,
    and it runs for whoever decides next (stopped when nobody does), from a new turn's delay
    when ``new_turn``, even for the player who ran. None by correspondence.

    The server's instant is the only one counted: the clock runs from the commit that made the
    turn readable to the moment the answer reaches this locked path, and nothing a client says
    about its own timing is believed. The turn's delay is what absorbs the network (see the
    help page's "Live games"): a push reaches the page in a fraction of a second, the delay is
    8 s or more, so the reserve runs only once the player has had the whole delay to answer.
    """
    if not game.is_live:
        return None
    actor = state.actor
    clock = game.match_clock()
    if clock is None:
        return MatchClock.start(game.time_control(), running=actor, at=now)
    return clock.handed_to(actor, now, new_turn=new_turn)


STATE_COLUMNS = [
    "state_data", "phase", "turn", "position_id", "match_id", "dice", "cube_value", "cube_owner",
    "score_black", "score_white", "game_number", "crawford",
]
"""The snapshot columns that follow from the engine state alone (not the clock, not the players)."""


_SNAPSHOT_FIELDS = [
    "action_count", *STATE_COLUMNS, "actor", "deadline", "clock", "status", "winner", "result", "updated_at",
]


def _write_snapshot(
    game: Game, state: MatchState, now: datetime, rows: list[GameAction], clock: MatchClock | None
) -> None:
    """Append ``rows`` and rewrite the game's snapshot, then tell who listens."""
    waiting_on = (game.actor_id, game.status)
    game.action_count += len(rows)
    write_state_columns(game, state)
    actor = state.actor
    game.actor_id = None if actor is None else _player_id(game, actor)
    if clock is not None:
        # A live game: the deadline is the instant the running reserve runs out, for bots too
        # (they answer within the delay), and vacations do not stop a match being played now.
        game.clock = clock.to_dict()
        game.deadline = clock.flag_at()
    else:
        untimed = game.actor_id is not None and untimed_player_ids([game.actor_id])
        game.deadline = None if actor is None or untimed else deadline_from(game, game.actor_id, now)
    finished = state.phase is Phase.MATCH_OVER and game.status == Game.Status.ACTIVE
    if finished:
        game.status = Game.Status.FINISHED
        winner = state.match_winner
        game.winner_id = None if winner is None else _player_id(game, winner)
        game.result = result_text(game, state)
    game._state_cache = state  # type: ignore[attr-defined]
    # The players' PLAY counts depend on whose turn it is and whether the game goes on: a roll
    # changes neither, and its save leaves them kept (queries.forget_awaiting_counts).
    game._play_counts_unchanged = (game.actor_id, game.status) == waiting_on  # type: ignore[attr-defined]
    _save_snapshot(game, rows)
    if finished:
        match_finished.send(sender=Game, game=game, how="played")


def _save_snapshot(game: Game, rows: list[GameAction]) -> None:
    """``rows`` appended (``_insert_actions``) and ``game.save(update_fields=_SNAPSHOT_FIELDS)``,
    each statement's SQL built once per process: every action writes the same columns, and
    building the statement was half of the save's cost (about 0.4 of 0.8 ms, more than the
    engine's whole turn). On PostgreSQL both go in one statement, one round trip fewer for every
    action (``_appended_and_saved``). The values are prepared by each field as save() prepares
    them (auto_now, the JSON state), and pre_save and post_save are sent as save() sends them, so
    what listens to a game's change (gamesite.kept forgetting the players' counts) hears it."""
    using = router.db_for_write(Game, instance=game)
    connection = connections[using]
    fields = frozenset(_SNAPSHOT_FIELDS)
    pre_save.send(sender=Game, instance=game, raw=False, using=using, update_fields=fields)
    columns, sql = _snapshot_update(using)
    values = [column.get_db_prep_save(column.pre_save(game, False), connection) for column in columns]
    if rows and connection.vendor == "postgresql":
        _appended_and_saved(game, rows, values)
    else:
        _insert_actions(rows)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*values, game.pk])
            if cursor.rowcount != 1:
                raise DatabaseError(f"Game {game.pk}: the snapshot's UPDATE changed {cursor.rowcount} rows")
    game._state.adding, game._state.db = False, using
    post_save.send(sender=Game, instance=game, created=False, update_fields=fields, raw=False, using=using)


def _appended_and_saved(game: Game, rows: list[GameAction], snapshot_values: list[Any]) -> None:
    """The rows' INSERT and the snapshot's UPDATE in one statement (data-modifying WITH queries,
    PostgreSQL's): each row gets its id, in the order given, and the UPDATE must change the row."""
    using = router.db_for_write(GameAction)
    connection = connections[using]
    action_columns, sql = _appended_and_saved_sql(using, len(rows))
    action_values = [column.get_db_prep_save(column.pre_save(row, True), connection)
                     for row in rows for column in action_columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*action_values, *snapshot_values, game.pk])
        found = cursor.fetchall()
    updated = found[0][1] if found else 0
    if len(found) != len(rows) or updated != 1:
        raise DatabaseError(f"Game {game.pk}: {len(found)} of {len(rows)} actions appended, {updated} games updated")
    for row, (pk, _updated) in zip(rows, found, strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, using


@lru_cache(maxsize=16)
def _appended_and_saved_sql(using: str, count: int) -> tuple[list[Any], str]:
    """``_actions_insert``'s INSERT and ``_snapshot_update``'s UPDATE as one statement, answering
    each appended row's id (in the order appended: ids grow as rows go in) and how many games the
    UPDATE changed."""
    quote = connections[using].ops.quote_name
    action_columns, insert = _actions_insert(using, count)
    _columns, update = _snapshot_update(using)
    action_id = quote(GameAction._meta.pk.column)
    sql = (f"WITH appended AS ({insert}), snapshot AS ({update} RETURNING 1) "
           f"SELECT appended.{action_id}, (SELECT count(*) FROM snapshot) FROM appended ORDER BY appended.{action_id}")
    return action_columns, sql


@lru_cache(maxsize=4)
def _snapshot_update(using: str) -> tuple[list[Any], str]:
    """The snapshot's columns, and the UPDATE that writes them to a game's row."""
    quote = connections[using].ops.quote_name
    columns = [Game._meta.get_field(name) for name in _SNAPSHOT_FIELDS]
    assignments = ", ".join(f"{quote(column.column)} = %s" for column in columns)
    return columns, f"UPDATE {quote(Game._meta.db_table)} SET {assignments} WHERE {quote(Game._meta.pk.column)} = %s"


def _insert_actions(rows: list[GameAction]) -> None:
    """``GameAction.objects.bulk_create(rows)``, its INSERT's SQL built once per process and
    number of rows (every action appends one row, or a few): the ORM built the statement afresh
    for each, about a third of the append's cost. Each field prepares its value as bulk_create
    has it prepared, and each row gets its id; bulk_create sends no signal, nor does this."""
    using = router.db_for_write(GameAction)
    connection = connections[using]
    if not rows or not connection.features.can_return_rows_from_bulk_insert:
        GameAction.objects.bulk_create(rows)
        return
    columns, sql = _actions_insert(using, len(rows))
    values = [column.get_db_prep_save(column.pre_save(row, True), connection) for row in rows for column in columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        for row, (pk,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = pk
            row._state.adding, row._state.db = False, using


@lru_cache(maxsize=16)
def _actions_insert(using: str, count: int) -> tuple[list[Any], str]:
    """The action table's columns, and the INSERT that appends ``count`` rows and returns their ids
    in the order given."""
    quote = connections[using].ops.quote_name
    columns = [field for field in GameAction._meta.concrete_fields if not field.primary_key]
    row = f"({', '.join(['%s'] * len(columns))})"
    return columns, (f"INSERT INTO {quote(GameAction._meta.db_table)} ({', '.join(quote(c.column) for c in columns)}) "
                     f"VALUES {', '.join([row] * count)} RETURNING {quote(GameAction._meta.pk.column)}")


def write_state_columns(game: Game, state: MatchState) -> None:
    """Set (not save) the snapshot's STATE_COLUMNS from ``state``."""
    game.state_data = state_to_dict(state)
    game.phase = state.phase.value
    game.turn = int(state.turn)
    game.position_id = state.position_id()  # the side gnubg pairs with the Match ID
    game.match_id = state.match_id()
    game.dice = "".join(str(die) for die in state.dice) if state.dice else ""
    game.cube_value = state.cube_value
    game.cube_owner = None if state.cube_owner is None else int(state.cube_owner)
    game.score_black, game.score_white = state.score.black, state.score.white
    game.game_number = state.game_number
    game.crawford = state.crawford


def _player_id(game: Game, side: Side) -> Any:
    return game.black_id if side is Side.BLACK else game.white_id


_WIN_WORDS = {
    WinKind.SINGLE: "won",
    WinKind.GAMMON: "won a gammon",
    WinKind.BACKGAMMON: "won a backgammon",
    WinKind.DROP: "won: {loser} passed the double",
    WinKind.RESIGN: "won: {loser} resigned",
    WinKind.TIMEOUT: "won: {loser} ran out of time",
}


def result_text(game: Game, state: MatchState) -> str:
    """One line for lists, e.g. "alice won a gammon (2 points)" or "bob won the match 5-3"."""
    names = PerSide(game.black.get_username(), game.white.get_username())
    last = state.last_game_result
    winner = state.match_winner
    if winner is None:
        return "The game was a draw: 500 moves each without a winner"
    loser_name = names[winner.other]
    if last is not None and last.kind is WinKind.TIMEOUT:
        how = _WIN_WORDS[WinKind.TIMEOUT].format(loser=loser_name)
        return f"{names[winner]} {how}"
    if game.match_length:
        return f"{names[winner]} won the match {state.score[winner]}-{state.score[winner.other]}"
    if last is None:
        return f"{names[winner]} won"
    kind = last.kind
    if kind in (WinKind.GAMMON, WinKind.BACKGAMMON) and not state.rules.variant.counts_gammons:
        kind = WinKind.SINGLE  # BX, BN, BR, BA: a win is a win, whatever the loser has left
    how = _WIN_WORDS.get(kind, "won").format(loser=loser_name)
    plural = "" if last.points == 1 else "s"
    return f"{names[winner]} {how} ({last.points} point{plural})"


def _locked_game(game_id: int) -> Game:
    # The row lock makes requests for one game take turns: of two submissions of the same turn
    # (a double click, two tabs, a move racing its deadline task) the second waits, then sees the
    # first one's action_count and is refused, so an action is never applied twice. of=("self",)
    # keeps the players' rows unlocked: they take part in many games at once.
    using = router.db_for_write(Game)
    connection = connections[using]
    sql, converters, models_at = _locked_read(using)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        raise ActionRejected("There is no such game", Refusal.NOT_FOUND)
    values = list(row)
    for position, functions, expression in converters:
        for convert in functions:
            values[position] = convert(values[position], expression, connection)
    (game_at, black_at, white_at) = models_at
    game = Game.from_db(using, None, values[game_at])  # type: ignore[arg-type]
    game.black = get_user_model().from_db(using, None, values[black_at])  # type: ignore[arg-type]
    game.white = get_user_model().from_db(using, None, values[white_at])  # type: ignore[arg-type]
    return game


@lru_cache(maxsize=4)
def _locked_read(using: str) -> tuple[str, list[tuple[int, list[Any], Any]], tuple[slice, slice, slice]]:
    """The locked read of a game with its two players, as Django's ORM writes it, built once per
    process: building it cost more than the row lock took (0.5 of 1.1 ms per action). Its SQL,
    the converters of its columns (the JSON state), and where each model's columns are."""
    query = (Game.objects.select_for_update(of=("self",)).select_related("black", "white")
             .filter(pk=0).query)
    compiler = query.get_compiler(using)
    with transaction.atomic(using):  # select_for_update's SQL is only written inside one
        sql, params = compiler.as_sql()
    if list(params) != [0]:
        raise RuntimeError(f"the locked read of a game has unexpected parameters: {params}")
    converters = [(position, functions, expression) for position, (functions, expression)
                  in compiler.get_converters([column for column, _, _ in compiler.select]).items()]
    klass = compiler.klass_info
    assert klass is not None

    def columns(info: dict[str, Any]) -> slice:
        fields = info["select_fields"]
        if fields != list(range(fields[0], fields[0] + len(info["model"]._meta.concrete_fields))):
            raise RuntimeError("the locked read of a game does not read whole rows")
        return slice(fields[0], fields[-1] + 1)

    players = {info["field"].name: columns(info) for info in klass["related_klass_infos"]}
    return sql, converters, (columns(klass), players["black"], players["white"])


def _turn_words(game: Game, state: MatchState) -> str:
    actor = state.actor
    if actor is None:
        return "It is not your turn"
    return f"It is not your turn: waiting for {game.player(actor).get_username()}"


def roll_request() -> Action:
    """The action a player sends to roll: its dice are placeholders that the server replaces."""
    return Action.roll(1, 1)


ActionSource = Action | Callable[[MatchState], Action]
"""An action, or a function making it from the locked game's state (a form read against the
turn in play: the game row is then read once, under the lock)."""


def game_apply_action(
    *, game_id: int, actor: Any, action: ActionSource, expected_number: int, message: str = ""
) -> Game:
    """Apply a player's action and whatever follows automatically; return the updated game.

    ``expected_number`` is the game's ``action_count`` the player's page showed. A ROLL action's
    dice are ignored: the server rolls (the keyed table at this millisecond). Refusals raise
    ``ActionRejected`` (the function making the action may raise it too) and change nothing.
    """
    message = message.strip()
    if len(message) > MESSAGE_MAX:
        raise ActionRejected(f"A message can be at most {MESSAGE_MAX} characters")
    refusal = text_refusal(message, "message")
    if refusal:
        raise ActionRejected(refusal)
    if isinstance(action, Action):
        _check_kind(action)
    with transaction.atomic():
        game = _locked_game(game_id)
        side = game.side_of(actor)
        if side is None:
            raise ActionRejected("You are not playing in this game", Refusal.NOT_PLAYER)
        if game.status != Game.Status.ACTIVE:
            raise ActionRejected("This game is over: no more moves can be made")
        now = timezone.now()
        late = _late_side(game, now)
        if late is None:
            if expected_number != game.action_count:
                raise ActionRejected(STALE_PAGE, Refusal.STALE)
            state = game.state()
            if state.actor is not side:
                raise ActionRejected(_turn_words(game, state), Refusal.NOT_YOUR_TURN)
            # A move's message goes to the opponent's inbox, game page and notices: the ignore
            # list refuses it as it refuses a message, in the same words whichever side ignores.
            if message and either_ignores(game.black_id, game.white_id):
                raise ActionRejected(NO_MESSAGES_ACROSS_IGNORE)
            if not isinstance(action, Action):
                action = _check_kind(action(state))
            log = _Log(game, state, now, mover_id=actor.pk)
            if action.kind is ActionKind.ROLL:
                log.roll(side=side, message=message)
            else:
                log.append(action, side=side, message=message)
            log.follow_ups()
            return log.save()
        # The deadline task may run late (worker busy, down or restarting), so the clock is
        # judged here, under the lock: the timeout is committed and only then the action refused.
        missed = game.deadline
        _apply_timeout(game, now)
    raise ActionRejected(_too_late_words(game, late, side, missed))


def _check_kind(action: Action) -> Action:
    if action.kind in _SYSTEM_KINDS:
        raise ActionRejected("Only the site can time a player out")
    return action


def _late_side(game: Game, now: datetime) -> Side | None:
    """The side whose move deadline has passed in this active game, if any."""
    if game.deadline is None or game.deadline > now:
        return None
    return game.state().actor


def _too_late_words(game: Game, late: Side, side: Side, missed: datetime | None) -> str:
    # A live reserve runs out to the second; a correspondence limit is read to the minute.
    instant = "%Y-%m-%d %H:%M:%S" if game.is_live else "%Y-%m-%d %H:%M"
    when = "" if missed is None else f" at {missed:{instant}} UTC"
    what = "your reserve" if game.is_live else "your time for this move"
    if late is side:
        return f"Too late: {what} ran out{when}, so you lost on time."
    name = game.player(late).get_username()
    theirs = f"{name}'s reserve" if game.is_live else f"{name}'s time for this move"
    return f"Too late: {theirs} ran out{when}, so you won on time."


def _apply_timeout(game: Game, now: datetime) -> None:
    """Time out the player to act (the caller holds the row lock and has checked the deadline)."""
    log = _Log(game, game.state(), now)
    log.append(Action.timeout(), side=None)
    log.follow_ups()
    log.save()


def game_start(*, game: Game) -> Game:
    """Roll the opening of a game just created (inside the caller's transaction) and snapshot it."""
    log = _Log(game, game.state(), timezone.now())
    log.follow_ups()
    return log.save()


def game_enforce_deadline(*, game_id: int, action_number: int, now: datetime | None = None) -> bool:
    """Time out the player who must act if the game still waits at ``action_number`` past its deadline.

    Returns whether a timeout was applied. Safe to call any number of times, from any worker.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            game = _locked_game(game_id)
        except ActionRejected:
            return False
        if (
            game.status != Game.Status.ACTIVE
            or game.action_count != action_number
            or game.deadline is None
            or game.deadline > now
        ):
            return False
        _apply_timeout(game, now)
        return True


def overdue_games(now: datetime | None = None) -> QuerySet[Game]:
    """Active games whose player to act is past the deadline."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE, deadline__isnull=False, deadline__lte=now or timezone.now()
    )
