"""News items (posted by staff in the admin), players' e-mail notice preferences, and the notices
already sent (the unique key makes each notice go out once, however many workers try)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class NewsItem(models.Model):
    """A piece of site news; the body is plain text, shown escaped with its line breaks and its
    addresses made links (Django's urlize, which escapes the rest)."""

    title = models.CharField(max_length=200)
    body = models.TextField(help_text="plain text; blank lines separate paragraphs")
    published_at = models.DateTimeField(default=timezone.now, help_text="shown from this moment on")
    is_published = models.BooleanField(default=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("-published_at", "-pk")
        indexes = (models.Index(fields=["is_published", "published_at"], name="news_published"),)
        verbose_name = "news item"

    def __str__(self) -> str:
        return self.title


class NoticePreferences(models.Model):
    """One row per player, made the first time it is needed (defaults: immediate notices, all on)."""

    class Delivery(models.TextChoices):
        IMMEDIATE = "immediate", "A notice as each thing happens"
        DIGEST = "digest", "One daily digest of the games waiting for me"
        NONE = "none", "No e-mail at all"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preferences"
    )
    delivery = models.CharField(max_length=10, choices=Delivery.choices, default=Delivery.IMMEDIATE)
    your_turn = models.BooleanField("It is my turn", default=True)
    new_challenge = models.BooleanField("Someone challenges me", default=True)
    new_message = models.BooleanField("Someone sends me a message", default=True)
    time_warning = models.BooleanField(
        "80% of a move's time has passed and I have not moved", default=True
    )
    game_finished = models.BooleanField("A game or match of mine has ended", default=True)
    membership_reminder = models.BooleanField("My membership ends in a week", default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "notice preferences"

    def __str__(self) -> str:
        return f"{self.user} ({self.delivery})"

    def wants(self, kind: str) -> bool:
        """Whether an immediate notice of ``kind`` (a SentNotice.Kind, not the digest) may go out."""
        if kind == "membership_reminder":
            # Not about a game, so the digest does not carry it: a digest reader gets it too.
            return self.delivery != self.Delivery.NONE and self.membership_reminder
        return self.delivery == self.Delivery.IMMEDIATE and bool(getattr(self, kind, False))

    def wants_push(self, kind: str) -> bool:
        """Whether a push of ``kind`` may go to the player's devices: the same switch as the mail
        of that kind (how e-mail comes, ``delivery``, is e-mail's own choice)."""
        return bool(getattr(self, kind, False))


class SentNotice(models.Model):
    """A notice that went out (or was claimed by the worker sending it): ``key`` is unique."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        NEW_CHALLENGE = "new_challenge", "New challenge"
        NEW_MESSAGE = "new_message", "New message"
        TIME_WARNING = "time_warning", "Time warning"
        GAME_FINISHED = "game_finished", "Game finished"
        DIGEST = "digest", "Daily digest"
        MEMBERSHIP_REMINDER = "membership_reminder", "Membership ends soon"
        TEST = "test", "Test push"

    class Channel(models.TextChoices):
        EMAIL = "email", "E-mail"
        PUSH = "push", "Push to the player's devices"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    channel = models.CharField(max_length=5, choices=Channel.choices, default=Channel.EMAIL)
    key = models.CharField(max_length=100, help_text="what it was about, e.g. time_warning:game 5:action 12")
    game_id = models.BigIntegerField(null=True, blank=True)
    sent_at = models.DateTimeField(default=timezone.now)
    # The mail, composed with the claim, until the mail server has accepted it (notices/outbox.py):
    # a worker killed while sending leaves it here, and the workers' tick sends it again.
    outbox = models.JSONField(null=True, blank=True, help_text="the mail, until the server took it")
    attempted_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["key"], name="sent_notice_unique_key"),)
        indexes = (
            models.Index(fields=["user", "kind", "game_id", "sent_at"], name="sent_notice_recent"),
            models.Index(fields=["attempted_at"], name="sent_notice_held",
                         condition=models.Q(outbox__isnull=False)),
        )

    def __str__(self) -> str:
        return self.key


class PushSubscription(models.Model):
    """One device (a browser's push subscription) that gets the player's notices by Web Push.

    ``endpoint`` is the push service's address for that browser (https, on a host of
    PUSH_SERVICE_HOSTS: notices/push/subscriptions.py checks it); ``p256dh`` and ``auth`` are the
    browser's keys the payloads are encrypted to (RFC 8291). A device belongs to the last player
    who turned push on there.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=2000, unique=True)
    p256dh = models.CharField("browser's public key (p256dh)", max_length=100)
    auth = models.CharField("browser's auth secret", max_length=50)
    name = models.CharField(max_length=100)
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("created_at", "pk")
        verbose_name = "push device"

    def __str__(self) -> str:
        return f"{self.name} of {self.user}"
