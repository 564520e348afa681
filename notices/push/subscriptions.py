"""A player's push devices: turn push on for a browser, list them, remove one.

One service for the notices page's script and the API alike (``push_subscription_create``). An
endpoint must be https on a host of PUSH_SERVICE_HOSTS, so nobody can make the server post to
an address of their choosing; the browser's keys must be a P-256 point and a 16-byte secret.
Bad input is refused with a sentence (``PushRefused``) and changes nothing.
"""

from __future__ import annotations

import hmac
import math
import unicodedata
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet

from gamesite.kept import forget_when_changed, kept
from gamesite.vapid import b64url_decode
from notices.models import PushSubscription

__all__ = [
    "MAX_DEVICES",
    "PushRefused",
    "PushSubscriptionNotFound",
    "endpoint_refusal",
    "has_push_devices",
    "host_allowed",
    "push_devices_key",
    "push_subscription_create",
    "push_subscription_delete",
    "push_subscription_from_json",
    "push_subscription_renew",
    "push_subscriptions",
]

MAX_DEVICES = 20
NAME_MAX = 100
ENDPOINT_MAX = 2000
# The push services' own names, for a device the browser sent no name for.
_SERVICE_NAMES = {
    "fcm.googleapis.com": "Chrome",
    "android.googleapis.com": "Chrome",
    "updates.push.services.mozilla.com": "Firefox",
    "notify.windows.com": "Edge",
    "web.push.apple.com": "Safari",
}


class PushRefused(ValueError):
    """A subscription the site will not keep; the message says why, to the person or program."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class PushSubscriptionNotFound(LookupError):
    pass


def host_allowed(host: str) -> bool:
    """Whether ``host`` is one of PUSH_SERVICE_HOSTS ("*.example.com": any name under it)."""
    host = host.lower().rstrip(".")
    for allowed in settings.PUSH_SERVICE_HOSTS:
        if allowed.startswith("*."):
            if host.endswith(allowed[1:]) and len(host) > len(allowed) - 1:
                return True
        elif host == allowed:
            return True
    return False


def endpoint_refusal(endpoint: Any) -> str | None:
    """Why this endpoint is refused, or None when the server may post to it."""
    if not isinstance(endpoint, str) or not endpoint:
        return "The subscription's endpoint is missing."
    if len(endpoint) > ENDPOINT_MAX:
        return f"The endpoint is longer than {ENDPOINT_MAX} characters."
    if any(ch.isspace() or unicodedata.category(ch) == "Cc" for ch in endpoint):
        return "The endpoint holds spaces or control characters."
    try:
        parts = urlsplit(endpoint)
        host, port = parts.hostname, parts.port
    except ValueError:
        return "The endpoint is not a URL."
    if parts.scheme != "https":
        return "The endpoint must be an https address."
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        return "The endpoint must be a plain https address of a push service."
    if port == 0:
        return "The endpoint's port is not valid."
    if not host_allowed(host):
        return f"{host} is not a push service this site sends to."
    return None


def _key(text: Any, what: str, length: int) -> bytes:
    if not isinstance(text, str) or not text:
        raise PushRefused(f"The subscription's key {what} is missing.")
    try:
        raw = b64url_decode(text)
    except ValueError:
        raise PushRefused(f"The key {what} is not base64url.") from None
    if len(raw) != length:
        raise PushRefused(f"The key {what} must be {length} bytes, not {len(raw)}.")
    return raw


def _checked_keys(p256dh: Any, auth: Any) -> tuple[str, str]:
    point = _key(p256dh, "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise PushRefused("The key p256dh is not a point on the P-256 curve.") from None
    _key(auth, "auth", 16)
    return p256dh.rstrip("="), auth.rstrip("=")


def _expiry(expiration_time: Any) -> datetime | None:
    """The browser's expirationTime (milliseconds since 1970, or null)."""
    if expiration_time is None:
        return None
    if isinstance(expiration_time, bool) or not isinstance(expiration_time, (int, float)):
        raise PushRefused("expirationTime must be a number of milliseconds or null.")
    if not math.isfinite(expiration_time) or not 0 <= expiration_time < 253_402_300_800_000:
        raise PushRefused("expirationTime is out of range.")
    return datetime.fromtimestamp(expiration_time / 1000, tz=UTC)


def _name(name: Any, endpoint: str) -> str:
    if name is not None and not isinstance(name, str):
        raise PushRefused("The name must be text.")
    cleaned = " ".join("".join(ch for ch in (name or "") if unicodedata.category(ch)[0] != "C").split())
    if len(cleaned) > NAME_MAX:
        raise PushRefused(f"A device's name can be at most {NAME_MAX} characters.")
    if cleaned:
        return cleaned
    host = (urlsplit(endpoint).hostname or "").lower()
    for service, browser in _SERVICE_NAMES.items():
        if host == service or host.endswith("." + service):
            return f"{browser} browser"
    return f"Browser ({host})"


