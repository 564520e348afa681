"""Private notes on games: one per (game, player), seen only by the player who wrote it.

A note is not a game-state change: it never goes through game_apply_action, is not part of the
record or its .mat export, and the opponent, watchers and the API of anyone else never see it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from backgammon.models import Game, GameNote
from gamesite.kept import kept
from gamesite.text import text_refusal

from .refusals import Refusal, Rejected

__all__ = ["NOTE_MAX_LENGTH", "NoteRejected", "game_note_save", "game_note_text", "note_key"]

NOTE_MAX_LENGTH = GameNote.MAX_LENGTH
NO_SUCH_GAME = "There is no such game."
PLAYERS_ONLY = "Only the game's two players can keep notes on it."


class NoteRejected(Rejected):
    """A note that may not be saved; the stored note is unchanged."""


def note_key(game_id: Any, author_id: Any) -> str:
    return f"backgammon:note:{game_id}:{author_id}"


def game_note_text(*, game: Game, author: Any) -> str:
    """The author's note on ``game`` ("" if none); never anyone else's. Every view of the game
    by a player shows it: kept, forgotten when the note is saved or removed (backgammon/apps.py)."""

    def stored() -> str:
        found = GameNote.objects.filter(game=game, author_id=author.pk).values_list("text", flat=True).first()
        return found or ""

    return kept(note_key(game.pk, author.pk), stored, 3600)


def _checked_text(text: str) -> str:
    # Line endings from browsers differ (\r\n); count what is kept, so the limit means the same everywhere.
    text = text.replace("\r\n", "\n").strip()
    if len(text) > NOTE_MAX_LENGTH:
        raise NoteRejected(f"A note holds at most {NOTE_MAX_LENGTH} characters; yours has {len(text)}. "
                           "Your saved note is unchanged.")
    refusal = text_refusal(text, "note")
    if refusal:
        raise NoteRejected(f"{refusal} Your saved note is unchanged.")
    return text


def game_note_save(*, game_id: int, author: Any, text: str) -> str:
    """Keep ``text`` as ``author``'s note on the game (an empty text removes the note); returns it.

    Two saves racing each other: the later one wins, and there is never a second note (the unique
    (game, author) constraint, which update_or_create retries on).
    """
    text = _checked_text(text)
    game = Game.objects.filter(pk=game_id).only("pk", "black_id", "white_id").first()
    if game is None:
        raise NoteRejected(NO_SUCH_GAME, Refusal.NOT_FOUND)
    if game.side_of(author) is None:
        raise NoteRejected(PLAYERS_ONLY, Refusal.NOT_PLAYER)
    with transaction.atomic():
        if text:
            GameNote.objects.update_or_create(game=game, author_id=author.pk, defaults={"text": text})
        else:
            GameNote.objects.filter(game=game, author_id=author.pk).delete()
    return text
