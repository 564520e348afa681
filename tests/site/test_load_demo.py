"""manage.py load_demo: demo players, a game of every variant through the services, a challenge."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import RequestFactory
from gamebuilder import fast_passwords  # noqa: F401 (an autouse fixture)

from backgammon.engine import VARIANTS
from backgammon.models import Challenge, Game

pytestmark = pytest.mark.django_db


def test_it_loads_a_game_of_every_variant_and_can_run_again() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "9 new game(s)" in out.getvalue()
    assert sorted(Game.objects.values_list("variant", flat=True)) == sorted(VARIANTS)
    for name in ("alice", "bob", "carol", "dave", "admin"):
        login_request = RequestFactory().post("/accounts/login/")  # axes judges a real request
        assert authenticate(login_request, username=name, password="demo-pass-1234") is not None
    assert get_user_model().objects.get(username="admin").is_staff
    alice = get_user_model().objects.get(username="alice")
    assert Game.objects.filter(actor=alice, status="active").count() >= 3
    assert all(game.action_count > 3 and game.status == "active" for game in Game.objects.all())
    for game in Game.objects.all():
        assert game.position_id == game.state().position_id()  # the snapshot matches the log
    assert Challenge.objects.filter(challenged=alice, status="pending").count() == 1

    call_command("load_demo", stdout=StringIO())
    assert Game.objects.count() == len(VARIANTS)
    # dave's challenge to alice, and carol's open one in the waiting room.
    assert Challenge.objects.filter(status="pending").count() == 2
    assert Challenge.objects.filter(status="pending", challenged__isnull=True).count() == 1
