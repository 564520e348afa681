"""Bad input on every API call that writes: huge numbers, wrong types, long texts and NUL bytes
get a 4xx with a JSON detail, never a 500, and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon.models import Challenge, Game
from tests.site.gamebuilder import fast_passwords, start_game  # noqa: F401
from tournaments.models import Ladder, Tournament

pytestmark = pytest.mark.django_db

HUGE = 10**30
LONG = "x" * 10_000
BAD_NUMBERS = [HUGE, -HUGE, 1e308, "seven", [], {"a": 1}]  # (null means "the default")


def _counts() -> tuple[int, int, int, int]:
    return (Challenge.objects.count(), Ladder.objects.count(), Tournament.objects.count(),
            Game.objects.count())


def _refused(response: Any) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]


LADDER = {"name": "L", "variant": "BX", "time_limit_hours": 48}
CUP = {"name": "C", "variant": "BX", "format": "single_elimination", "size": 4,
       "time_limit_hours": 24}
CHALLENGE = {"opponent": "bob", "variant": "BP"}


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/ladders", LADDER, "time_limit_hours"),
        ("/ladders", LADDER, "match_length"),
        ("/ladders", LADDER, "vacation_days_cap"),
        ("/tournaments", CUP, "size"),
        ("/tournaments", CUP, "time_limit_hours"),
        ("/tournaments", CUP, "match_length"),
        ("/tournaments", CUP, "vacation_days_cap"),
        ("/challenges", CHALLENGE, "match_length"),
        ("/challenges", CHALLENGE, "time_limit_hours"),
        ("/challenges", CHALLENGE, "stake"),
        ("/challenges", CHALLENGE, "automatic_doubles"),
    ],
)
def test_numbers_out_of_range_or_of_the_wrong_type(
    admin_user: Any, bob: Any, api_for: Any, path: str, body: dict[str, Any], field: str, value: Any
) -> None:
    before = _counts()
    _refused(api_for(admin_user).post(path, {**body, field: value}))
    assert _counts() == before


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/ladders", LADDER, "name"),
        ("/tournaments", CUP, "name"),
        ("/challenges", CHALLENGE, "message"),
        ("/challenges", CHALLENGE, "opponent"),
        ("/ladders", LADDER, "variant"),
    ],
)
@pytest.mark.parametrize("text", [LONG, "a\x00b"])
def test_long_texts_and_nul_bytes(
    admin_user: Any, bob: Any, api_for: Any, path: str, body: dict[str, Any], field: str, text: str
) -> None:
    before = _counts()
    _refused(api_for(admin_user).post(path, {**body, field: text}))
    assert _counts() == before


@pytest.mark.parametrize("days", [HUGE, -1, 0, 2, 1e308, "three"])
def test_more_time_refuses_anything_but_1_3_or_7_days(alice: Any, bob: Any, api_for: Any, days: Any) -> None:
    game = start_game(alice, bob, "BX")
    waiting = bob if game.actor_id == alice.pk else alice
    deadline = game.deadline
    _refused(api_for(waiting).post(f"/games/{game.pk}/time", {"days": days}))
    assert Game.objects.get(pk=game.pk).deadline == deadline


@pytest.mark.parametrize("value", [HUGE, -HUGE, "x", 1.5])
def test_actions_refuse_wild_action_numbers(alice: Any, bob: Any, api_for: Any, value: Any) -> None:
    game = start_game(alice, bob, "BX")
    count = game.action_count
    _refused(api_for(alice).post(f"/games/{game.pk}/actions",
                                 {"action": "roll", "expected_action_number": value}))
    assert Game.objects.get(pk=game.pk).action_count == count


@pytest.mark.parametrize("path", ["/games/{n}", "/ladders/{n}", "/tournaments/{n}",
                                  "/games/{n}/mat"])
def test_huge_ids_in_addresses_are_404_or_422(alice: Any, api_for: Any, path: str) -> None:
    response = api_for(alice).get(path.format(n=HUGE))
    assert response.status_code in (404, 422), response.status_code


def test_a_long_token_name_is_refused(alice: Any, client: Any) -> None:
    response = client.post("/api/v1/token", {"username": "alice", "password": "correct-horse-battery",
                                             "name": LONG}, content_type="application/json")
    _refused(response)