def push_subscription_create(*, user: Any, endpoint: Any, p256dh: Any, auth: Any,
                             expiration_time: Any = None, name: Any = None) -> PushSubscription:
    """Turn push on for a browser: its ``PushSubscription.toJSON()`` fields. A browser already
    on the list gets its keys and name renewed (and, from another player's list, moves to this
    one: a device notifies whoever last turned push on there)."""
    refusal = endpoint_refusal(endpoint)
    if refusal:
        raise PushRefused(refusal)
    p256dh, auth = _checked_keys(p256dh, auth)
    expires_at = _expiry(expiration_time)
    name = _name(name, endpoint)
    with transaction.atomic():
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is not None and existing.user_id == user.pk:
            existing.p256dh, existing.auth, existing.expires_at, existing.name = p256dh, auth, expires_at, name
            existing.save(update_fields=["p256dh", "auth", "expires_at", "name"])
            return existing
        if PushSubscription.objects.filter(user=user).count() >= MAX_DEVICES:
            raise PushRefused(f"You have {MAX_DEVICES} devices with push on: remove one first.")
        if existing is not None:
            existing.delete()
        return PushSubscription.objects.create(
            user=user, endpoint=endpoint, p256dh=p256dh, auth=auth, expires_at=expires_at, name=name
        )


def push_subscription_from_json(*, user: Any, data: Any) -> PushSubscription:
    """``push_subscription_create`` from the JSON a page's script sends: the browser's
    ``PushSubscription.toJSON()`` plus an optional ``name``."""
    if not isinstance(data, Mapping):
        raise PushRefused("Send the browser's subscription as a JSON object.")
    keys = data.get("keys")
    if not isinstance(keys, Mapping):
        raise PushRefused("The subscription's keys are missing.")
    return push_subscription_create(
        user=user, endpoint=data.get("endpoint"), p256dh=keys.get("p256dh"), auth=keys.get("auth"),
        expiration_time=data.get("expirationTime"), name=data.get("name"),
    )


def push_subscription_renew(*, old_endpoint: Any, old_auth: Any, data: Any) -> PushSubscription:
    """A browser replaced its subscription (the service worker's ``pushsubscriptionchange``): the
    device keeps its player and name, with the new endpoint and keys. The old endpoint and its auth
    secret, known only to that browser and to us, are the proof; the worker has no session."""
    if not isinstance(data, Mapping) or not isinstance(data.get("keys"), Mapping):
        raise PushRefused("Send the browser's new subscription as a JSON object with its keys.")
    endpoint, keys = data.get("endpoint"), data["keys"]
    refusal = endpoint_refusal(endpoint)
    if refusal:
        raise PushRefused(refusal)
    p256dh, auth = _checked_keys(keys.get("p256dh"), keys.get("auth"))
    expires_at = _expiry(data.get("expirationTime"))
    if not isinstance(old_endpoint, str) or not isinstance(old_auth, str):
        raise PushSubscriptionNotFound("No device has that subscription.")
    with transaction.atomic():
        device = PushSubscription.objects.select_for_update().filter(endpoint=old_endpoint).first()
        if device is None or not hmac.compare_digest(device.auth.encode(), old_auth.rstrip("=").encode()):
            raise PushSubscriptionNotFound("No device has that subscription.")
        PushSubscription.objects.filter(endpoint=endpoint).exclude(pk=device.pk).delete()
        device.endpoint, device.p256dh, device.auth, device.expires_at = endpoint, p256dh, auth, expires_at
        device.save(update_fields=["endpoint", "p256dh", "auth", "expires_at"])
        return device


def push_subscriptions(user: Any) -> QuerySet[PushSubscription]:
    return PushSubscription.objects.filter(user=user).order_by("created_at", "pk")


def push_subscription_delete(*, user: Any, subscription_id: int) -> None:
    """Remove one of the player's devices; another player's (or none) is not found."""
    deleted, _ = PushSubscription.objects.filter(pk=subscription_id, user=user).delete()
    if not deleted:
        raise PushSubscriptionNotFound("You have no such device.")


def push_devices_key(user_id: int) -> str:
    return f"push:has-devices:{user_id}"


def has_push_devices(user_id: int) -> bool:
    """Whether the player has turned push on anywhere: asked on every turn that passes, so kept
    (gamesite/kept.py) and forgotten when a device is added or removed."""
    return kept(push_devices_key(user_id),
                lambda: PushSubscription.objects.filter(user_id=user_id).exists(), 600)


forget_when_changed(PushSubscription, lambda device: [push_devices_key(device.user_id)], "push-devices")
