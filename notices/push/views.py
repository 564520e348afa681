"""The notices page's push parts: the page's script turns push on for this device (a JSON POST,
the same service as the API), and each listed device has Remove and "Send a test" (plain forms).
Only the task worker pushes: "Send a test" queues the push."""

from __future__ import annotations

import json
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from gamesite.text import json_holds_refused_text
from notices.models import PushSubscription
from notices.push.subscriptions import (
    PushRefused,
    PushSubscriptionNotFound,
    push_subscription_delete,
    push_subscription_from_json,
    push_subscription_renew,
)
from notices.push.tasks import push_test_notice

__all__ = ["push_device_add", "push_device_remove", "push_device_renew", "push_device_test"]

BODY_MAX_BYTES = 8192


def _detail(message: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": message}, status=status)


@require_POST
def push_device_add(request: HttpRequest) -> HttpResponse:
    """The browser's ``PushSubscription.toJSON()`` and a ``name``: 201 ``{"id", "name",
    "created_at"}``, or 422 with the reason (401 signed out; CSRF as every form)."""
    if not request.user.is_authenticated:
        return _detail("Log in to turn on notifications.", 401)
    if not settings.VAPID_PUBLIC_KEY:
        return _detail("Push notifications are not configured on this site.", 503)
    if len(request.body) > BODY_MAX_BYTES:
        return _detail("That is too much for a subscription.", 422)
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _detail("Send the browser's subscription as JSON.", 422)
    if problem := json_holds_refused_text(data):
        return _detail(problem, 422)
    try:
        device = push_subscription_from_json(user=request.user, data=data)
    except PushRefused as refusal:
        return _detail(refusal.message, 422)
    messages.success(request, f"Notifications are on for {device.name}.")
    return JsonResponse({"id": device.pk, "name": device.name, "created_at": device.created_at.isoformat()},
                        status=201)


@csrf_exempt  # the old subscription's endpoint and auth secret are the proof (see the service)
@require_POST
def push_device_renew(request: HttpRequest) -> HttpResponse:
    """The service worker's ``{"old_endpoint", "old_auth", "subscription"}`` after the browser
    changed its subscription: 200 ``{"id"}``, 404 for no such device, 422 for a bad one."""
    if len(request.body) > BODY_MAX_BYTES:
        return _detail("That is too much for a subscription.", 422)
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _detail("Send the subscriptions as JSON.", 422)
    if problem := json_holds_refused_text(data):
        return _detail(problem, 422)
    if not isinstance(data, dict):
        return _detail("Send the subscriptions as a JSON object.", 422)
    try:
        device = push_subscription_renew(old_endpoint=data.get("old_endpoint"), old_auth=data.get("old_auth"),
                                         data=data.get("subscription"))
    except PushSubscriptionNotFound as missing:
        return _detail(str(missing), 404)
    except PushRefused as refusal:
        return _detail(refusal.message, 422)
    return JsonResponse({"id": device.pk})


@login_required
@require_POST
def push_device_remove(request: HttpRequest, device_id: int) -> HttpResponse:
    device = get_object_or_404(PushSubscription, pk=device_id, user=request.user)
    try:
        push_subscription_delete(user=request.user, subscription_id=device.pk)
    except PushSubscriptionNotFound:  # removed meanwhile (another tab, or its service said gone)
        pass
    messages.success(request, f"{device.name} gets no more notifications.")
    return redirect("notices:settings")


@login_required
@require_POST
def push_device_test(request: HttpRequest, device_id: int) -> HttpResponse:
    device = get_object_or_404(PushSubscription, pk=device_id, user=request.user)
    if is_ratelimited(request, group="push-test", key=lambda _group, _request: str(request.user.pk),
                      rate=settings.PUSH_TEST_RATE, increment=True):
        messages.error(request, "That is enough tests for now: try again later.")
        return redirect("notices:settings")
    push_test_notice.enqueue(device.pk, request.user.pk, uuid.uuid4().hex)
    messages.success(request, f"A test notification is on its way to {device.name}.")
    return redirect("notices:settings")
