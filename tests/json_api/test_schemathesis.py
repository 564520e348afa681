"""The API under attack: schemathesis generates requests from the OpenAPI document itself
(/api/v1/openapi.json) and sends them, with a valid token, to every call, the writing ones
included. Every answer must be documented: no server error, a status code the document lists
for that call, and a body that matches the schema given for that status.

The examples are bounded (``max_examples`` per call) so the whole run takes a minute or two; a
failure prints the request that caused it, to be replayed by hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from api.api import api
from api.tokens import token_create
from tests.site.gamebuilder import start_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=False)]

EXAMPLES_PER_CALL = 25


# The document as the API serves it (the same object /api/v1/openapi.json answers with), read
# without a request; the calls then go through the whole WSGI stack, middleware included.
schema = schemathesis.openapi.from_dict(api.get_openapi_schema(path_prefix="/api/v1"))
schema.app = get_wsgi_application()


@pytest.fixture(autouse=True)
def keep_the_test_transaction() -> Iterator[None]:
    # The WSGI handler closes the database connection after each request, which would end the
    # test's transaction; Django's own test client unhooks the same receivers for that reason.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def bearer(make_user: Any) -> dict[str, str]:
    """A token of a player who has a game in progress, so reading and writing calls get past
    the authentication to the services."""
    alice, bob = make_user("alice"), make_user("bob")
    start_game(alice, bob)
    _, secret = token_create(user=alice, name="schemathesis")
    return {"Authorization": f"Bearer {secret}"}


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_CALL,
    deadline=None,
    database=None,  # nothing written to the work tree
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_call_answers_as_documented(case: Any, bearer: dict[str, str]) -> None:
    # Every check (no server error, documented status codes, bodies, content types, headers)
    # but two about what the API should accept: the rules refuse some well-formed requests with
    # the documented 422 (a time limit not on the site's list, a challenge to nobody), which a
    # JSON schema cannot express; and the token goes on every request, so a generated case
    # "without Authorization" is sent with it (unknown query parameters are ignored, as HTTP
    # allows). Refusals of bad input have their own tests (test_api_bad_input.py).
    case.call_and_validate(
        headers=bearer, excluded_checks=[positive_data_acceptance, negative_data_rejection]
    )
