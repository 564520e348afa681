"""Sending one push to a player's devices through pywebpush: the payload encrypted to each
browser's keys (aes128gcm, RFC 8291), signed with the site's VAPID key (RFC 8292).

Only the task worker calls this (notices/push/notify.py). Outgoing HTTPS trusts the system's
certificates, or the bundle named by REQUESTS_CA_BUNDLE; a push service's redirect is not
followed, and every endpoint is checked against PUSH_SERVICE_HOSTS again before each post (the
setting may have changed since the device was added). A device its push service answers 404 or
410 (gone, RFC 8030 section 7.3) is removed; other failures are logged and the device kept.
"""

from __future__ import annotations

import json
import logging
import os
import ssl
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from notices.models import PushSubscription
from notices.push.subscriptions import endpoint_refusal

__all__ = ["Payload", "push_to_devices"]

log = logging.getLogger(__name__)

Payload = dict[str, str]
"""What the service worker shows: {"title", "body", "url", "tag"} (static/js/sw.js)."""

CONNECT_SECONDS, READ_SECONDS = 5, 10
GONE = (404, 410)


@lru_cache(maxsize=2)
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key)


def _system_certificates() -> str | bool:
    """The system's CA bundle (or directory) for requests, which otherwise trusts certifi's copy;
    requests itself prefers REQUESTS_CA_BUNDLE when it is set."""
    paths = ssl.get_default_verify_paths()
    for candidate in (paths.cafile, paths.openssl_cafile):
        if candidate and os.path.isfile(candidate):
            return candidate
    for candidate in (paths.capath, paths.openssl_capath):
        if candidate and os.path.isdir(candidate):
            return candidate
    return True


def _session() -> requests.Session:
    session = requests.Session()
    session.max_redirects = 0  # a redirect would take our request to an address we never checked
    session.verify = _system_certificates()
    return session


def push_to_devices(devices: Iterable[PushSubscription], payload: Payload, *, ttl: int,
                    urgency: str = "normal") -> int:
    """Send ``payload`` to each device; how many push services accepted it."""
    if not settings.VAPID_PRIVATE_KEY:
        log.info("push: no VAPID key configured, nothing sent")
        return 0
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    session = _session()
    sent = 0
    try:
        for device in devices:
            sent += _push_one(session, device, data, ttl=ttl, urgency=urgency)
    finally:
        session.close()
    return sent


def _push_one(session: requests.Session, device: PushSubscription, data: str, *, ttl: int,
              urgency: str) -> bool:
    refusal = endpoint_refusal(device.endpoint)
    if refusal:
        log.warning("push: device %s not sent to: %s", device.pk, refusal)
        return False
    info: dict[str, Any] = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    try:
        webpush(
            info, data=data, vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.VAPID_SUBJECT},  # a fresh dict: webpush adds aud and exp
            content_encoding="aes128gcm", ttl=ttl, headers={"Urgency": urgency},
            timeout=(CONNECT_SECONDS, READ_SECONDS), requests_session=session,
        )
    except WebPushException as failure:
        status = failure.status_code
        if status in GONE:
            PushSubscription.objects.filter(pk=device.pk).delete()
            log.info("push: device %s is gone (%s), removed", device.pk, status)
        else:
            log.warning("push: device %s refused (%s): %s", device.pk, status, failure.message[:200])
        return False
    except requests.RequestException as failure:
        log.warning("push: device %s not reached: %s", device.pk, failure)
        return False
    PushSubscription.objects.filter(pk=device.pk).update(last_used_at=timezone.now())
    return True
