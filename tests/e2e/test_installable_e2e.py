"""The installable app in Chromium: every page links the manifest and registers /sw.js with
scope "/"; Chromium finds the site installable (DevTools' own check); the offline page shows
when the network is gone; the worker's cache holds static files and the offline page only, never
a page of a player's; and the notices page's push parts work as a player uses them.

(Web Push's own delivery is tested through a push service stand-in in tests/site/test_web_push.py.
A real PushManager.subscribe needs the browser vendor's push service, which this machine cannot
reach: here the notices page's script meets the browser's own refusal, and the device is added
by the same request the script makes, from the page.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from backgammon.engine import TimeControl
from notices.models import PushSubscription
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, TabMaker
from tests.e2e.scenes import cast, opening
from tests.site.gamebuilder import scripted_dice, start_game
from tests.site.push_service import run_queued_pushes

ALL_CACHED = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) { urls.push(new URL(request.url).pathname); }
  }
  return urls;
}"""


def worker_ready(tab: Page) -> str:
    """Wait for the service worker to be active; its registration's scope."""
    return str(tab.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)"))


def controlled(tab: Page) -> None:
    tab.wait_for_function("navigator.serviceWorker.controller !== null")


def test_the_site_is_installable_and_registers_its_worker_for_the_whole_site(
    browser: Browser, transactional_db: None, live_server: Any, tmp_path: Path
) -> None:
    # A profile of its own: Chromium installs nothing from an incognito window, which is what
    # Playwright's new_context() opens ("in-incognito" would be the only installability error).
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
        base_url=live_server.url,
    )
    try:
        tab = context.new_page()
        tab.goto("/help/")
        manifest_href = tab.locator('link[rel="manifest"]').get_attribute("href")
        assert manifest_href == "/manifest.webmanifest"
        assert worker_ready(tab) == f"{live_server.url}/"

        cdp = context.new_cdp_session(tab)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{live_server.url}/manifest.webmanifest"
        assert manifest["errors"] == []
        parsed = manifest.get("manifest") or {}
        if parsed:  # newer DevTools also give the manifest as Chromium parsed it
            assert parsed.get("display") in ("standalone", "kStandalone")
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

        answer = tab.request.get("/sw.js")
        assert answer.headers["service-worker-allowed"] == "/"
        assert answer.headers["cache-control"] == "no-cache"
        assert answer.headers["content-type"].startswith("text/javascript")
    finally:
        context.close()
        live_server.wait_until_idle()


def test_the_offline_page_shows_when_the_network_is_gone(
    tab_for: TabMaker, transactional_db: None, screenshot: Any
) -> None:
    tab = tab_for(390, cast().alice)
    tab.goto("/")
    worker_ready(tab)
    tab.reload()
    controlled(tab)
    tab.context.set_offline(True)
    try:
        tab.goto("/games/")
        expect(tab.get_by_role("heading", name="You are offline")).to_be_visible()
        screenshot(tab, "offline-390")
    finally:
        tab.context.set_offline(False)
    tab.goto("/games/")
    expect(tab.get_by_role("heading", name="You are offline")).to_have_count(0)


