"""Web Push in the JSON API: the site's VAPID public key, and the caller's push devices.

The same service as the notices page's script (notices/push/subscriptions.py): the same checks
(https endpoint on a push service's host, a P-256 key and a 16-byte auth secret) and words.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja import Field, Router, Schema, Status
from ninja.errors import HttpError

from api import schemas
from notices.models import PushSubscription
from notices.push.subscriptions import (
    PushRefused,
    PushSubscriptionNotFound,
    push_subscription_create,
    push_subscription_delete,
    push_subscriptions,
)

__all__ = ["router"]

router = Router(tags=["push"])
_ERRORS = schemas.ERRORS


class PushKey(Schema):
    public_key: str = Field(description="The VAPID application server key, base64url "
                                        "(PushManager.subscribe's applicationServerKey).")


class PushKeys(Schema):
    p256dh: str = Field(description="The browser's P-256 public key, base64url (65 bytes).")
    auth: str = Field(description="The browser's auth secret, base64url (16 bytes).")


class PushSubscriptionIn(Schema):
    """The browser's PushSubscription.toJSON(), and a name for the device."""

    endpoint: str
    expirationTime: float | None = None
    keys: PushKeys
    name: str | None = None


class PushSubscriptionOut(Schema):
    id: int
    name: str
    created_at: datetime


class PushDevice(PushSubscriptionOut):
    last_used_at: datetime | None


def _device_json(device: PushSubscription) -> dict[str, Any]:
    return {"id": device.pk, "name": device.name, "created_at": device.created_at,
            "last_used_at": device.last_used_at}


@router.get("/push/key", response={200: PushKey, **_ERRORS})
def push_key(request: HttpRequest) -> Any:
    """The key a browser subscribes with (503 when the site has no VAPID key)."""
    if not settings.VAPID_PUBLIC_KEY:
        raise HttpError(503, "Push notifications are not configured on this site.")
    return {"public_key": settings.VAPID_PUBLIC_KEY}


@router.post("/push/subscriptions", response={201: PushSubscriptionOut, **_ERRORS})
def push_subscription_new(request: HttpRequest, body: PushSubscriptionIn) -> Any:
    """Turn push on for a browser (the same browser again renews its keys)."""
    try:
        device = push_subscription_create(
            user=request.auth, endpoint=body.endpoint, p256dh=body.keys.p256dh,  # type: ignore[attr-defined]
            auth=body.keys.auth, expiration_time=body.expirationTime, name=body.name,
        )
    except PushRefused as refusal:
        raise HttpError(422, refusal.message) from None
    return Status(201, {"id": device.pk, "name": device.name, "created_at": device.created_at})


@router.get("/push/subscriptions", response={200: list[PushDevice], **_ERRORS})
def push_subscription_list(request: HttpRequest) -> Any:
    """My devices with push on, the oldest first."""
    return [_device_json(device) for device in push_subscriptions(request.auth)]  # type: ignore[attr-defined]


@router.delete("/push/subscriptions/{subscription_id}", response={204: None, **_ERRORS})
def push_subscription_removed(request: HttpRequest, subscription_id: int) -> Any:
    """Turn push off for one of my devices; another player's is a 404."""
    try:
        push_subscription_delete(user=request.auth, subscription_id=subscription_id)  # type: ignore[attr-defined]
    except PushSubscriptionNotFound as missing:
        raise HttpError(404, str(missing)) from None
    return Status(204, None)
