"""The push API: the VAPID key, and a player's push devices (create, list, delete), with every
bad subscription refused with 422 and nothing changed. The notices page's script posts to its
own address through the same service (the last tests)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from notices.models import PushSubscription
from notices.push.subscriptions import MAX_DEVICES
from tests.site.push_service import BrowserKeys

pytestmark = pytest.mark.django_db

SERVICE = "https://fcm.googleapis.com/fcm/send/"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def subscription(endpoint: str = SERVICE + "abc123", **changes: Any) -> dict[str, Any]:
    keys = BrowserKeys()
    body: dict[str, Any] = {"endpoint": endpoint, "expirationTime": None,
                            "keys": {"p256dh": keys.p256dh, "auth": keys.auth}}
    for name, value in changes.items():
        if name in ("p256dh", "auth"):
            body["keys"][name] = value
        else:
            body[name] = value
    return body


def test_the_key_is_the_sites_vapid_public_key(alice_api: Any, anonymous_api: Any) -> None:
    response = alice_api.get("/push/key")
    assert response.status_code == 200
    assert response.json() == {"public_key": settings.VAPID_PUBLIC_KEY}
    assert len(base64.urlsafe_b64decode(settings.VAPID_PUBLIC_KEY + "=")) == 65
    assert anonymous_api.get("/push/key").status_code == 401


def test_a_browser_subscribes_lists_and_removes_its_device(alice_api: Any) -> None:
    created = alice_api.post("/push/subscriptions", subscription(name="Chrome on Android"))
    assert created.status_code == 201
    answer = created.json()
    assert set(answer) == {"id", "name", "created_at"}
    assert answer["name"] == "Chrome on Android"

    listed = alice_api.get("/push/subscriptions").json()
    assert [(d["id"], d["name"], d["last_used_at"]) for d in listed] == [(answer["id"], "Chrome on Android", None)]

    assert alice_api.delete(f"/push/subscriptions/{answer['id']}").status_code == 204
    assert alice_api.get("/push/subscriptions").json() == []


def test_a_device_without_a_name_is_named_after_its_push_service(alice_api: Any, settings: Any) -> None:
    settings.PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", "*.notify.windows.com"]
    assert alice_api.post("/push/subscriptions", subscription()).json()["name"] == "Chrome browser"
    edge = subscription("https://wns2-par02p.notify.windows.com/w/?token=abc")
    assert alice_api.post("/push/subscriptions", edge).json()["name"] == "Edge browser"


def test_the_same_browser_again_renews_its_keys(alice_api: Any, bob_api: Any, alice: Any, bob: Any) -> None:
    first = alice_api.post("/push/subscriptions", subscription(name="one")).json()
    again = subscription(name="renamed")
    second = alice_api.post("/push/subscriptions", again)
    assert second.status_code == 201 and second.json()["id"] == first["id"]
    device = PushSubscription.objects.get()
    assert (device.name, device.p256dh) == ("renamed", again["keys"]["p256dh"])
    # Bob turns push on in the same browser: the device notifies him now, not Alice.
    assert bob_api.post("/push/subscriptions", subscription(name="bob's")).status_code == 201
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [bob.pk]


@pytest.mark.parametrize(("body", "why"), [
    (subscription("http://fcm.googleapis.com/fcm/send/abc"), "https"),
    (subscription("https://evil.example/fcm/send/abc"), "not a push service"),
    (subscription("https://127.0.0.1/x"), "not a push service"),
    (subscription("https://fcm.googleapis.com.evil.example/x"), "not a push service"),
    (subscription("https://notify.windows.com/x"), "not a push service"),  # "*." means below it
    (subscription("https://user:pw@fcm.googleapis.com/x"), "plain https"),
    (subscription("ftp://fcm.googleapis.com/x"), "https"),
    (subscription("https://fcm.googleapis.com/a b"), "spaces"),
    (subscription(""), "missing"),
    (subscription(SERVICE + "x" * 2000), "longer"),
    (subscription(p256dh=b64(b"\x04" + b"\x01" * 64)), "not a point on the P-256 curve"),
    (subscription(p256dh=b64(b"\x04" + b"\x01" * 30)), "must be 65 bytes"),
    (subscription(p256dh="not*base64!"), "not base64url"),
    (subscription(auth=b64(b"x" * 15)), "must be 16 bytes"),
    (subscription(auth="a"), "not base64url"),
    (subscription(auth=""), "missing"),
    (subscription(expirationTime=-5), "out of range"),
    (subscription(name="n" * 101), "at most 100"),
])
def test_a_bad_subscription_is_refused_and_changes_nothing(alice_api: Any, body: dict[str, Any], why: str) -> None:
    response = alice_api.post("/push/subscriptions", body)
    assert response.status_code == 422, response.content
    assert why in response.json()["detail"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("body", [
    {"endpoint": SERVICE + "x"},  # no keys
    {"endpoint": SERVICE + "x", "keys": {"p256dh": 5, "auth": "x"}},
    "not json",
    [],
])
def test_a_body_that_is_no_subscription_is_refused(alice_api: Any, body: Any) -> None:
    response = alice_api.post("/push/subscriptions", body if isinstance(body, str) else json.dumps(body))
    assert response.status_code in (400, 422)
    assert "detail" in response.json()
    assert not PushSubscription.objects.exists()


def test_a_player_has_at_most_so_many_devices(alice_api: Any) -> None:
    for n in range(MAX_DEVICES):
        assert alice_api.post("/push/subscriptions", subscription(SERVICE + f"d{n}")).status_code == 201
    refused = alice_api.post("/push/subscriptions", subscription(SERVICE + "one-more"))
    assert refused.status_code == 422 and "remove one first" in refused.json()["detail"]
    assert PushSubscription.objects.count() == MAX_DEVICES


def test_each_player_sees_and_removes_only_their_own(alice_api: Any, bob_api: Any, charlie_api: Any) -> None:
    alices = alice_api.post("/push/subscriptions", subscription(SERVICE + "alice")).json()
    bob_api.post("/push/subscriptions", subscription(SERVICE + "bob"))
    assert [d["id"] for d in alice_api.get("/push/subscriptions").json()] == [alices["id"]]
    assert charlie_api.get("/push/subscriptions").json() == []

    refused = charlie_api.delete(f"/push/subscriptions/{alices['id']}")
    assert refused.status_code == 404 and refused.json()["detail"] == "You have no such device."
    assert charlie_api.delete("/push/subscriptions/999999").status_code == 404
    assert PushSubscription.objects.count() == 2


def test_everything_needs_a_token(anonymous_api: Any, alice_api: Any) -> None:
    device = alice_api.post("/push/subscriptions", subscription()).json()
    assert anonymous_api.get("/push/subscriptions").status_code == 401
    assert anonymous_api.post("/push/subscriptions", subscription(SERVICE + "other")).status_code == 401
    assert anonymous_api.delete(f"/push/subscriptions/{device['id']}").status_code == 401
    assert PushSubscription.objects.count() == 1


# The notices page's script: the same service, behind the session and CSRF.

def page_post(client: Client, body: Any, *, csrf: bool = True) -> Any:
    client.get(reverse("notices:settings"))  # sets the CSRF cookie, as the page does
    token = client.cookies["csrftoken"].value if csrf and "csrftoken" in client.cookies else ""
    return client.post(reverse("notices:push_device_add"), json.dumps(body), content_type="application/json",
                       HTTP_X_CSRFTOKEN=token)


def test_the_page_script_keeps_a_device_through_the_same_service(alice: Any, client_for: Any) -> None:
    client = client_for(alice)
    client.handler.enforce_csrf_checks = True
    created = page_post(client, subscription(name="Firefox on Linux"))
    assert created.status_code == 201
    assert set(created.json()) == {"id", "name", "created_at"}
    refused = page_post(client, subscription("http://fcm.googleapis.com/x"))
    assert refused.status_code == 422 and "https" in refused.json()["detail"]
    assert page_post(client, subscription(SERVICE + "no-csrf"), csrf=False).status_code == 403
    assert list(PushSubscription.objects.values_list("name", flat=True)) == ["Firefox on Linux"]
    page = client.get(reverse("notices:settings")).content.decode()
    assert "Firefox on Linux" in page and "Send a test" in page and "Remove" in page


def test_the_page_script_needs_a_signed_in_player() -> None:
    client = Client()
    response = client.post(reverse("notices:push_device_add"), json.dumps(subscription()),
                           content_type="application/json")
    assert response.status_code == 401
    assert not PushSubscription.objects.exists()


def test_remove_on_the_notices_page(alice: Any, alice_client: Client, alice_api: Any) -> None:
    device = alice_api.post("/push/subscriptions", subscription(name="Old phone")).json()
    response = alice_client.post(reverse("notices:push_device_remove", args=[device["id"]]), follow=True)
    assert response.status_code == 200
    assert "Old phone gets no more notifications." in response.content.decode()
    assert not PushSubscription.objects.exists()


def renew(body: Any) -> Any:
    return Client(enforce_csrf_checks=True).post(reverse("notices:push_device_renew"), json.dumps(body),
                                                 content_type="application/json")


def test_a_subscription_the_browser_replaced_is_renewed_by_the_worker(alice: Any, alice_api: Any) -> None:
    old = subscription(SERVICE + "old", name="Firefox on Android")
    device = alice_api.post("/push/subscriptions", old).json()
    fresh = subscription(SERVICE + "new")

    answer = renew({"old_endpoint": old["endpoint"], "old_auth": old["keys"]["auth"], "subscription": fresh})

    assert answer.status_code == 200 and answer.json() == {"id": device["id"]}
    renewed = PushSubscription.objects.get()
    assert (renewed.user_id, renewed.name, renewed.endpoint, renewed.p256dh) == (
        alice.pk, "Firefox on Android", fresh["endpoint"], fresh["keys"]["p256dh"])


@pytest.mark.parametrize(("change", "status"), [
    ({"old_auth": b64(b"y" * 16)}, 404),  # the auth secret is the proof
    ({"old_endpoint": SERVICE + "unknown"}, 404),
    ({"old_auth": None}, 404),
    ({"subscription": subscription("http://fcm.googleapis.com/new")}, 422),
    ({"subscription": subscription(SERVICE + "new", p256dh=b64(b"\x04" + b"\x02" * 64))}, 422),
    ({"subscription": "nothing"}, 422),
])
def test_a_renewal_without_the_proof_or_with_a_bad_subscription_changes_nothing(
    alice_api: Any, change: dict[str, Any], status: int
) -> None:
    old = subscription(SERVICE + "old")
    alice_api.post("/push/subscriptions", old)
    body = {"old_endpoint": old["endpoint"], "old_auth": old["keys"]["auth"],
            "subscription": subscription(SERVICE + "new"), **change}
    assert renew(body).status_code == status
    assert list(PushSubscription.objects.values_list("endpoint", "auth")) == [(old["endpoint"], old["keys"]["auth"])]


def test_nul_bytes_and_huge_or_wrong_typed_values_are_refused_or_cleaned(alice_api: Any) -> None:
    # A NUL byte anywhere is refused at the door (gamesite/bad_requests.py: 400); the rest 422.
    assert alice_api.post("/push/subscriptions", subscription(endpoint=SERVICE + "a\x00b")).status_code == 400
    assert alice_api.post("/push/subscriptions", subscription(name="a\x00b")).status_code == 400
    for bad in (subscription(name=["a list"]), subscription(name="x" * 100_000),
                subscription(endpoint=SERVICE + "x" * 100_000), subscription(expirationTime="tomorrow")):
        assert alice_api.post("/push/subscriptions", bad).status_code == 422, bad
    assert not PushSubscription.objects.exists()
    # Other control characters in a name are taken out, never stored.
    created = alice_api.post("/push/subscriptions", subscription(name="My\x1b phone\x07"))
    assert created.status_code == 201 and created.json()["name"] == "My phone"
