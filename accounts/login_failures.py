"""django-axes' database handler with a second, higher limit per client address across userids.

Axes counts failures per userid from one address (AXES_LOCKOUT_PARAMETERS), so a stranger can
lock out only themselves; but then one address could try a few passwords on every userid
(password spraying: 60 wrong passwords over 15 userids went unrefused, issue 29). Here every
failure from the address also counts towards LOGIN_FAILURE_LIMIT_PER_ADDRESS, whatever the
userid, within the same cool-off; past it, every log-in from that address is paused.

Why not axes' own ``[["username", "ip_address"], "ip_address"]``: axes compares the larger of the
two counts with one limit (5 would pause a whole address after 5 typos), and a successful
log-in would delete the address's whole count, so one working account would reset the spray.
"""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest

__all__ = ["LoginFailures", "failures_from_address"]


def failures_from_address(request: HttpRequest) -> int:
    """Failed log-ins from the request's address within the cool-off, for any userid."""
    address = getattr(request, "axes_ip_address", None)
    if not address:
        return 0
    attempts = AccessAttempt.objects.filter(ip_address=address)
    if settings.AXES_COOLOFF_TIME is not None:
        attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


class LoginFailures(AxesDatabaseHandler):
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        per_userid: int = super().get_failures(request, credentials)
        if failures_from_address(request) >= settings.LOGIN_FAILURE_LIMIT_PER_ADDRESS:
            # Axes compares this one number with the per-userid limit: report that it is reached.
            return max(per_userid, get_failure_limit(request, credentials))
        return per_userid
