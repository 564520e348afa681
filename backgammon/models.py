"""The game app's data: challenges, games with their append-only action log, and staff decisions.

A game's truth is its action log (``GameAction`` rows numbered 1, 2, 3...): the engine replays it.
The ``Game`` row also keeps a snapshot of the replayed state: the whole engine state as JSON
(``state_data``, what ``Game.state()`` reads) and its parts as columns (phase, position, dice,
cube, score, who must act, deadline) for lists and queries, so no request replays the log. Each
``GameAction`` row likewise keeps what the moves list needs from the states around it. Only the
services in ``backgammon.services`` write any of it, under a row lock, in one transaction;
``manage.py check_game_states`` replays logs to confirm the snapshots.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon.engine import VARIANTS, Side, find_variant

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from backgammon.engine.clock import MatchClock, TimeControl
    from backgammon.engine.game import MatchRules
    from backgammon.engine.match import MatchState

__all__ = [
    "TIME_LIMITS", "AutoMatchRequest", "Challenge", "Game", "GameAction", "StaffAction", "TimeGift",
    "time_limit_label",
]

logger = logging.getLogger(__name__)

VARIANT_CHOICES = [(code, f"{variant.name} ({code})") for code, variant in VARIANTS.items()]


def _limit(delta: timedelta, label: str) -> tuple[timedelta, str]:
    return delta, label


# ItsYourTurn's per-move limits, plus short ones for two players who are online together (not
# live play: a live game has a match clock, backgammon/engine/clock.py).
TIME_LIMITS: tuple[tuple[timedelta, str], ...] = (
    _limit(timedelta(minutes=1), "1 minute (both online)"),
    _limit(timedelta(minutes=2), "2 minutes (both online)"),
    _limit(timedelta(minutes=5), "5 minutes (both online)"),
    _limit(timedelta(minutes=10), "10 minutes (both online)"),
    _limit(timedelta(hours=1), "1 hour"),
    _limit(timedelta(hours=2), "2 hours"),
    _limit(timedelta(hours=4), "4 hours"),
    _limit(timedelta(hours=8), "8 hours"),
    _limit(timedelta(hours=12), "12 hours"),
    _limit(timedelta(days=1), "1 day"),
    _limit(timedelta(days=2), "2 days"),
    _limit(timedelta(days=3), "3 days"),
    _limit(timedelta(days=5), "5 days"),
    _limit(timedelta(days=7), "7 days"),
    _limit(timedelta(days=10), "10 days"),
    _limit(timedelta(days=14), "14 days"),
)
DEFAULT_TIME_LIMIT = timedelta(days=3)


def time_limit_label(delta: timedelta) -> str:
    """The player's words for a per-move limit, e.g. "3 days".

    >>> time_limit_label(timedelta(hours=12))
    '12 hours'
    """
    for value, label in TIME_LIMITS:
        if value == delta:
            return label
    return str(delta)


def _time_control(row: Challenge | Game) -> TimeControl:
    """The time control a challenge asks for or a game is played with (stored as checked)."""
    from backgammon.engine.clock import ClockKind, TimeControl

    if row.live_reserve_s is not None:
        return TimeControl(ClockKind.LIVE, delay_s=row.live_delay_s or 0, reserve_s=row.live_reserve_s)
    return TimeControl(ClockKind.CORRESPONDENCE, per_move_s=int(row.time_limit.total_seconds()))


def _time_label(row: Challenge | Game) -> str:
    if row.live_reserve_s is not None:
        return f"live, {_time_control(row).describe()}"
    return time_limit_label(row.time_limit)


def _time_words(row: Challenge | Game) -> str:
    """E.g. "3 days per move", or "live, 12 s + 7 min" (a live clock is not per move)."""
    label = _time_label(row)
    return label if row.live_reserve_s is not None else f"{label} per move"


class Challenge(models.Model):
    """An invitation to play: the challenger (Black in the game) names an opponent and the rules.

    An open challenge (the waiting room) names no opponent (``challenged`` is NULL until someone
    joins it) and may ask for a rating range of whoever joins.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"
        # A live challenge not answered in time (services.challenges.LIVE_CHALLENGE_EXPIRY).
        EXPIRED = "expired"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        help_text="empty for an open challenge (waiting room) until someone joins it",
    )
    min_rating = models.PositiveSmallIntegerField(null=True, blank=True, help_text="open challenges")
    max_rating = models.PositiveSmallIntegerField(null=True, blank=True, help_text="open challenges")
    # Ladder challenges and challenges to a computer opponent start games that never count
    # toward a non-member's limit of simultaneous games (services.game_limit).
    counts_toward_limit = models.BooleanField(default=True)
    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    match_length = models.PositiveSmallIntegerField(default=0, help_text="0 for a single game")
    time_limit = models.DurationField(help_text="per move (a live game: its delay plus reserve)")
    live_delay_s = models.PositiveSmallIntegerField(null=True, blank=True, help_text="live games: each turn's delay")
    live_reserve_s = models.PositiveIntegerField(null=True, blank=True, help_text="live games: each player's reserve")
    rated = models.BooleanField(default=True)
    jacoby = models.BooleanField(default=False)
    beavers = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    stake = models.PositiveIntegerField(default=0, help_text="money game: points per point won")
    message = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    game = models.ForeignKey("Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # A rematch (services.rematch): the finished live match whose players it asks to play again.
    rematch_of = models.ForeignKey("Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = (
            models.Index(fields=["challenged", "status"], name="challenge_to_status"),
            models.Index(fields=["challenger", "status"], name="challenge_from_status"),
            models.Index(
                fields=["status", "created_at"],
                condition=models.Q(challenged__isnull=True),
                name="open_challenge_status",
            ),
        )
        constraints = (
            # Racing "new game" requests (a double click, two tabs) must not leave two pending
            # challenges that could both be accepted: the database, not a check-then-insert,
            # keeps one pending challenge per challenger, opponent and variant.
            models.UniqueConstraint(
                fields=["challenger", "challenged", "variant"],
                condition=models.Q(status="pending"),
                name="one_pending_challenge_per_pair_and_variant",
            ),
        )

    def __str__(self) -> str:
        opponent = self.challenged if self.challenged_id else "anyone"
        return f"{self.challenger} challenges {opponent} to {self.variant} ({self.status})"

    @property
    def variant_name(self) -> str:
        return find_variant(self.variant).name

    @property
    def time_limit_label(self) -> str:
        return _time_label(self)

    @property
    def time_words(self) -> str:
        return _time_words(self)

    def time_control(self) -> TimeControl:
        return _time_control(self)

    @property
    def is_live(self) -> bool:
        return self.live_reserve_s is not None

    @property
    def rating_range_label(self) -> str:
        """Who may join an open challenge, e.g. "1600 to 1700", "1400 or more", "any"."""
        low, high = self.min_rating, self.max_rating
        if low is not None and high is not None:
            return f"{low} to {high}"
        if low is not None:
            return f"{low} or more"
        return "any" if high is None else f"{high} or less"


class Game(models.Model):
    """One game or match between two players, with a snapshot of its replayed state."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    variant = models.CharField(max_length=2, choices=VARIANT_CHOICES)
    match_length = models.PositiveSmallIntegerField(default=0, help_text="0 for a single game")
    jacoby = models.BooleanField(default=False)
    beavers = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    stake = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    time_limit = models.DurationField(help_text="per move (a live game: its delay plus reserve)")
    # A live game's match clock (engine.clock): its time control, and the clock as the last
    # action left it (MatchClock.to_dict); ``deadline`` is then the instant the running reserve
    # runs out. NULL for a correspondence game.
    live_delay_s = models.PositiveSmallIntegerField(null=True, blank=True, help_text="live games: each turn's delay")
    live_reserve_s = models.PositiveIntegerField(null=True, blank=True, help_text="live games: each player's reserve")
    clock = models.JSONField(null=True, blank=True, help_text="live games: MatchClock.to_dict()")
    black = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    white = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Whether the game counts toward the non-members' limit of simultaneous games: games that a
    # player started or accepted (challenge, waiting room, auto-match), not bot, ladder or
    # tournament games (services.game_limit).
    counts_toward_limit = models.BooleanField(default=False)
    action_count = models.PositiveIntegerField(default=0, help_text="number of the last action")

    # The snapshot: the replayed state, rewritten in the transaction that appends each action.
    phase = models.CharField(max_length=20, blank=True)
    turn = models.PositiveSmallIntegerField(default=0)
    position_id = models.CharField(max_length=20, blank=True, help_text="from the turn's side")
    match_id = models.CharField(max_length=20, blank=True)
    dice = models.CharField(max_length=2, blank=True)
    cube_value = models.PositiveIntegerField(default=1)
    cube_owner = models.PositiveSmallIntegerField(null=True, blank=True)
    score_black = models.PositiveSmallIntegerField(default=0)
    score_white = models.PositiveSmallIntegerField(default=0)
    game_number = models.PositiveSmallIntegerField(default=1)
    crawford = models.BooleanField(default=False)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    deadline = models.DateTimeField(null=True, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    result = models.CharField(max_length=200, blank=True)
    # The engine's whole state after action ``action_count`` (engine.match_json), so that a request
    # loads it instead of replaying the log. Empty for a game with no action yet.
    state_data = models.JSONField(default=dict, blank=True, help_text="engine state as JSON")

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    # Either player may ask that nobody watches (services.watching.game_set_private): the game is
    # then left off "Watch games" and its pages answer 404 to anyone but its two players.
    private_black = models.BooleanField("private (Black's wish)", default=False)
    private_white = models.BooleanField("private (White's wish)", default=False)
    # How many TimeGift rows the game has: the game page reads them only when there are some.
    time_gift_count = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = (
            # "Watch games": active public games, latest activity first.
            models.Index(fields=["status", "-updated_at"], name="game_status_updated"),
            # "Games where I must act", oldest deadline first: the header count and Next game.
            models.Index(fields=["actor", "status", "deadline"], name="game_actor_status_deadline"),
            models.Index(fields=["black", "status"], name="game_black_status"),
            models.Index(fields=["white", "status"], name="game_white_status"),
            # The deadline sweep.
            models.Index(fields=["status", "deadline"], name="game_status_deadline"),
        )

    def __str__(self) -> str:
        return f"#{self.pk} {self.variant} {self.black} v {self.white}"

    @property
    def variant_name(self) -> str:
        return find_variant(self.variant).name

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def rules(self) -> MatchRules:
        from backgammon.engine.game import MatchRules

        return MatchRules(
            variant=find_variant(self.variant),
            match_length=self.match_length,
            jacoby=self.jacoby,
            beavers=self.beavers,
            automatic_doubles=self.automatic_doubles,
        )

    def state(self) -> MatchState:
        """The current engine state: the stored snapshot, computed once per instance.

        A game without a readable snapshot (a row from before snapshots) is replayed instead, and
        the snapshot filled in for next time.
        """
        cached: MatchState | None = getattr(self, "_state_cache", None)
        if cached is None:
            cached = self._stored_state()
            if cached is None:
                cached = self.replayed_state()
                self._fill_snapshot(cached)
            self._state_cache = cached
        return cached

    def replayed_state(self) -> MatchState:
        """The engine's replay of the log up to ``action_count``: the truth the snapshot must equal."""
        from backgammon.engine.actions import Action
        from backgammon.engine.match import replay

        # A new game (nothing logged yet: every game_create) need not ask the database.
        logged = [] if self.action_count == 0 else (
            self.actions.filter(number__lte=self.action_count)
            .order_by("number")
            .values_list("data", flat=True)
        )
        return replay(self.rules(), [Action.from_dict(data) for data in logged])

    def _stored_state(self) -> MatchState | None:
        from backgammon.engine.errors import InvalidStateError
        from backgammon.engine.match_json import state_from_dict

        if not self.state_data:
            return None
        try:
            return state_from_dict(self.rules(), self.state_data)
        except InvalidStateError as error:
            # The log is the truth: a snapshot we cannot read costs a replay, not the page.
            logger.warning("game %s: unreadable state snapshot (%s); replaying the log", self.pk, error)
            return None

    def _fill_snapshot(self, state: MatchState) -> None:
        from backgammon.engine.match_json import state_to_dict

        if not self.action_count:
            return  # nothing to save: the state of an empty log is the new match
        data = state_to_dict(state)
        # Only if the game has not moved on meanwhile: a move appended since has written its own,
        # newer snapshot, which this older one must not overwrite.
        Game.objects.filter(pk=self.pk, action_count=self.action_count).update(state_data=data)
        self.state_data = data

    @property
    def is_private(self) -> bool:
        return self.private_black or self.private_white

    def visible_to(self, user: AbstractBaseUser | Any) -> bool:
        """Whether ``user`` may see this game: its players always, anyone else unless it is private."""
        return not self.is_private or self.side_of(user) is not None

    def side_of(self, user: AbstractBaseUser | Any) -> Side | None:
        """The side this user plays, or None for anyone else (including anonymous users)."""
        user_id = getattr(user, "pk", None)
        if user_id is None:
            return None
        if user_id == self.black_id:
            return Side.BLACK
        if user_id == self.white_id:
            return Side.WHITE
        return None

    def player(self, side: Side) -> Any:
        return self.black if side is Side.BLACK else self.white

    def player_id(self, side: Side) -> int:
        return self.black_id if side is Side.BLACK else self.white_id

    def opponent_of(self, user: Any) -> Any:
        side = self.side_of(user)
        if side is None:
            raise ValueError(f"{user} does not play in game {self.pk}")
        return self.player(side.other)

    @property
    def time_limit_label(self) -> str:
        return _time_label(self)

    @property
    def time_words(self) -> str:
        return _time_words(self)

    def time_control(self) -> TimeControl:
        return _time_control(self)

    @property
    def is_live(self) -> bool:
        return self.live_reserve_s is not None

    def match_clock(self) -> MatchClock | None:
        """A live game's clock as the last action left it; None by correspondence (or before the opening)."""
        from backgammon.engine.clock import MatchClock

        return None if not self.clock else MatchClock.from_dict(self.clock)

    def score_text(self) -> str:
        """"2-1 (to 5)" for a match, "" for a single game."""
        if not self.match_length:
            return ""
        return f"{self.score_black}-{self.score_white} (to {self.match_length})"


class GameAction(models.Model):
    """One entry of a game's append-only log: an engine Action, numbered from 1 within the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    side = models.PositiveSmallIntegerField(null=True, blank=True, help_text="empty for the system")
    kind = models.CharField(max_length=20)
    data = models.JSONField(help_text="Action.to_dict()")
    notation = models.CharField(max_length=100, blank=True)
    message = models.CharField(max_length=500, blank=True)
    # What the moves list needs from the states around the action, written when it is appended
    # (services.log_facts), so that the game page reads rows instead of replaying the log.
    game_number = models.PositiveSmallIntegerField(default=1, help_text="the game of the match it belongs to")
    dice = models.CharField(max_length=2, blank=True, help_text="a play: the roll it played")
    cube_value = models.PositiveIntegerField(default=1, help_text="the cube before the action")
    position_id = models.CharField(max_length=20, blank=True, help_text="a play: the board before it, mover's side")
    game_result = models.JSONField(
        null=True, blank=True, help_text="the action that ended a game: its result (match_json.result_to_dict)"
    )
    # For a roll this is the instant whose entry of the keyed dice table gave the dice (audits).
    created_at = models.DateTimeField(default=timezone.now)
    # A live game: both players' reserves as the server read them when the action was applied.
    clock_black_ms = models.PositiveIntegerField(null=True, blank=True, help_text="live games: Black's reserve after it")
    clock_white_ms = models.PositiveIntegerField(null=True, blank=True, help_text="live games: White's reserve after it")

    class Meta:
        ordering = ("game", "number")
        constraints = (
            models.UniqueConstraint(fields=["game", "number"], name="game_action_unique_number"),
        )

    def __str__(self) -> str:
        return f"#{self.game_id}.{self.number} {self.kind} {self.notation}".rstrip()


class StaffAction(models.Model):
    """A staff decision outside the rules (abort or adjudicate), with the reason given."""

    class Kind(models.TextChoices):
        ABORT = "abort"
        ADJUDICATE = "adjudicate"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="staff_actions")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.kind} of game #{self.game_id} by {self.staff}"


class TimeGift(models.Model):
    """More time one player gave the other on a move (services.more_time), shown to both."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="time_gifts")
    giver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    receiver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    extra = models.DurationField()
    after_action = models.PositiveIntegerField(help_text="the game's action_count when given")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("game", "created_at")

    def __str__(self) -> str:
        return f"#{self.game_id}: {self.giver} gave {self.receiver} {self.extra}"

    @property
    def words(self) -> str:
        """E.g. "alice gave bob 3 more days"."""
        days = self.extra.days
        amount = f"{days} more day{'s' if days != 1 else ''}" if days else f"{self.extra} more"
        return f"{self.giver.get_username()} gave {self.receiver.get_username()} {amount}"


class AutoMatchRequest(models.Model):
    """What a player will play (variants, time limits, rated or not) and how many games at most:
    the site pairs compatible requests (services.auto_match) until the games are started or the
    player cancels. One open request per player."""

    class Rated(models.TextChoices):
        RATED = "rated", "Rated only"
        UNRATED = "unrated", "Unrated only"
        EITHER = "either", "Rated or unrated"

    class Status(models.TextChoices):
        OPEN = "open"
        FILLED = "filled"
        CANCELLED = "cancelled"

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # Lists (JSON, so SQLite works too): variant codes, and time limits in whole seconds.
    variants = models.JSONField(default=list)
    time_limits = models.JSONField(default=list, help_text="seconds per move")
    # A live request (issue 31) names no time limit: the live presets it accepts (their keys,
    # scaled to the match paired), exact live clocks ({"delay_s", "reserve_s"}), or any live clock.
    live_presets = models.JSONField(default=list, blank=True, help_text="live preset keys")
    live_clocks = models.JSONField(default=list, blank=True, help_text="exact live clocks")
    live_any = models.BooleanField(default=False, help_text="any live clock")
    rated = models.CharField(max_length=7, choices=Rated.choices, default=Rated.EITHER)
    max_games = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    games = models.ManyToManyField(Game, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(status="open"), name="one_open_auto_match_per_player"
            ),
        )
        indexes = (models.Index(fields=["status", "created_at"], name="auto_match_status_created"),)

    def __str__(self) -> str:
        return f"{self.player} auto-match {','.join(self.variants)} ({self.status})"

    @property
    def variant_names(self) -> list[str]:
        return [f"{find_variant(code).name} ({code})" for code in self.variants]

    @property
    def is_live(self) -> bool:
        """A live request pairs only with live requests of players who are here."""
        return bool(self.live_any or self.live_presets or self.live_clocks)

    @property
    def live_labels(self) -> list[str]:
        """The live clocks it accepts, in words, e.g. ["Blitz", "10 s + 5 min"]."""
        from backgammon.engine.clock import LIVE_PRESETS, TimeControl

        if self.live_any:
            return ["Any live clock"]
        presets = [LIVE_PRESETS[key].name for key in self.live_presets if key in LIVE_PRESETS]
        exact = [TimeControl.live(c["delay_s"], c["reserve_s"]).describe() for c in self.live_clocks]
        return presets + exact

    @property
    def time_limit_values(self) -> list[timedelta]:
        return [timedelta(seconds=seconds) for seconds in self.time_limits]

    @property
    def time_limit_labels(self) -> list[str]:
        return [time_limit_label(value) for value in self.time_limit_values]
class GameNote(models.Model):
    """A player's private note on a game ("double if this holds"): only its author ever sees it.

    Not part of the game record: no action, no .mat export, no API answer to anyone else. Kept
    and changed only through services.notes.
    """

    MAX_LENGTH = 2000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes")
    text = models.TextField(max_length=MAX_LENGTH, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["game", "author"], name="game_note_once_per_author"),)

    def __str__(self) -> str:
        return f"Note of {self.author} on game #{self.game_id}"
