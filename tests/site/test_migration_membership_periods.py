"""accounts 0011 and membership 0001: a staff's Member tick becomes a year's membership, recorded
as a staff period with its log line, so deriving the end again keeps it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("accounts", "0010_email_once_and_confirmed"), ("membership", None)]
AFTER = [("accounts", "0011_membership_until_and_rating_choices"), ("membership", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_a_member_tick_becomes_a_years_staff_period() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[:1]).apps
    User, Profile = old.get_model("auth", "User"), old.get_model("accounts", "Profile")
    ticked = User.objects.create(username="ticked")
    plain = User.objects.create(username="plain")
    Profile.objects.create(user=ticked, is_member=True)
    Profile.objects.create(user=plain, is_member=False)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    Profile, Period = new.get_model("accounts", "Profile"), new.get_model("membership", "MembershipPeriod")
    until = Profile.objects.get(user_id=ticked.pk).member_until
    assert until is not None
    assert abs(until - (timezone.now() + timedelta(days=365))) < timedelta(minutes=5)
    assert Profile.objects.get(user_id=plain.pk).member_until is None
    period = Period.objects.get()
    assert (period.user_id, period.source, period.ends_at) == (ticked.pk, "staff", until)
    assert new.get_model("membership", "MembershipChange").objects.get().user_id == ticked.pk

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to today's schema for the next tests

    from membership.periods import membership_recompute

    assert membership_recompute(ticked.pk) == until  # the periods explain the end
