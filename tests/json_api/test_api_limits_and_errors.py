"""Per-token rate limits, JSON errors everywhere under /api/, the OpenAPI document and its docs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_ten_requests_a_second_are_never_throttled(alice_api: Any) -> None:
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(130):  # 13 seconds: past the burst window and into the minute's count
            assert alice_api.get("/me").status_code == 200
            clock.shift(timedelta(milliseconds=100))


def test_a_burst_past_the_limit_gets_429_with_retry_after(alice_api: Any, bob_api: Any) -> None:
    with time_machine.travel(START, tick=False) as clock:
        codes = [alice_api.get("/me").status_code for _ in range(31)]
        assert codes == [200] * 30 + [429]
        refused = alice_api.get("/me")
        assert refused.status_code == 429 and refused["Retry-After"] == "1"
        assert refused.json() == {"detail": "Too many requests: wait 1 second and try again."}
        assert bob_api.get("/me").status_code == 200  # each token has its own budget
        clock.shift(timedelta(seconds=1.1))
        assert alice_api.get("/me").status_code == 200


def test_the_minute_s_limit(alice_api: Any) -> None:
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(1200 // 25):
            for _ in range(25):
                assert alice_api.get("/me").status_code == 200
            clock.shift(timedelta(seconds=1))
        refused = alice_api.get("/me")
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 1


@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/v2/games", "/api/v1/games/abc/mat/x"])
def test_an_unknown_address_is_a_json_404(alice_api: Any, path: str) -> None:
    response = alice_api.client.get(path, HTTP_AUTHORIZATION=f"Bearer {alice_api.token}")
    assert response.status_code == 404
    assert response.json()["detail"].startswith("There is nothing at this address")


def test_a_wrong_method_is_a_json_405(alice_api: Any) -> None:
    response = alice_api.client.delete("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {alice_api.token}")
    assert response.status_code == 405
    assert response.json() == {"detail": "This address does not take DELETE requests."}
    assert "GET" in response["Allow"]


def test_a_bad_path_parameter_is_a_sentence(alice_api: Any) -> None:
    response = alice_api.get("/games/abc")
    assert response.status_code == 422
    assert response.json()["detail"].startswith("The field 'game_id' is not valid")


def test_the_openapi_document_describes_every_call(anonymous_api: Any) -> None:
    response = anonymous_api.client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/v1/token", "/api/v1/me", "/api/v1/players/{username}", "/api/v1/games",
                 "/api/v1/games/{game_id}", "/api/v1/games/{game_id}/actions", "/api/v1/challenges",
                 "/api/v1/challenges/{challenge_id}/accept", "/api/v1/challenges/{challenge_id}/decline",
                 "/api/v1/challenges/{challenge_id}/withdraw", "/api/v1/games/{game_id}/mat"):
        assert path in paths
    schemes = response.json()["components"]["securitySchemes"]
    assert schemes == {"BearerToken": {"type": "http", "scheme": "bearer"}}


def test_the_docs_page_loads_only_our_own_files(anonymous_api: Any) -> None:
    response = anonymous_api.client.get("/api/v1/docs")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page and "cdn" not in page.lower()
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert anonymous_api.client.get("/static/ninja/swagger-ui-init.js").status_code == 200
