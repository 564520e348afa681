"""The API's create calls take an optional vacation cap for a ladder or a tournament."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tournaments.models import Ladder, Tournament

pytestmark = pytest.mark.django_db

LADDER = {"name": "BX 48 hours", "variant": "BX", "time_limit_hours": 48}
CUP = {"name": "Sunday cup", "variant": "BX", "format": "single_elimination", "size": 4,
       "time_limit_hours": 24}


@pytest.fixture
def staff_api(admin_user: Any, api_for: Callable[[Any], Any]) -> Any:
    return api_for(admin_user)


def test_a_ladder_created_with_a_cap_and_one_without(staff_api: Any) -> None:
    capped = staff_api.post("/ladders", {**LADDER, "vacation_days_cap": 0})
    assert capped.status_code == 201, capped.content
    assert Ladder.objects.get(pk=capped.json()["id"]).vacation_days_cap == 0
    plain = staff_api.post("/ladders", {**LADDER, "name": "BX 2 days"})
    assert plain.status_code == 201
    assert Ladder.objects.get(pk=plain.json()["id"]).vacation_days_cap is None


def test_a_tournament_created_with_a_cap_and_one_without(staff_api: Any) -> None:
    capped = staff_api.post("/tournaments", {**CUP, "vacation_days_cap": 2})
    assert capped.status_code == 201, capped.content
    assert Tournament.objects.get(pk=capped.json()["id"]).vacation_days_cap == 2
    plain = staff_api.post("/tournaments", CUP)
    assert plain.status_code == 201
    assert Tournament.objects.get(pk=plain.json()["id"]).vacation_days_cap is None


@pytest.mark.parametrize(("path", "body"), [("/ladders", LADDER), ("/tournaments", CUP)])
def test_a_cap_out_of_range_is_refused_and_creates_nothing(
    staff_api: Any, path: str, body: dict[str, Any]
) -> None:
    response = staff_api.post(path, {**body, "vacation_days_cap": 400})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("The vacation cap is 0 to 365 days")
    assert not Ladder.objects.exists() and not Tournament.objects.exists()
