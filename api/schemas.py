"""The shapes of the API's requests and answers; django-ninja writes the OpenAPI document from them."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from ninja import Field, Schema

from backgammon.engine.clock import (
    CORRESPONDENCE_PER_MOVE_RANGE_S,
    LIVE_DELAY_RANGE_S,
    LIVE_RESERVE_RANGE_S,
)

__all__ = [
    "Accepted",
    "ActionIn",
    "Board",
    "ChallengeIn",
    "ChallengeLists",
    "ChallengeOut",
    "Clock",
    "CorrespondenceTime",
    "Cube",
    "Error",
    "GameList",
    "GameOut",
    "LiveTime",
    "Me",
    "MoveRecord",
    "MoveRow",
    "Player",
    "Rating",
    "Result",
    "TimeControl",
    "TokenIn",
    "TokenOut",
]


class Error(Schema):
    detail: str = Field(description="What went wrong, as a sentence a person understands.")


ERROR_STATUSES = (400, 401, 403, 404, 409, 422, 429, 503)
"""What any call may answer besides its success: 400 a body that is not JSON (or holds a NUL or
a lone surrogate), 401 no or bad token, 403, 404, 409 stale, 422 refused, 429 too many
(Retry-After), 503 the database is unreachable for a moment (Retry-After)."""
ERRORS: dict[int, type[Schema]] = {code: Error for code in ERROR_STATUSES}


class TokenIn(Schema):
    username: str
    password: str
    name: str = Field("", description="A label for the token, shown on the profile page.")


class TokenOut(Schema):
    token: str = Field(description="Send it as 'Authorization: Bearer TOKEN'. Shown only this once.")
    expires_at: datetime = Field(
        description="When the token stops working (API_PASSWORD_TOKEN_DAYS after it was made, "
        "30 by default); then ask for another."
    )


class Membership(Schema):
    member: bool
    until: date | None = Field(description="The day the membership ends (ISO date, site time), null when not a member.")


class Me(Schema):
    username: str
    membership: Membership


class Rating(Schema):
    rating: float
    experience: int


class Player(Schema):
    username: str
    ratings: dict[str, Rating] = Field(
        description="One entry per rated variant code; another player's shows only the variants whose "
        "rating they show (Edit ratings), yours all of them."
    )


class Board(Schema):
    points: list[int] = Field(
        description="24 counts, point 1 first, from the side of the player named by board_side: "
        "positive for that player's checkers, negative for the opponent's."
    )
    bar: dict[str, int] = Field(description="Checkers on the bar per username (waiting ones included).")
    off: dict[str, int] = Field(description="Checkers borne off per username.")
    waiting: dict[str, int] = Field(
        description="Race variants (BR, BS): bar checkers that have not entered since the start."
    )


class Cube(Schema):
    value: int
    owner: str | None


class Result(Schema):
    points: int
    kind: Literal["single", "gammon", "backgammon", "drop", "resign", "timeout", "draw"]


class MoveRow(Schema):
    number: int
    black: str | None
    white: str | None
    messages: dict[str, str] = Field(description="Black's and White's messages; only for the players.")


class MoveRecord(Schema):
    game: int = Field(description="The game of the match, from 1.")
    opening: str
    rows: list[MoveRow]
    result: str


class CorrespondenceTime(Schema):
    """Correspondence play: a limit for each move (the site's list: 1 minute to 14 days)."""

    kind: Literal["correspondence"]
    per_move_s: int = Field(ge=CORRESPONDENCE_PER_MOVE_RANGE_S[0], le=CORRESPONDENCE_PER_MOVE_RANGE_S[1],
                            description="Seconds per move; a challenge takes one of the site's limits.")


class LiveTime(Schema):
    """A live match clock: each turn starts with ``delay_s`` before the player's reserve runs;
    each player has ``reserve_s`` for the whole match. Presets: Blitz 8 s + 30 s a point, Rapid
    12 s + 60 s a point, Standard 12 s + 120 s a point."""

    kind: Literal["live"]
    delay_s: int = Field(ge=LIVE_DELAY_RANGE_S[0], le=LIVE_DELAY_RANGE_S[1], description="Each turn's delay.")
    reserve_s: int = Field(ge=LIVE_RESERVE_RANGE_S[0], le=LIVE_RESERVE_RANGE_S[1],
                           description="Each player's reserve for the whole match.")


TimeControl = Annotated[CorrespondenceTime | LiveTime, Field(discriminator="kind")]


class Clock(Schema):
    """A live game's clock as the server read it at ``at``: the running reserve goes down from
    then on, once what is left of the turn's delay is used."""

    black_ms: int = Field(description="Black's reserve at ``at``, in milliseconds.")
    white_ms: int = Field(description="White's reserve at ``at``, in milliseconds.")
    running: Literal["black", "white"] | None = Field(description="Whose clock runs; null when none does.")
    at: datetime = Field(description="The server's instant of this reading (ISO 8601).")
    delay_left_ms: int = Field(description="What is left at ``at`` of the running player's delay.")


class GameOut(Schema):
    id: int
    variant: str
    match_length: int = Field(description="Points to win; 1 for a single game, 0 for money play.")
    players: dict[str, str] = Field(description='{"black": username, "white": username}')
    score: dict[str, int] = Field(description="Points won per username (not capped at the length).")
    status: Literal["active", "finished"]
    turn: str | None = Field(description="The username who must act now, or null.")
    awaiting: Literal["roll", "roll_or_double", "play", "take_or_drop", "resignation"] | None
    beaver_allowed: bool | None = Field(None, description="Only while awaiting take_or_drop.")
    resignation: Literal["single", "gammon", "backgammon"] | None = Field(
        None, description="Only while awaiting an answer to a resignation: what is offered."
    )
    dice: list[int] | None
    cube: Cube
    crawford: bool
    board_side: str = Field(
        description="The username the board is seen from: the player to act, else Black."
    )
    board: Board
    position_id: str = Field(description="GNU Backgammon's Position ID for this moment.")
    match_id: str = Field(description="GNU Backgammon's Match ID for this moment.")
    action_number: int = Field(description="Send it back as expected_action_number.")
    legal_plays: list[str] = Field(
        description='While awaiting "play": every legal play, one per resulting position; '
        '[""] when the player cannot move.'
    )
    winner: str | None
    result: Result | None = Field(description="Once the rules ended the match; null if staff ended it.")
    result_text: str
    game_number: int
    rated: bool
    deadline: str | None = Field(description="When the player to act runs out of time (ISO 8601); "
                                 "in a live game, when the running reserve runs out.")
    time_control: TimeControl
    clock: Clock | None = Field(None, description="Live games only; null by correspondence.")
    moves: list[MoveRecord] = Field(description="The move list as on the game page.")
    mat_url: str = Field(description="The .mat record so far; download it with the same token.")


class GameList(Schema):
    games: list[GameOut]


class ActionIn(Schema):
    action: Literal["roll", "double", "take", "drop", "beaver", "play", "resign", "accept", "reject"]
    expected_action_number: int
    move: str | None = Field(None, description='For "play": e.g. "13/9 13/10"; "" to pass.')
    level: Literal["single", "gammon", "backgammon"] | None = Field(
        None, description='For "resign".'
    )
    message: str = Field("", description="A message to the opponent with the action.")


class ChallengeIn(Schema):
    opponent: str
    variant: str = Field(description="BX BP BA BN BR BS BO B9 or MP.")
    match_length: int | None = Field(
        None, description="BP BS BO B9 only (default 5, 9 for B9); 1 is accepted for single games."
    )
    time_limit_hours: float | None = Field(None, description="Per move; the site's list, default 72.")
    time_control: TimeControl | None = Field(
        None, description="In place of time_limit_hours; a live challenge expires unanswered after 2 minutes."
    )
    rated: bool = True
    message: str = ""
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    stake: int | None = None


class ChallengeOut(Schema):
    id: int
    challenger: str
    opponent: str
    variant: str
    match_length: int = Field(description="1 for a single game, 0 for money play.")
    time_limit_hours: float = Field(description="Per move; a live challenge's delay plus reserve.")
    time_control: TimeControl
    rated: bool
    message: str
    status: str
    game_id: int | None


class ChallengeLists(Schema):
    incoming: list[ChallengeOut]
    outgoing: list[ChallengeOut]


class Accepted(Schema):
    game_id: int
