"""Every user has a profile, however the user was made (sign-up, admin, createsuperuser,
tests), so pages can read ``user.profile`` without checking; the profile keeps the userid's
look-alike key, so the database refuses a second userid that looks the same."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Profile
from accounts.skeleton import userid_key


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-create-profile")
def create_profile(
    sender: type,
    instance: Any,
    created: bool,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    # raw: loaddata brings its own profiles in the fixture.
    if raw:
        return
    key = userid_key(instance.get_username())
    if created:
        Profile.objects.get_or_create(user=instance, defaults={"userid_skeleton": key})
    elif update_fields is None or instance.USERNAME_FIELD in update_fields:
        # Saves of other fields only (the last log-in) need not look.
        sync_userid_skeleton(instance)


def sync_userid_skeleton(user: Any) -> None:
    """A renamed user's key follows the new userid; grandfathered look-alikes keep none."""
    key = userid_key(user.get_username())
    kept = Profile.objects.filter(user=user, userid_skeleton__isnull=False)
    kept.exclude(userid_skeleton=key).update(userid_skeleton=key)
