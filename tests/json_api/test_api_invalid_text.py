"""A lone surrogate ("\\ud800", which JSON allows but which is no character) in any request body
is refused at the door with a 400 on every call that takes a body, signed in or not, and changes
nothing; before, it reached the database on 11 calls and answered 500 (one of them the
unauthenticated POST /token)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Model

from api.api import api
from backgammon.models import Challenge, Game, GameNote
from messaging.models import Message
from notices.models import PushSubscription
from tests.site.gamebuilder import fast_passwords, start_game  # noqa: F401
from tournaments.models import Ladder, Tournament

pytestmark = pytest.mark.django_db

SURROGATE = "\\ud800"  # as it is written inside a JSON string
_ENDPOINT = "https://push.example.com/send/abc"

# Every call that takes a body, with a body that would do something but for one text field
# holding the lone surrogate. {game}, {message} and {ladder} are real ids of the test's objects.
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/token"): {"username": f"alice{SURROGATE}", "password": "x"},
    ("post", "/games/{game_id}/actions"): {
        "action": "double", "expected_action_number": "{number}", "message": f"hi{SURROGATE}"},
    ("post", "/challenges"): {"opponent": "bob", "variant": "BP", "message": SURROGATE},
    ("post", "/ladders"): {"name": f"L{SURROGATE}", "variant": "BX", "time_limit_hours": 48},
    ("post", "/ladders/{ladder_id}/challenge"): {"opponent": f"bob{SURROGATE}"},
    ("post", "/tournaments"): {"name": f"C{SURROGATE}", "variant": "BX", "format": "single_elimination",
                               "size": 4, "time_limit_hours": 24},
    ("post", "/games/{game_id}/time"): {"days": 1, SURROGATE: 1},
    ("post", "/waiting-room"): {"variant": "BP", "message": SURROGATE},
    ("put", "/auto-match"): {"variants": [f"BP{SURROGATE}"], "time_limits_hours": [72]},
    ("post", "/messages"): {"to": "bob", "subject": SURROGATE, "text": "hello"},
    ("post", "/messages/{message_id}/read"): {"read": True, SURROGATE: 1},
    ("put", "/games/{game_id}/note"): {"text": f"note {SURROGATE}"},
    ("post", "/push/subscriptions"): {"endpoint": _ENDPOINT, "keys": {"p256dh": "k", "auth": "a"},
                                      "name": f"phone{SURROGATE}"},
}
COUNTED: list[type[Model]] = [Challenge, Game, GameNote, Message, Ladder, Tournament, PushSubscription]


def _operations_with_a_body() -> list[tuple[str, str]]:
    """(method, path under /api/v1) of every operation the API documents with a request body."""
    schema = api.get_openapi_schema()
    return sorted(
        (method, path.removeprefix("/api/v1"))
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    )


def test_every_call_that_takes_a_body_is_in_the_table(db: None) -> None:
    # A new call with a body must be added to BODIES, so the test below covers it too.
    assert sorted(BODIES) == _operations_with_a_body()


def _counts() -> list[int]:
    return [model._default_manager.count() for model in COUNTED]


@pytest.fixture
def world(admin_user: Any, alice: Any, bob: Any) -> dict[str, int]:
    game = start_game(alice, bob)
    ladder = Ladder.objects.create(name="The ladder", variant="BX", time_limit=timedelta(days=2),
                                   created_by=admin_user)
    message = Message.objects.create(sender=bob, recipient=alice, body="hello")
    return {"game_id": game.pk, "number": game.action_count, "ladder_id": ladder.pk,
            "message_id": message.pk}


def _filled(text: str, world: dict[str, int]) -> str:
    for name, value in world.items():
        text = text.replace("{" + name + "}", str(value))
    return text


@pytest.mark.parametrize(("method", "path"), sorted(BODIES))
def test_a_lone_surrogate_is_refused_at_the_door(
    admin_user: Any, alice: Any, api_for: Any, anonymous_api: Any, world: dict[str, int],
    method: str, path: str,
) -> None:
    # The log-in call is the outsider's; the others are asked by a player allowed to make them.
    client = api_for(admin_user if path in ("/ladders", "/tournaments") else alice)
    if path == "/token":
        client = anonymous_api
    # json.dumps would write the escape as "\\\\ud800": the escape must reach the server as it is.
    body = _filled(json.dumps(BODIES[(method, path)]), world).replace('"{number}"', str(world["number"]))
    body = body.replace("\\\\ud800", "\\ud800")
    before = _counts()
    response = getattr(client, method)(_filled(path, world), body)
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert "lone surrogate" in response.json()["detail"]
    assert _counts() == before


def test_the_password_log_in_still_works_after_a_refusal(alice: Any, anonymous_api: Any) -> None:
    from tests.conftest import PASSWORD

    refused = anonymous_api.post("/token", '{"username": "alice\\ud800", "password": "x"}')
    assert refused.status_code == 400
    assert anonymous_api.post("/token", {"username": "alice", "password": PASSWORD}).status_code in (200, 201)


@pytest.mark.parametrize("body", ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000])
def test_a_body_nested_thousands_deep_is_refused_at_the_door(anonymous_api: Any, body: str) -> None:
    response = anonymous_api.post("/token", body)
    assert response.status_code == 400 and response.json()["detail"] == "The request body is nested too deeply."


def test_a_deeply_nested_document_is_walked_to_its_bottom(anonymous_api: Any) -> None:
    deep = '{"a":' * 500 + '"\\ud800"' + "}" * 500
    response = anonymous_api.post("/token", deep)
    assert response.status_code == 400 and "lone surrogate" in response.json()["detail"]
