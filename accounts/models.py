"""A player's profile: the preferences that belong to the person rather than to a game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django_countries.fields import CountryField

BIO_MAX = 1000
"""Characters of the profile's "about me" text."""

from backgammon.board_themes import CLASSIC, THEMES


class CheckerColours(models.TextChoices):
    """Checker colour schemes offered on the board; the first colour is the viewer's own."""

    BLACK_WHITE = "black-white", "Black & white"
    RED_BLUE = "red-blue", "Red & blue"
    BROWN_CREAM = "brown-cream", "Brown & cream"
    # Okabe and Ito's orange and blue: told apart by colour-blind players, and by lightness too.
    ORANGE_BLUE = "orange-blue", "Orange & blue (colour-blind safe)"



class Profile(models.Model):
    """One per user, created with the account (see accounts.services.account_create)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    checker_colours = models.CharField(
        "checker colours",
        max_length=20,
        choices=CheckerColours.choices,
        default=CheckerColours.BLACK_WHITE,
    )
    # A double cannot be taken back, and the button sits beside Roll: ask first unless told not to.
    confirm_double = models.BooleanField(
        "ask before doubling",
        default=True,
        help_text="Double then shows a step where you confirm it (and may add a message).",
    )
    # Board settings (the "Edit game boards" page, accounts.board_views): every board the player
    # sees is drawn with them (backgammon.game_page.board_style_for).
    board_theme = models.CharField(
        "board colours",
        max_length=20,
        choices=[(theme.key, theme.label) for theme in THEMES.values()],
        default=CLASSIC.key,
    )
    home_board_left = models.BooleanField(
        "home board on the left",
        default=False,
        help_text="Your checkers then move clockwise, and bear off on the left.",
    )
    show_point_numbers = models.BooleanField("show point numbers", default=True)
    show_pip_counts = models.BooleanField("show pip counts", default=True)
    confirm_submit = models.BooleanField(
        "ask before submitting a move",
        default=False,
        help_text="Submit then shows a step where you confirm the move.",
    )
    # The end of the player's membership (membership.periods keeps it: the latest end of their
    # valid periods, Stripe's or staff's); a member while it is in the future. Members may join
    # members-only ladders and tournaments and have no game limit.
    member_until = models.DateTimeField(
        "member until", null=True, blank=True, editable=False,
        help_text="Changed through the membership actions, never by hand.",
    )
    # The userid's confusable skeleton (accounts.skeleton.userid_key), kept by accounts.signals.
    # Unique, so two look-alike userids cannot both exist, even when their sign-ups race. Null
    # only for look-alikes that predate the rule (the first such userid keeps the key).
    userid_skeleton = models.TextField(
        "userid skeleton", unique=True, null=True, blank=True, editable=False
    )

    # The e-mail address the player proved they read, by a link mailed to it
    # (accounts.email_confirmation). The account's address counts as confirmed while it is this
    # one, so changing the address needs a new confirmation by itself.
    confirmed_email = models.EmailField("confirmed e-mail", blank=True, editable=False)

    # When the player last asked for a page (accounts.presence), at most a minute stale.
    last_seen = models.DateTimeField("last seen", null=True, blank=True, db_index=True)

    # The public profile (accounts.people_views): what other players may read about this one.
    bio = models.TextField("about me", max_length=BIO_MAX, blank=True)
    country = CountryField(blank=True, db_index=True)
    time_zone = models.CharField(
        "time zone", max_length=64, blank=True, help_text="An IANA name such as Europe/Paris."
    )
    # Always a square re-encoded by accounts.avatars, never the uploaded bytes themselves.
    avatar = models.FileField(upload_to="avatars/", blank=True)

    def __str__(self) -> str:
        return f"Profile of {self.user}"


class Vacation(models.Model):
    """Whole days, booked ahead, during which every clock of the player's is paused.

    It runs from midnight (site time) of ``start`` for ``days`` days. Booked and cancelled only
    through accounts.vacations, which keeps the yearly allowance and the no-overlap rule.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    start = models.DateField()
    days = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("user", "start")
        indexes = (models.Index(fields=["user", "start"], name="vacation_user_start"),)

    def __str__(self) -> str:
        return f"{self.user} on vacation from {self.start} for {self.days} days"


class Relation(models.Model):
    """One player's view of another: a buddy or somebody ignored (ItsYourTurn's two lists).

    A player has at most one relation to each other player, so adding a buddy who was ignored
    moves them from one list to the other. Changed only through accounts.relations.
    """

    class Kind(models.TextChoices):
        BUDDY = "buddy", "Buddy"
        IGNORE = "ignore", "Ignored"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="relations"
    )
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="related_by"
    )
    kind = models.CharField(max_length=6, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("owner", "kind", "other")
        constraints = (
            models.UniqueConstraint(fields=["owner", "other"], name="relation_once_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(owner=models.F("other")), name="relation_not_to_self"
            ),
        )
        indexes = (models.Index(fields=["other", "kind"], name="relation_other_kind"),)

    def __str__(self) -> str:
        return f"{self.owner} → {self.other}: {self.get_kind_display()}"


class RatingChoice(models.Model):
    """A player's choices for one variant's rating ("Edit ratings"): whether others see it on
    the profile, in lists and in the API, and whether New game and the Waiting Room start rated.

    No row means the defaults (shown, rated). Hidden ratings still count and still seed
    tournaments; the player always sees their own. Changed only through accounts.rating_choices.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_choices"
    )
    variant = models.CharField(max_length=2)
    shown = models.BooleanField("shown to others", default=True)
    rated_by_default = models.BooleanField("new games rated", default=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["user", "variant"], name="rating_choice_once"),)

    def __str__(self) -> str:
        return f"{self.user} {self.variant}: {'shown' if self.shown else 'hidden'}"
