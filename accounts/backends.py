"""Log-in by userid whatever its case: userids are unique regardless of case (a database index,
accounts migration 0002), so 'ALICE' can only mean alice."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from gamesite.kept import ask_together, asked_with_the_signed_in_user, keep, kept, kept_of_these

__all__ = ["CaseInsensitiveModelBackend", "kept_user", "kept_users", "signed_in_user_key"]

# The signed-in user is read on every request; kept two and a half minutes at most, forgotten
# when the user or their profile is saved (accounts/signals.py), so a password change or a
# deactivation counts at once. What only ages is the profile's last_seen (marked every
# SEEN_EVERY, a minute, with an update that does not forget): at most three and a half minutes
# behind, under NOTICE_ONLINE_MINUTES (5), so a player on the site is never taken for away
# (notices/sending.py). Each keep is a query: at `make bench-web`'s 1,000 players, a minute's
# keeping cost 3.6% of the app servers' CPU.
SIGNED_IN_USER_SECONDS = 150


def signed_in_user_key(user_id: Any) -> str:
    return f"accounts:user:{user_id}"


class CaseInsensitiveModelBackend(ModelBackend):
    """ModelBackend with case-blind userids, and the profile read with the user."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        User = get_user_model()
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is not None:
            match = User._default_manager.filter(username__iexact=username).first()
            if match is not None:
                username = match.get_username()
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id: Any) -> Any:
        """The signed-in user of a request, with the profile every page reads in the same query;
        asked of the cache with the answers nearly every request reads (gamesite.kept)."""
        ask_together([signed_in_user_key(user_id), *asked_with_the_signed_in_user()])
        user = kept_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


def kept_user(user_id: Any) -> Any:
    """The user with their profile, as a request's signed-in user is read (kept); None if there
    is no such user. Also the players a game page shows (backgammon/views/access.py)."""
    User = get_user_model()
    return kept(signed_in_user_key(user_id),
                lambda: User._default_manager.select_related("profile").filter(pk=user_id).first(),
                SIGNED_IN_USER_SECONDS)


def kept_users(user_ids: Iterable[Any], also_kept: Iterable[str] = ()) -> dict[Any, Any]:
    """Several users by id, each as ``kept_user`` reads it: asked of the cache in one trip
    (gamesite.kept.kept_of_these), the ones it lacks read in one query and kept; ids of no user
    are left out; ``also_kept``: other answers the page will show, asked in the same trip. A page
    listing games (Game status) shows their players this way rather than joining them to its rows:
    building those joins' SQL cost more than reading them."""
    wanted = list(dict.fromkeys(user_id for user_id in user_ids if user_id is not None))
    found = kept_of_these([*(signed_in_user_key(user_id) for user_id in wanted), *also_kept])
    users = {user_id: found[key] for user_id in wanted if (key := signed_in_user_key(user_id)) in found}
    missing = [user_id for user_id in wanted if user_id not in users]
    if missing:
        for user in get_user_model()._default_manager.select_related("profile").filter(pk__in=missing):
            keep(signed_in_user_key(user.pk), user, SIGNED_IN_USER_SECONDS)
            users[user.pk] = user
    return users
