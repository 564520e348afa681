/* The service worker (served at /sw.js by gamesite/pwa.py, which puts GAMMON, this release's
   configuration, on the line before this one).
   - Static files: kept in the cache and served from it, refreshed from the network meanwhile.
   - Pages: always from the network, never kept (they show a player's games, messages and forms);
     when the network is gone, a navigation gets the offline page instead.
   - Push: shows the notification the server sent ({"title", "body", "url", "tag"}); a click
     focuses an open tab of the site and takes it to that address, or opens a new window; a
     subscription the browser replaced is renewed on the site. */
"use strict";

const CACHE = "gammon-" + GAMMON.version;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([...GAMMON.precache, GAMMON.offline]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function isStatic(url) {
  return url.origin === self.location.origin && url.pathname.startsWith(GAMMON.static);
}

async function fromCacheThenRefresh(event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request);
  const fresh = fetch(event.request).then((response) => {
    if (response.ok && response.type === "basic") {
      return cache.put(event.request, response.clone()).then(() => response);
    }
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => undefined));
    return kept;
  }
  return fresh;
}

async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    const cache = await caches.open(CACHE);
    const page = await cache.match(GAMMON.offline);
    if (page) {
      return page;
    }
    throw offline;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (isStatic(url)) {
    event.respondWith(fromCacheThenRefresh(event));
  } else if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  }
  // Anything else (the live stream, htmx's requests, the API) goes to the network untouched.
});

/* A notification opens an address of this site only, whatever host the server named (its
   SITE_URL may spell the site differently from the address this worker was loaded from). */
function siteAddress(url) {
  try {
    const target = new URL(url, self.location.origin);
    return new URL(target.pathname + target.search + target.hash, self.location.origin).href;
  } catch (bad) {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json();
    } catch (notJson) {
      data = { body: event.data.text() };
    }
  }
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    icon: GAMMON.icon,
    badge: GAMMON.icon,
    data: { url: siteAddress(data.url || "/") },
  };
  if (typeof data.tag === "string" && data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Gammon Turn";
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || siteAddress("/");
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window" });
    for (const tab of tabs) {
      if (new URL(tab.url).origin === self.location.origin) {
        const focused = await tab.focus();
        try {
          await (focused || tab).navigate(url);
          return;
        } catch (notOurs) {
          break; // a tab this worker does not control cannot be sent elsewhere: open a window
        }
      }
    }
    await self.clients.openWindow(url);
  })());
});

/* The browser replaced this worker's push subscription (a push service may expire one): tell the
   site, which knows the device by the old subscription's endpoint and auth secret. */
self.addEventListener("pushsubscriptionchange", (event) => {
  const old = event.oldSubscription;
  if (!old) {
    return; // nothing to prove the device by: the player turns push on again on the notices page
  }
  event.waitUntil((async () => {
    const fresh = event.newSubscription || await self.registration.pushManager.subscribe(old.options);
    await fetch(GAMMON.renew, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ old_endpoint: old.endpoint, old_auth: old.toJSON().keys.auth, subscription: fresh.toJSON() }),
    });
  })());
});
