// Live updates: the server pushes an event when something on this page changed (htmx's SSE
// extension, connected from <body sse-connect>): the game region itself when the opponent moved,
// the menu counts when they changed; otherwise the regions concerned ask for their fresh content
// (the game region, the Game status lists and the main screen with hx-trigger="sse:status", and
// the regions of a topic, data-live-topic, on a "changed" event: see onChanged).
//
// When push is unavailable (the stream refused or dropped, Redis down, or a proxy buffering it so
// its "hello" never arrives) this script polls those regions instead, every 2 s at first and
// twice as long each time up to 30 s, back to 2 s whenever a poll finds a change; the extension
// keeps trying to reconnect, and once the stream's "hello" arrives the polling stops.
(function () {
  "use strict";
  var body = document.body;

  // A game region pushed to this page was drawn with no request to take a CSRF token from
  // (backgammon/game_region.pushed_region): htmx's forms send the page's token in a header
  // (hx-headers on <body>), but a plain form in it (Rematch, privacy, more time) would be refused.
  // Such a form takes the page's token as it is sent.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    if (form.querySelector('input[name="csrfmiddlewaretoken"]')) return;
    var token = "";
    try { token = JSON.parse(body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (error) { token = ""; }
    if (!token) return;
    var field = document.createElement("input");
    field.type = "hidden";
    field.name = "csrfmiddlewaretoken";
    field.value = token;
    form.appendChild(field);
  }, true);

  if (!body.hasAttribute("sse-connect") || typeof htmx === "undefined") return;

  var FIRST_MS = 2000;
  var LONGEST_MS = 30000;
  var HELLO_WITHIN_MS = 5000;
  var POLLED = '[hx-trigger*="live:poll"]';
  var delay = FIRST_MS;
  var timer = null;
  var live = false;
  var everLive = false;
  var safetyTimer = null;

  function pollAll() {
    document.querySelectorAll(POLLED).forEach(function (region) {
      htmx.trigger(region, "live:poll");
    });
  }

  function nextPoll() {
    timer = window.setTimeout(function () {
      pollAll();
      delay = Math.min(delay * 2, LONGEST_MS);
      nextPoll();
    }, delay);
  }

  function startPolling() {
    live = false;
    body.dataset.live = "polling";
    if (timer === null) {
      delay = FIRST_MS;
      nextPoll();
    }
  }

  function stopPolling() {
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
  }

  function onHello(event) {
    stopPolling();
    // Catch up with what changed before this stream listened: since the page was built, or
    // while push was away (the regions answer 204, a cheap no, when nothing did).
    pollAll();
    live = everLive = true;
    body.dataset.live = "push";
    // The in-memory layer of a development server does not hear the task worker: look now and then.
    var poll = 0;
    try { poll = JSON.parse(event.data).poll || 0; } catch (error) { poll = 0; }
    if (safetyTimer !== null) window.clearInterval(safetyTimer);
    safetyTimer = poll > 0 ? window.setInterval(pollAll, poll * 1000) : null;
  }

  body.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail.source;
    source.addEventListener("hello", onHello);
    source.addEventListener("game", onGame);
    source.addEventListener("status", onStatus);
    source.addEventListener("changed", onChanged);
    source.addEventListener("private", onPrivate);
    source.addEventListener("presence", onPresence);
    // Connected but no hello: something between us buffers the stream, so poll meanwhile.
    window.setTimeout(function () {
      if (!live && source.readyState === EventSource.OPEN) startPolling();
    }, HELLO_WITHIN_MS);
  });
  body.addEventListener("htmx:sseError", startPolling);

  // A poll that found a change: the other player is active, so look again soon.
  body.addEventListener("htmx:afterSwap", function () {
    if (timer !== null && delay > FIRST_MS) {
      stopPolling();
      delay = FIRST_MS;
      nextPoll();
    }
  });

  function readData(event) {
    try { return JSON.parse(event.data) || {}; } catch (error) { return {}; }
  }

  // A "status" event: the player's menu counts, as /menu-counts/ would answer them ("counts":
  // the PLAY badge and the TALK badges out of band), or, when it came without them, the badge
  // asks. The Game status lists listen for it themselves (hx-trigger="sse:status").
  function onStatus(event) {
    var badge = document.getElementById("play-badge");
    if (!badge) return;
    var data = readData(event);
    if (typeof data.counts === "string") {
      htmx.swap(badge, data.counts, {swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0});
    } else {
      htmx.trigger(badge, "live:poll");
    }
  }

  // A "changed" event names a topic of the page ({"topic": "lobby", "spread": 1000}): the regions
  // showing it (data-live-topic) ask their own view. Many pages may show one topic, so each asks
  // at a random moment within the spread, and at most once per spread however many changes come
  // meanwhile: a request already planned will show them too.
  var planned = {};
  var askedAt = {};
  function onChanged(event) {
    var data = readData(event);
    var topic = typeof data.topic === "string" ? data.topic : "";
    if (!topic || planned[topic]) return;
    var regions = document.querySelectorAll('[data-live-topic="' + topic + '"]');
    if (!regions.length) return;
    var spread = Math.min(Math.max(Number(data.spread) || 0, 0), 60000);
    var wait = Math.random() * spread;
    var since = Date.now() - (askedAt[topic] || 0);
    if (since + wait < spread) wait = spread - since;
    planned[topic] = window.setTimeout(function () {
      delete planned[topic];
      askedAt[topic] = Date.now();
      document.querySelectorAll('[data-live-topic="' + topic + '"]').forEach(function (region) {
        htmx.trigger(region, "live:changed");
      });
    }, wait);
  }

  // A "game" event tells of a game's action count now ({"g": 12, "n": 57}), with the game
  // region itself when it is the opponent's move on this player's page ("html"), or, when the
  // opponent only rolled, what the roll changes on it ("roll": see putRoll). A
  // page of another game, or one already showing that many actions (the mover's own, whose
  // answer is the fresh region), does nothing; otherwise the page asks for the region.
  // The event usually comes before the answer to a move of this page's own, so while a request
  // of the game region is under way the news waits for it, and is then weighed against the
  // region that request brought.
  var gameRequests = 0;
  var held = null;
  function gameRegion() {
    return document.getElementById("game-poll");
  }
  function onGame(event) {
    var news = readData(event);
    var region = gameRegion();
    if (news.live_turn && !(region && String(news.g) === region.dataset.game)) showLiveTurn(news.live_turn);
    if (!region || String(news.g) !== region.dataset.game || !(Number(news.n) > 0)) return;
    if (gameRequests > 0) {
      if (held === null || Number(news.n) >= Number(held.n)) held = news;
      return;
    }
    apply(news);
  }
  function apply(news) {
    var region = gameRegion();
    if (!region || Number(news.n) <= Number(region.dataset.number)) return;
    var game = document.getElementById("game");
    if (typeof news.html === "string" && game) {
      htmx.swap(game, news.html, {swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0});
      return;
    }
    if (news.roll && game && putRoll(game, region, news)) return;
    // The region's request then says what it heard of (?heard=N): the server reads the game
    // once, whole, rather than first asking whether it changed.
    region.dataset.heard = String(news.n);
    htmx.trigger(region, "live:poll");
  }
  // A live match's decision came to this player ({"url": "/games/12/", "against": "bob"}) while
  // this page is not the match's: their clock runs, so the page says so at its foot
  // (templates/partials/live_turn.html), with the way back, until they go or put it off (the
  // match's own page shows the turn itself).
  var liveTurn = document.getElementById("live-turn");
  if (liveTurn) {
    liveTurn.querySelector("[data-live-turn-later]").addEventListener("click", function () { liveTurn.hidden = true; });
  }
  function showLiveTurn(turn) {
    var url = typeof turn.url === "string" ? turn.url : "";
    if (!liveTurn || url.charAt(0) !== "/" || url.charAt(1) === "/" || typeof turn.against !== "string") return;
    liveTurn.querySelector("[data-live-turn-against]").textContent = turn.against;
    liveTurn.querySelector("[data-live-turn-go]").setAttribute("href", url);
    liveTurn.hidden = false;
  }
  // The opponent's roll ({"dice": {"mine", "theirs"}, "prompt", "clock", "time_left",
  // "match_id"}: drawn by the server as the region draws them, backgammon/game_region.pushed_roll),
  // put in place on a page waiting for that roll: one showing the action just before it. A live
  // game's page takes the clocks' reading, a correspondence game's the time its opponent now has
  // left (the roll started it afresh). Any other page asks.
  function putRoll(game, region, news) {
    var roll = news.roll;
    var prompt = game.querySelector(".game__prompt");
    var clocks = game.querySelector("[data-match-clock]");
    var timeLeft = document.getElementById("time-left");
    var matchId = document.getElementById("match-id");
    var mine = document.getElementById("board-dice-mine");
    var theirs = document.getElementById("board-dice-theirs");
    if (Number(news.n) !== Number(region.dataset.number) + 1 || !game.classList.contains("game--roll") ||
        !prompt || !matchId || !mine || !theirs || !roll.dice || !clocks !== !roll.clock ||
        !timeLeft !== !roll.time_left) {
      return false;
    }
    // Set inside the board's own <svg>, the markup is read as SVG.
    mine.innerHTML = roll.dice.mine || "";
    theirs.innerHTML = roll.dice.theirs || "";
    prompt.textContent = roll.prompt || "";
    game.classList.replace("game--roll", "game--move");
    var main = document.getElementById("game-main");
    if (main) main.dataset.phase = "move";
    matchId.textContent = roll.match_id || "";
    if (timeLeft) timeLeft.textContent = roll.time_left;
    region.dataset.number = String(news.n);
    if (clocks) {
      clocks.setAttribute("data-match-clock", JSON.stringify(roll.clock));
      body.dispatchEvent(new CustomEvent("live:clocks"));  // static/js/match_clock.js reads them again
    }
    return true;
  }
  // The region's class names the phase it shows (putRoll reads it). A roll's answer is the
  // region's main column (backgammon/views/game.py), which says its phase: the class follows it.
  body.addEventListener("htmx:afterSwap", function () {
    var game = document.getElementById("game");
    var main = document.getElementById("game-main");
    if (!game || !main || !main.dataset.phase) return;
    Array.prototype.slice.call(game.classList).forEach(function (name) {
      if (name.indexOf("game--") === 0 && name !== "game--" + main.dataset.phase) game.classList.remove(name);
    });
    game.classList.add("game--" + main.dataset.phase);
  });
  // A "presence" event ({"g": 12, "here": true}): the opponent of this live game opened or left
  // its page. The line under the clocks says so (the next region reads it afresh anyway).
  function onPresence(event) {
    var data = readData(event);
    var line = document.getElementById("opponent-presence");
    if (!line || String(data.g) !== line.dataset.game) return;
    line.textContent = line.dataset.name + (data.here ? " is here" : " is away");
    line.classList.toggle("match-clock__presence--away", !data.here);
  }
  // A "private" event ({"g": 12}): a player made the game this page watches private. The
  // stream ends with it, and the page, asked again, says the game is private.
  function onPrivate(event) {
    var region = gameRegion();
    if (region && String(readData(event).g) === region.dataset.game) window.location.reload();
  }
  body.addEventListener("htmx:configRequest", function (event) {
    var region = event.detail.elt;
    if (!region || region.id !== "game-poll" || !region.dataset.heard) return;
    event.detail.parameters.heard = region.dataset.heard;
    delete region.dataset.heard;
  });
  // A poll of the region asked for while an action of this page is under way (the stream's
  // hello, a timer) waits for it, and then goes from the region its answer left: a roll's answer
  // puts #game-poll in anew, out of band, and a poll sent from the one it replaced came back as a
  // second game region on the page.
  var actions = 0;
  var pollAfterAction = false;
  body.addEventListener("live:poll", function (event) {
    if (actions === 0 || !event.target || event.target.id !== "game-poll") return;
    event.stopImmediatePropagation();
    pollAfterAction = true;
  }, true);
  body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!event.detail.xhr || !elt.closest || !elt.closest("#game")) return;
    var action = elt.id !== "game-poll";
    gameRequests += 1;
    if (action) actions += 1;
    event.detail.xhr.addEventListener("loadend", function () {
      gameRequests -= 1;
      if (action) actions -= 1;
      if (actions === 0 && pollAfterAction) {
        pollAfterAction = false;
        var fresh = gameRegion();
        if (fresh) htmx.trigger(fresh, "live:poll");
      }
      if (gameRequests > 0 || held === null) return;
      var news = held;
      held = null;
      apply(news);
    });
  });

  // A region drops an event that comes while its own request is under way (hx-sync), yet that
  // request's answer may predate the change the event tells of: ask once more when it is done.
  // By id and by the request's own end, because an outerHTML swap replaces the region first
  // (and htmx then tells a detached region's afterRequest to an ancestor, under its name).
  var asking = {};
  var askAgain = {};
  function heard(event) {
    var region = event.target;
    if (region && region.id && asking[region.id]) askAgain[region.id] = true;
  }
  // Capturing, so this hears the event before htmx starts the region's next request on it.
  ["sse:status", "live:poll", "live:changed"].forEach(function (name) {
    body.addEventListener(name, heard, true);
  });
  body.addEventListener("htmx:beforeRequest", function (event) {
    var region = event.detail.elt;
    if (!region.id || !region.matches(POLLED) || !event.detail.xhr) return;
    var id = region.id;
    asking[id] = true;
    event.detail.xhr.addEventListener("loadend", function () {
      delete asking[id];
      if (!askAgain[id]) return;
      delete askAgain[id];
      var fresh = document.getElementById(id);
      if (fresh) htmx.trigger(fresh, "live:poll");
    });
  });

  // No answer at all yet (a stalled connection): do not leave the page waiting forever.
  window.setTimeout(function () {
    if (!live && !everLive) startPolling();
  }, HELLO_WITHIN_MS);
})();
