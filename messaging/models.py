"""A message between two players: written on the Send page, with a move, or with a challenge.

Each side keeps its own copy in effect: the sender deleting it from the sent box hides it
there only, the recipient deleting it hides it from the inbox only. A row both have deleted
stays for the operators (a reported message must still be there to read in the admin).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

SUBJECT_MAX = 120
BODY_MAX = 2000


class Message(models.Model):
    class Kind(models.TextChoices):
        MESSAGE = "message", "message"
        MOVE = "move", "with a move"
        CHALLENGE = "challenge", "with a challenge"

    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="messages_sent")
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="messages_received"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.MESSAGE)
    subject = models.CharField(max_length=SUBJECT_MAX, blank=True)
    body = models.TextField(max_length=BODY_MAX)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    reply_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replies"
    )
    game = models.ForeignKey(
        "backgammon.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The move or challenge a message came with: unique, so a signal delivered twice adds nothing.
    game_action = models.OneToOneField(
        "backgammon.GameAction", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    challenge = models.OneToOneField(
        "backgammon.Challenge", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deleted_by_sender = models.BooleanField(default=False)
    deleted_by_recipient = models.BooleanField(default=False)
    reported_at = models.DateTimeField(
        null=True, blank=True, help_text="when the recipient reported it to the operators"
    )

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = (
            models.Index(fields=["recipient", "deleted_by_recipient", "-created_at"], name="message_inbox"),
            models.Index(fields=["sender", "deleted_by_sender", "-created_at"], name="message_sent_box"),
            # The header's unread count runs on every page: a small partial index answers it.
            models.Index(
                fields=["recipient"],
                condition=Q(read_at__isnull=True, deleted_by_recipient=False),
                name="message_unread",
            ),
        )

    def __str__(self) -> str:
        return f"{self.sender_id} → {self.recipient_id}: {self.title}"

    @property
    def title(self) -> str:
        """The subject, or the body's first words when it has none."""
        if self.subject:
            return self.subject
        first_line = self.body.strip().splitlines()[0] if self.body.strip() else ""
        return first_line if len(first_line) <= 60 else first_line[:57] + "…"

    @property
    def is_unread(self) -> bool:
        return self.read_at is None
