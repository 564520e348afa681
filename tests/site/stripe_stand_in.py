"""A Stripe API stand-in on loopback, for the membership tests: the real ``stripe`` library,
pointed at it by STRIPE_API_BASE, talks to it as to api.stripe.com.

It answers the three calls membership makes (create a Checkout session, retrieve a
subscription, list a session's line items) with Stripe-shaped JSON, checks the secret key in
the ``Authorization: Bearer`` header as Stripe does (401 with Stripe's error shape otherwise),
and records every request (method, path, form fields) for the tests to read. ``signed`` signs a
webhook payload exactly as Stripe does: ``t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

__all__ = ["StripeStandIn", "event", "signed", "stripe_stand_in"]

SECRET_KEY = "sk_test_stand_in_key"
WEBHOOK_SECRET = "whsec_stand_in_secret"
PRICES = {"monthly": "price_monthly_test", "yearly": "price_yearly_test", "single": "price_single_test"}


@dataclass
class Call:
    method: str
    path: str
    form: dict[str, str]
    authorization: str


@dataclass
class StripeStandIn:
    base: str = ""
    calls: list[Call] = field(default_factory=list)
    subscriptions: dict[str, dict[str, Any]] = field(default_factory=dict)
    line_items: dict[str, list[str]] = field(default_factory=dict)
    """Session id: the price ids of its line items."""
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def subscription(self, subscription_id: str, start: int, end: int, user_id: int | None = None) -> None:
        """Answer for this subscription with this current period (kept on its item, as API
        versions since 2025 do)."""
        self.subscriptions[subscription_id] = {
            "id": subscription_id, "object": "subscription", "status": "active",
            "metadata": {"user_id": str(user_id)} if user_id else {},
            "items": {"object": "list", "data": [{
                "id": f"si_{subscription_id}", "object": "subscription_item",
                "current_period_start": start, "current_period_end": end,
            }], "has_more": False, "url": f"/v1/subscription_items?subscription={subscription_id}"},
        }

    def answer(self, handler: BaseHTTPRequestHandler, method: str) -> tuple[int, dict[str, Any]]:
        path = urlsplit(handler.path).path
        length = int(handler.headers.get("Content-Length") or 0)
        form = dict(parse_qsl(handler.rfile.read(length).decode())) if length else {}
        authorization = handler.headers.get("Authorization", "")
        self.calls.append(Call(method, path, form, authorization))
        if authorization != f"Bearer {SECRET_KEY}":
            return 401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}}
        if method == "POST" and path == "/v1/checkout/sessions":
            session_id = f"cs_test_{next(self._ids)}"
            return 200, {
                "id": session_id, "object": "checkout.session", "mode": form.get("mode"),
                "client_reference_id": form.get("client_reference_id"), "status": "open",
                "url": f"https://checkout.stripe.com/c/pay/{session_id}",
            }
        parts = path.strip("/").split("/")
        if method == "GET" and parts[:2] == ["v1", "subscriptions"] and len(parts) == 3:
            found = self.subscriptions.get(parts[2])
            if found is not None:
                return 200, found
        if method == "GET" and parts[:3] == ["v1", "checkout", "sessions"] and parts[4:] == ["line_items"]:
            prices = self.line_items.get(parts[3], [])
            return 200, {"object": "list", "url": path, "has_more": False, "data": [
                {"id": f"li_{n}", "object": "item", "quantity": 1, "price": {"id": price, "object": "price"}}
                for n, price in enumerate(prices)
            ]}
        return 404, {"error": {"type": "invalid_request_error", "message": f"No such resource: {path}"}}


def _handler(stand_in: StripeStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method: str) -> None:
            status, body = stand_in.answer(self, method)
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.send_header("Request-Id", f"req_{time.monotonic_ns()}")
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:
            self._reply("GET")

        def do_POST(self) -> None:
            self._reply("POST")

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def stripe_stand_in(settings: Any) -> Iterator[StripeStandIn]:
    """The stand-in, serving on a free loopback port, with the site's Stripe settings pointing at it."""
    stand_in = StripeStandIn()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stand_in))
    stand_in.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.STRIPE_API_BASE = stand_in.base
    settings.STRIPE_SECRET_KEY = SECRET_KEY
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_PRICE_MONTHLY = PRICES["monthly"]
    settings.STRIPE_PRICE_YEARLY = PRICES["yearly"]
    settings.STRIPE_PRICE_SINGLE = PRICES["single"]
    settings.MEMBERSHIP_PRICE_MONTHLY_TEXT = "€3 a month"
    settings.MEMBERSHIP_PRICE_YEARLY_TEXT = "€30 a year"
    settings.MEMBERSHIP_PRICE_SINGLE_TEXT = "€35 once"
    try:
        yield stand_in
    finally:
        server.shutdown()
        server.server_close()


_event_ids = itertools.count(1)


def event(kind: str, obj: dict[str, Any], *, created: int | None = None, event_id: str | None = None) -> dict[str, Any]:
    """A webhook event as Stripe sends it (the fields the site reads, and the envelope's)."""
    return {
        "id": event_id or f"evt_test_{next(_event_ids)}_{time.monotonic_ns()}", "object": "event",
        "api_version": "2026-10-28.endive", "created": created or int(time.time()), "livemode": False,
        "pending_webhooks": 1, "request": {"id": None, "idempotency_key": None}, "type": kind,
        "data": {"object": obj},
    }


def signed(payload: dict[str, Any] | bytes, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> tuple[bytes, str]:
    """The body and the Stripe-Signature header Stripe sends with it."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    moment = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{moment}.".encode() + body, hashlib.sha256).hexdigest()
    return body, f"t={moment},v1={digest}"
