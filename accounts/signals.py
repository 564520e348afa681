"""Every user has a profile, however the user was made (sign-up, admin, createsuperuser,
tests), so pages can read ``user.profile`` without checking."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-create-profile")
def create_profile(sender: type, instance: Any, created: bool, raw: bool = False, **kwargs: Any) -> None:
    # raw: loaddata brings its own profiles in the fixture.
    if created and not raw:
        Profile.objects.get_or_create(user=instance)
