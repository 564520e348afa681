"""API test helpers: tokens for the personas and a client that sends them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from api.tokens import token_create


class ApiClient:
    """Django's test client speaking JSON with a bearer token (or none)."""

    def __init__(self, token: str | None = None) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.token = token

    def _headers(self) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(f"/api/v1{path}", params, **self._headers())

    def post(self, path: str, body: Any = None, **extra: Any) -> Any:
        data = body if isinstance(body, (str, bytes)) else json.dumps(body if body is not None else {})
        return self.client.post(f"/api/v1{path}", data, content_type="application/json",
                                **self._headers(), **extra)

    def put(self, path: str, body: Any = None) -> Any:
        data = body if isinstance(body, (str, bytes)) else json.dumps(body if body is not None else {})
        return self.client.put(f"/api/v1{path}", data, content_type="application/json", **self._headers())

    def delete(self, path: str) -> Any:
        return self.client.delete(f"/api/v1{path}", **self._headers())

    def act(self, game_id: int, action: str, number: int, **fields: Any) -> Any:
        body = {"action": action, "expected_action_number": number, **fields}
        return self.post(f"/games/{game_id}/actions", body)


@pytest.fixture
def api_for(db: None) -> Callable[[Any], ApiClient]:
    def make(user: Any) -> ApiClient:
        _, secret = token_create(user=user, name="tests")
        return ApiClient(secret)

    return make


@pytest.fixture
def alice_api(alice: Any, api_for: Callable[[Any], ApiClient]) -> ApiClient:
    return api_for(alice)


@pytest.fixture
def bob_api(bob: Any, api_for: Callable[[Any], ApiClient]) -> ApiClient:
    return api_for(bob)


@pytest.fixture
def charlie_api(charlie: Any, api_for: Callable[[Any], ApiClient]) -> ApiClient:
    return api_for(charlie)


@pytest.fixture
def anonymous_api() -> ApiClient:
    return ApiClient()
