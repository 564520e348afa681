"""Staff create ladders in Django admin, choosing the time limit from the site's list."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.ladders import ladder_join
from tournaments.models import Ladder

pytestmark = pytest.mark.django_db


def test_staff_create_a_ladder_in_admin(admin_client: Client, admin_user: Any) -> None:
    response = admin_client.post(reverse("admin:tournaments_ladder_add"), {
        "name": "BX 48 hours", "variant": "BX", "match_length": 0, "time_limit": "2 days, 0:00:00",
        "members_only": "on", "inactivity_days": 21,
        "rungs-TOTAL_FORMS": 0, "rungs-INITIAL_FORMS": 0,
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    ladder = Ladder.objects.get()
    assert (ladder.time_limit, ladder.members_only, ladder.inactivity_days, ladder.created_by) == (
        timedelta(days=2), True, 21, admin_user)


def test_the_admin_shows_the_ranks(admin_client: Client, alice: Any) -> None:
    ladder = Ladder.objects.create(name="BP 7", variant="BP", match_length=7, time_limit=timedelta(days=1))
    ladder_join(ladder_id=ladder.pk, player=alice)
    page = admin_client.get(reverse("admin:tournaments_ladder_change", args=[ladder.pk])).content.decode()
    assert "alice" in page and 'selected>1 day</option>' in page


def test_the_admin_refuses_terms_the_api_refuses(admin_client: Client) -> None:
    response = admin_client.post(reverse("admin:tournaments_ladder_add"), {
        "name": "BX 5", "variant": "BX", "match_length": 5, "time_limit": "2 days, 0:00:00",
        "inactivity_days": 30, "rungs-TOTAL_FORMS": 0, "rungs-INITIAL_FORMS": 0,
    })
    assert response.status_code == 200
    assert "Backgammon is a single game: its match length is 1." in response.content.decode()
    assert not Ladder.objects.exists()
