/* Turning on push notifications for this device: on the notices page ([data-push-panel]) and in
   the game page's one offer ([data-push-offer]), which shows after the player's first move there
   (never on first load) unless push is already on here, blocked, or the offer was dismissed.

   Both ask the browser for a push subscription with the site's VAPID key (data-push-key) through
   the service worker (js/pwa.js registers it) and post its toJSON() and a name for the device to
   data-push-url, which keeps it through the same service as the API's POST
   /api/v1/push/subscriptions (201, or 422 with {"detail"}). */
(function () {
  "use strict";
  var DISMISSED = "gammon-push-offer-dismissed";
  var MOVED = "gammon-moved";
  var supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function keyBytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    base64 += "===".slice((base64.length + 3) % 4);
    var raw = atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  function sameKey(subscription, key) {
    var current = subscription.options && subscription.options.applicationServerKey;
    if (!current) {
      return true;
    }
    var a = new Uint8Array(current);
    var b = keyBytes(key);
    return a.length === b.length && a.every(function (value, i) { return value === b[i]; });
  }

  function deviceName() {
    var agent = navigator.userAgent;
    var browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox"
      : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "Browser";
    var system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS"
      : /Windows/.test(agent) ? "Windows" : /Mac OS X/.test(agent) ? "macOS"
      : /CrOS/.test(agent) ? "ChromeOS" : /Linux/.test(agent) ? "Linux" : "";
    return system ? browser + " on " + system : browser;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (notJson) {
      return "";
    }
  }

  function currentSubscription() {
    return navigator.serviceWorker.getRegistration("/").then(function (registration) {
      return registration ? registration.pushManager.getSubscription() : null;
    });
  }

  /* Ask permission, subscribe (again, if the site's key changed) and tell the site. */
  function turnOn(box) {
    var key = box.getAttribute("data-push-key");
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        throw new Error(permission === "denied"
          ? "Notifications are blocked for this site: allow them in the browser's site settings."
          : "Notifications were not allowed.");
      }
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        if (existing && sameKey(existing, key)) {
          return existing;
        }
        var old = existing ? existing.unsubscribe() : Promise.resolve();
        return old.then(function () {
          return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
        });
      });
    }).then(function (subscription) {
      var body = subscription.toJSON();
      body.name = deviceName();
      return fetch(box.getAttribute("data-push-url"), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(body),
      });
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (response.status !== 201) {
          throw new Error(answer.detail || "The site could not keep this device (" + response.status + ").");
        }
        return answer;
      });
    });
  }

  function say(box, text) {
    var status = box.querySelector("[data-push-status]");
    if (status) {
      status.textContent = text;
    }
  }

  function setUpPanel(panel) {
    if (!supported) {
      return;
    }
    panel.querySelector("[data-push-unsupported]").hidden = true;
    panel.querySelector("[data-push-controls]").hidden = false;
    currentSubscription().then(function (subscription) {
      if (!subscription) {
        return;
      }
      document.querySelectorAll("[data-push-endpoint]").forEach(function (row) {
        if (row.getAttribute("data-push-endpoint") === subscription.endpoint) {
          row.querySelector("[data-push-this-device]").hidden = false;
          say(panel, "This device has notifications on.");
        }
      });
    }).catch(function () { return undefined; });
    panel.querySelector("[data-push-on]").addEventListener("click", function (event) {
      event.currentTarget.disabled = true;
      say(panel, "Asking the browser…");
      turnOn(panel).then(function () {
        window.location.reload();
      }).catch(function (problem) {
        say(panel, problem.message);
        panel.querySelector("[data-push-on]").disabled = false;
      });
    });
  }

  function setUpOffer(offer) {
    if (!supported || Notification.permission === "denied") {
      return;
    }
    try {
      if (window.localStorage.getItem(DISMISSED)) {
        return;
      }
    } catch (noStorage) {
      return;
    }
    /* Where the player last submitted a move in this tab ("" if nowhere). */
    function movedOn() {
      try {
        return window.sessionStorage.getItem(MOVED) || "";
      } catch (noStorage) {
        return "";
      }
    }
    /* The offer is for the wait after a move: it never stands over the buttons of a turn to take. */
    function yourTurn() {
      return !!document.querySelector("#game .game__prompt--yours");
    }
    /* Nor over a live match's board (its clocks show): the opponent's move arrives within
       seconds, in sight, and a player at the board has no use for a notification of it. */
    function liveMatch() {
      return !!document.querySelector("#game .match-clocks");
    }
    function maybeShow() {
      var where = movedOn();
      if (!offer.hidden || offer.getAttribute("data-push-done") || !where || yourTurn() || liveMatch()) {
        return;
      }
      /* Only the answer of a move made on this very page (htmx's, or a plain post's), once. */
      if (where !== window.location.pathname) {
        return;
      }
      window.sessionStorage.removeItem(MOVED);
      currentSubscription().then(function (subscription) {
        if (!subscription || Notification.permission !== "granted") {
          offer.hidden = false;
        }
      }).catch(function () { return undefined; });
    }
    /* A move is a play form's submission (htmx's request or a plain post): the offer shows with
       its answer, never when a page is first opened. */
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (form && form.querySelector && form.querySelector('input[name="kind"][value="play"]')) {
        try {
          window.sessionStorage.setItem(MOVED, window.location.pathname);
        } catch (noStorage) { /* no offer then */ }
      }
    }, true);
    document.body.addEventListener("htmx:afterSettle", function () {
      /* The opponent has moved (a pushed region): out of the way until the player's next move. */
      if (!offer.hidden && !offer.getAttribute("data-push-done") && yourTurn()) {
        offer.hidden = true;
      }
      maybeShow();
    });
    maybeShow();
    offer.querySelector("[data-push-dismiss]").addEventListener("click", function () {
      try {
        window.localStorage.setItem(DISMISSED, "1");
      } catch (noStorage) { /* shown again next time */ }
      offer.hidden = true;
    });
    offer.querySelector("[data-push-on]").addEventListener("click", function (event) {
      event.currentTarget.disabled = true;
      say(offer, "Asking the browser…");
      turnOn(offer).then(function (device) {
        offer.setAttribute("data-push-done", "1");
        offer.querySelector("[data-push-controls]").hidden = true;
        say(offer, "Notifications are on for " + device.name + ". Change them under Account → Notices.");
      }).catch(function (problem) {
        say(offer, problem.message);
        offer.querySelector("[data-push-on]").disabled = false;
      });
    });
  }

  document.querySelectorAll("[data-push-panel]").forEach(setUpPanel);
  document.querySelectorAll("[data-push-offer]").forEach(setUpOffer);
})();