def test_the_worker_keeps_no_page_of_a_players(tab_for: TabMaker, transactional_db: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    who = cast()
    scene = opening(who, monkeypatch)
    tab = tab_for(1280, who.alice)
    tab.goto("/")
    worker_ready(tab)
    for address in ("/", scene.url, "/notices/settings/", "/messages/", "/accounts/profile/"):
        tab.goto(address)
        controlled(tab)
    cached = tab.evaluate(ALL_CACHED)
    assert "/static/css/site.css" in cached and "/static/css/game.css" in cached  # it does keep files
    assert [url for url in cached if not (url.startswith("/static/") or url == "/offline/")] == []


def test_the_notices_page_lists_devices_sends_a_test_and_removes(
    tab_for: TabMaker, transactional_db: None, push_service: Any, screenshot: Any
) -> None:
    alice = cast().alice
    tab = tab_for(390, alice)
    tab.context.grant_permissions(["notifications"])
    tab.goto("/notices/settings/")
    expect(tab.get_by_role("button", name="Turn on notifications on this device")).to_be_visible()

    # The script's own attempt: this Chromium has no push service to subscribe with, and the
    # page says what the browser answered instead of pretending.
    tab.get_by_role("button", name="Turn on notifications on this device").click()
    status = tab.locator("[data-push-status]")
    expect(status).not_to_have_text("Asking the browser…", timeout=30_000)
    expect(status).not_to_be_empty()
    assert not PushSubscription.objects.exists()

    # The request the script makes once the browser has subscribed, from the page itself.
    answer = tab.evaluate("""async (subscription) => {
      const panel = document.querySelector("[data-push-panel]");
      const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
      const response = await fetch(panel.getAttribute("data-push-url"), {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": token},
        body: JSON.stringify({...subscription, name: "Chromium on Linux"}),
      });
      return {status: response.status, body: await response.json()};
    }""", push_service.subscription("alice-phone"))
    assert answer["status"] == 201 and answer["body"]["name"] == "Chromium on Linux"

    tab.reload()
    row = tab.get_by_role("list", name="Devices with push notifications").get_by_role("listitem").filter(has_text="Chromium on Linux")
    expect(row).to_contain_text("not yet")
    screenshot(tab, "notices-devices-390")
    row.get_by_role("button", name="Send a test").click()
    expect(tab.get_by_text("A test notification is on its way to Chromium on Linux.")).to_be_visible()
    assert run_queued_pushes() == [1]
    [payload] = push_service.delivered("alice-phone")
    assert payload["tag"] == "test" and payload["url"].endswith("/notices/settings/")

    tab.reload()
    tab.get_by_role("button", name="Remove Chromium on Linux").click()
    expect(tab.get_by_text("Chromium on Linux gets no more notifications.")).to_be_visible()
    assert not PushSubscription.objects.exists()


def test_the_game_page_offers_push_once_after_the_first_move_and_remembers_no(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch, screenshot: Any
) -> None:
    who = cast()
    scene = opening(who, monkeypatch)
    tab = tab_for(1280, who.alice)
    tab.goto(scene.url + "?steps=8-5,6-5")
    offer = tab.locator("[data-push-offer]")
    expect(tab.get_by_role("button", name="Submit", exact=True)).to_be_visible()
    tab.wait_for_load_state("load")
    expect(offer).to_be_hidden()  # never on first load

    tab.get_by_role("button", name="Submit", exact=True).click()
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("when it is your turn")
    seen = offer.bounding_box()  # in sight, wherever the page's layout ends
    assert seen is not None and 0 <= seen["y"] and seen["y"] + seen["height"] <= 900, seen
    screenshot(tab, "push-offer-1280")
    offer.get_by_role("button", name="No thanks").click()
    expect(offer).to_be_hidden()

    second = opening(who, monkeypatch)
    tab.goto(second.url + "?steps=8-5,6-5")
    tab.get_by_role("button", name="Submit", exact=True).click()
    tab.wait_for_load_state("networkidle")
    expect(offer).to_be_hidden()  # dismissed: not offered again


def test_a_live_match_offers_no_push_over_its_board(
    tab_for: TabMaker, transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The opponent's move comes within seconds, in sight: the offer would only cover the board."""
    who = cast()
    scripted_dice(monkeypatch).then((3, 1))
    game = start_game(who.alice, who.bob, variant="BP", match_length=3, time_control=TimeControl.live(12, 180))
    tab = tab_for(390, who.alice)
    tab.goto(reverse("backgammon:game", args=[game.pk]) + "?steps=8-5,6-5")
    expect(tab.locator("#game .match-clocks")).to_be_visible()
    tab.get_by_role("button", name="Submit", exact=True).click()
    expect(tab.locator("#game .game__prompt--yours")).to_have_count(0)
    expect(tab).to_have_url(re.compile(rf"/games/{game.pk}/$"))  # the turn's steps left the address
    tab.wait_for_load_state("networkidle")
    expect(tab.locator("[data-push-offer]")).to_be_hidden()


def test_the_worker_shows_a_push_as_the_server_sent_it(
    tab_for: TabMaker, transactional_db: None, live_server: Any
) -> None:
    """A push event delivered to the real worker by DevTools (what the browser does once it has
    decrypted a push): the notification shows the server's title, body and tag, and keeps the
    address on this site's origin for the click."""
    tab = tab_for(1280, cast().alice)
    tab.context.grant_permissions(["notifications"])
    tab.goto("/")
    worker_ready(tab)
    cdp = tab.context.new_cdp_session(tab)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    tab.wait_for_timeout(200)
    [registration] = [r for r in registrations if r["scopeURL"] == f"{live_server.url}/" and not r["isDeleted"]]
    payload = {"title": "Your turn against bob", "body": "Game #5, Backgammon: 2 days left",
               "url": "http://testserver/games/5/?from=push", "tag": "game-5"}
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": live_server.url, "registrationId": registration["registrationId"], "data": json.dumps(payload)})
    tab.wait_for_function("navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((n) => n.length)")
    shown = tab.evaluate("""navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) =>
        list.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))""")
    assert shown == [{"title": "Your turn against bob", "body": "Game #5, Backgammon: 2 days left",
                      "tag": "game-5", "url": f"{live_server.url}/games/5/?from=push"}]
