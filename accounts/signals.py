"""Every user has a profile, however the user was made (sign-up, admin, createsuperuser,
tests), so pages can read ``user.profile`` without checking; the profile keeps the userid's
look-alike key, so the database refuses a second userid that looks the same."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Profile, Vacation
from accounts.skeleton import userid_key
from accounts.vacations import vacations_end_key
from gamesite.kept import forget_when_changed


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
    profiles = Profile.objects.filter(user=user, userid_skeleton__isnull=False)
    profiles.exclude(userid_skeleton=key).update(userid_skeleton=key)


def _forget_signed_in_user(user_id: Any) -> list[str]:
    from accounts.backends import signed_in_user_key

    return [signed_in_user_key(user_id)]


# The kept copy of the signed-in user (accounts/backends.py) is forgotten whenever the user or
# their profile changes: a new password, a deactivation, a board setting.
forget_when_changed(get_user_model(), lambda user: _forget_signed_in_user(user.pk), "signed-in-user")
forget_when_changed(Profile, lambda profile: _forget_signed_in_user(profile.user_id), "signed-in-profile")
forget_when_changed(Vacation, lambda vacation: [vacations_end_key(vacation.user_id)], "vacations-end")
