// The other ways players move checkers, on top of click-to-move (static/js/turn.js):
//
// - drag a checker (mouse, pen or finger, through Pointer Events) and drop it on one of the places
//   marked while it is held; dropped anywhere else it goes back. A press that moves less than
//   THRESHOLD pixels stays a click;
// - double-click moves a checker by the higher die, right-click by the lower one (by the other
//   die when it cannot move by that one); the board keeps no context menu while a move is built;
// - the dice submit a complete move, as the Submit button under the board does (seed 001's
//   "Done"): a click on them, or Enter or Space once focused;
// - keys on a focused checker: H and L (higher and lower die); Space picks it up, the arrow keys
//   choose among its places, Enter or Space drops it there, Escape puts it back.
//
// Every move is played as clicks on turn.js's map (window.gammonTurn), so the board, the steps in
// the address and the posted Submit are what the same clicks make, and the server, which replays
// those steps, stays the judge. Written by hand rather than with a drag-and-drop library: what a
// drop means comes from the click map, not from DOM drop zones (turn.js redraws the board's parts
// at every step), and what is left (pointer capture, a threshold, screen to viewBox coordinates)
// is a few lines; the kept libraries either use mouse and touch events rather than Pointer Events
// (d3-drag), move HTML boxes rather than SVG shapes (draggabilly, dragula, SortableJS, Shopify's),
// or weigh 98 KB minified, twice the site's own scripts, for the same few lines (interact.js).
(function () {
  "use strict";

  var THRESHOLD = 8;  // screen pixels: less than this between press and release is a click
  var SWALLOW_MS = 500;  // how long after a drop the click it may cause (where it ended) is ignored
  var SVG = "http://www.w3.org/2000/svg";
  var KEYS_HINT = "Keys on a checker: Enter moves it by the first die, H by the higher die and L by " +
    "the lower die; Space picks it up, the arrow keys choose where it goes, Enter drops it there and " +
    "Escape puts it back. Once the move is complete, the dice submit it.";

  var held = null;  // the checker being dragged or picked up with the keyboard
  var dropped = null;  // where and when the last drag ended, to ignore the click it may cause
  var firstClick = null;  // a click that moved a checker, until a second one makes it a double-click

  function turnApi() {
    var api = window.gammonTurn;
    return api && api.active() ? api : null;
  }

  function within(target, selector) {
    return target && target.closest ? target.closest(selector) : null;
  }

  function checkerLink(target) {
    return within(target, "#game-main svg.board a.move");
  }

  function make(name, attributes) {
    var element = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    return element;
  }

  // ---- Holding a checker: its places marked, a copy of it following the pointer ----

  function hold(link, pointerId, x, y) {
    return {link: link, origin: Number(link.dataset.origin), svg: link.ownerSVGElement, pointerId: pointerId,
      x: x, y: y, lifted: false, places: [], routes: {}, over: null, layer: null, ghost: null, index: 0};
  }

  function lift(checker) {
    var api = turnApi();
    var geometry = api.geometry();
    checker.lifted = true;
    checker.routes = api.routes(checker.origin);
    // Along the direction of play (24 down to 1), bearing off (0) last.
    checker.places = Object.keys(checker.routes).map(Number).sort(function (a, b) { return b - a; });
    var layer = make("g", {id: "board-drag", "class": "drag-layer"});
    checker.places.forEach(function (place) {
      var area = geometry.places[String(place)];
      layer.appendChild(make("rect", {"class": "drag-target", "data-place": place, x: area[0] + 2, y: area[1] + 2,
        width: area[2] - 4, height: area[3] - 4, rx: 4}));
    });
    checker.ghost = make("use", {"class": "drag-ghost", href: "#ck-mine", width: geometry.diameter,
      height: geometry.diameter, x: -1000, y: -1000});
    layer.appendChild(checker.ghost);
    checker.svg.appendChild(layer);
    checker.layer = layer;
    checker.svg.classList.add("board--dragging");
    var top = topChecker(api, checker.origin);
    if (top) top.classList.add("drag-lifted");
  }

  // The drawn checker on top of the stack at ``place`` (the one a move takes).
  function topChecker(api, place) {
    var slots = api.geometry().slots[place === 25 ? "bar" : String(place)];
    var count = api.count(place);
    if (!slots || !count) return null;
    var slot = slots[Math.min(count, slots.length) - 1];
    var uses = document.querySelectorAll("#board-checkers use");
    for (var i = 0; i < uses.length; i++) {
      if (Number(uses[i].getAttribute("x")) === slot[0] && Number(uses[i].getAttribute("y")) === slot[1]) return uses[i];
    }
    return null;
  }

  function putGhost(checker, x, y) {
    var radius = turnApi().geometry().radius;
    checker.ghost.setAttribute("x", Math.round(x - radius));
    checker.ghost.setAttribute("y", Math.round(y - radius));
  }

  function mark(checker, place) {
    checker.over = place;
    checker.layer.querySelectorAll(".drag-target").forEach(function (target) {
      target.classList.toggle("drag-target--over", Number(target.dataset.place) === place);
    });
  }

  // The pointer's place among the checker's marked ones, in the board's own coordinates.
  function placeUnder(checker, clientX, clientY) {
    var matrix = checker.svg.getScreenCTM();
    if (!matrix) return null;
    var point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    var places = turnApi().geometry().places;
    for (var i = 0; i < checker.places.length; i++) {
      var area = places[String(checker.places[i])];
      if (point.x >= area[0] && point.x <= area[0] + area[2] && point.y >= area[1] && point.y <= area[1] + area[3]) {
        return {place: checker.places[i], x: point.x, y: point.y};
      }
    }
    return {place: null, x: point.x, y: point.y};
  }

  function follow(checker, clientX, clientY) {
    var found = placeUnder(checker, clientX, clientY);
    if (!found) return;
    putGhost(checker, found.x, found.y);
    mark(checker, found.place);
  }

  // Ends the hold: the checker goes to ``place`` (clicks on the map) or, with null, back.
  function drop(checker, place) {
    held = null;
    putBack(checker);
    var api = turnApi();
    if (!api || place === null || place === undefined || !checker.routes[place]) return false;
    api.play(checker.routes[place]);
    return true;
  }

  // The board as it was drawn: no marks, no copy, the checker back in its stack.
  function putBack(checker) {
    if (checker.layer) checker.layer.remove();
    checker.layer = null;
    checker.svg.classList.remove("board--dragging");
    document.querySelectorAll("#board-checkers .drag-lifted").forEach(function (use) {
      use.classList.remove("drag-lifted");
      if (!use.getAttribute("class")) use.removeAttribute("class");  // the board as it was drawn
    });
  }

  // Escape, or a board drawn anew under a held checker: a pointer's hold ends at its release,
  // whose click must not play the checker; a hold by keys ends at once.
  function cancel(checker) {
    putBack(checker);
    if (checker.pointerId !== null && checker.lifted) checker.cancelled = true;
    else held = null;
  }

  // ---- Pointer: mouse, pen and touch alike ----

  document.addEventListener("pointerdown", function (event) {
    if (held || !event.isPrimary || event.button !== 0 || !turnApi()) return;
    var link = checkerLink(event.target);
    if (!link) return;
    held = hold(link, event.pointerId, event.clientX, event.clientY);
    // The checker keeps the pointer wherever it goes, even off the board.
    try { link.setPointerCapture(event.pointerId); } catch (error) { /* a pointer already gone */ }
  });

  document.addEventListener("pointermove", function (event) {
    if (!held || held.pointerId !== event.pointerId || held.cancelled) return;
    if (!held.lifted) {
      if (Math.hypot(event.clientX - held.x, event.clientY - held.y) < THRESHOLD) return;
      lift(held);
    }
    follow(held, event.clientX, event.clientY);
  });

  document.addEventListener("pointerup", function (event) {
    if (!held || held.pointerId !== event.pointerId) return;
    var checker = held;
    if (!checker.lifted) {  // a click: turn.js plays it
      held = null;
      return;
    }
    dropped = {x: event.clientX, y: event.clientY, until: Date.now() + SWALLOW_MS};
    if (checker.cancelled) {
      held = null;
      return;
    }
    var found = placeUnder(checker, event.clientX, event.clientY);
    drop(checker, found ? found.place : null);
  });

  function letGo(event) {
    if (held && held.pointerId === event.pointerId) drop(held, null);
  }
  document.addEventListener("pointercancel", letGo);
  document.addEventListener("lostpointercapture", function (event) {
    // Capture also ends at a normal release, after pointerup has already dropped the checker.
    if (held && held.pointerId === event.pointerId && held.lifted && !held.cancelled) letGo(event);
    else if (held && held.pointerId === event.pointerId) held = null;
  });
  // A finger on a checker drags it rather than scrolling the page. CSS's touch-action is not
  // enough: Chromium honours it on the <svg> box but not on the shapes inside it, and on the whole
  // board it would stop the page scrolling under a finger anywhere on the board. Cancelling the
  // touch's moves (not its start, which would also cancel the tap that clicks) keeps the pointer.
  var guarded = new WeakSet();

  function guard(board) {
    if (guarded.has(board)) return;
    guarded.add(board);
    board.addEventListener("touchmove", function (event) {
      if (held || (turnApi() && checkerLink(event.target))) event.preventDefault();
    }, {passive: false});
  }

  // An SVG link could otherwise start the browser's own drag of its address.
  document.addEventListener("dragstart", function (event) {
    if (checkerLink(event.target)) event.preventDefault();
  });

  // ---- Clicks: the click a drop causes, double-clicks, the dice ----

  // Before turn.js's and htmx's own listeners (which listen on the document).
  window.addEventListener("click", function (event) {
    // A mouse's drag ends with a click on the checker it took; a finger's short one with a tap.
    var drag = dropped;
    dropped = null;
    if (drag && Date.now() < drag.until && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) <= THRESHOLD) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    var api = turnApi();
    if (!api) return;
    var link = checkerLink(event.target);
    if (event.detail >= 2 && firstClick && within(event.target, "#game-main svg.board")) {
      // The second click of a double-click: the dblclick that follows decides.
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    var plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    firstClick = link && plain && event.detail === 1 ? {origin: Number(link.dataset.origin), made: api.made()} : null;
  }, true);

  document.addEventListener("dblclick", function (event) {
    var first = firstClick;
    firstClick = null;
    var api = turnApi();
    if (!api || !first || !within(event.target, "#game-main svg.board")) return;
    event.preventDefault();
    // The first click has moved the checker by the first die; the double-click means the higher.
    api.undoTo(first.made);
    api.play(api.byDie(first.origin, true));
  });

  document.addEventListener("contextmenu", function (event) {
    if (!turnApi() || !within(event.target, "#game-main svg.board")) return;
    event.preventDefault();
    // A long press of a finger, or a press held while dragging, is not a right-click.
    if (held || event.pointerType === "touch") return;
    var link = checkerLink(event.target);
    if (link) moveByDie(link, false, false);
  });

  function moveByDie(link, higher, byKey) {
    var api = turnApi();
    var origin = Number(link.dataset.origin);
    var plan = api.byDie(origin, higher);
    if (!plan) return;
    api.play(plan);
    if (byKey) refocus([plan.destination, origin]);
  }

  // What Submit is under the board now: the button of the finished move's form, or the link to
  // the step that confirms it; none while the move is not complete.
  function submitControl() {
    var slot = document.getElementById("turn-submit-slot");
    if (!slot) return null;
    return slot.querySelector("a[data-turn=confirm]") || slot.querySelector("form button[type=submit]:not([name])");
  }

  function submitByDice(event) {
    var submit = submitControl();
    if (!submit) return;
    event.preventDefault();
    submit.click();
  }

  document.addEventListener("click", function (event) {
    if (within(event.target, "#game-main #board-dice-mine")) submitByDice(event);
  });

  // ---- Keys ----

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (held) {
      if (!held.cancelled) heldKey(event);
      return;
    }
    if (within(event.target, "#game-main #board-dice-mine") && (event.key === "Enter" || event.key === " ")) {
      submitByDice(event);
      return;
    }
    var link = checkerLink(event.target);
    if (!link || !turnApi()) return;
    var key = event.key.toLowerCase();
    if (key === "h" || key === "l") {
      event.preventDefault();
      moveByDie(link, key === "h", true);
    } else if (event.key === " ") {
      event.preventDefault();
      pickUp(link);
    }
  });

  function pickUp(link) {
    var checker = held = hold(link, null, 0, 0);
    lift(checker);
    choose(checker, 0);
    var names = checker.places.map(placeName);
    announce("Holding the checker on " + placeName(checker.origin) + ". It can go to " + names.join(", ") +
      ": the arrow keys choose, Enter drops it, Escape puts it back.");
  }

  function choose(checker, index) {
    var count = checker.places.length;
    checker.index = (index + count) % count;
    var place = checker.places[checker.index];
    mark(checker, place);
    var api = turnApi();
    var geometry = api.geometry();
    var area = geometry.places[String(place)];
    var slots = geometry.slots[String(place)];
    if (place >= 1 && place <= 24 && slots) {
      var slot = slots[Math.min(api.count(place) + 1, slots.length) - 1];
      putGhost(checker, slot[0] + geometry.radius, slot[1] + geometry.radius);
    } else {
      putGhost(checker, area[0] + area[2] / 2, area[1] + area[3] / 2);
    }
  }

  function heldKey(event) {
    var checker = held;
    if (event.key === "Escape") {
      event.preventDefault();
      cancel(checker);
      if (checker.pointerId === null) {
        checker.link.focus();
        announce("The checker is back on " + placeName(checker.origin) + ".");
      }
      return;
    }
    if (checker.pointerId !== null) return;  // a pointer holds it: keys wait
    if (event.key === "Tab") {
      drop(checker, null);
      return;
    }
    var step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
    if (step) {
      event.preventDefault();
      choose(checker, checker.index + step);
      announce(placeName(checker.over));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      var place = checker.over;
      drop(checker, place);
      refocus([place, checker.origin]);
    }
  }

  function placeName(place) {
    return place === 0 ? "off the board" : place === 25 ? "the bar" : String(place);
  }

  // After a move made by keys the board is drawn anew: focus the moved checker if it can go on,
  // else the one it left, else any checker, else the dice once they submit.
  function refocus(places) {
    var board = document.querySelector("#game-main svg.board");
    if (!board) return;
    for (var i = 0; i < places.length; i++) {
      var link = board.querySelector('a.move[data-origin="' + places[i] + '"]');
      if (link) return link.focus();
    }
    var target = board.querySelector("a.move") || board.querySelector("#board-dice-mine[role=button]");
    if (target) target.focus();
  }

  function announce(text) {
    var region = document.getElementById("turn-announce");
    if (!region) {
      region = document.createElement("p");
      region.id = "turn-announce";
      region.className = "visually-hidden";
      region.setAttribute("aria-live", "assertive");
      document.body.appendChild(region);
    }
    region.textContent = text;
  }

  // ---- After each drawing: the dice as a button when they submit, the keys described ----

  function dress() {
    if (held) cancel(held);  // the board under it was drawn anew
    var dice = document.getElementById("board-dice-mine");
    if (dice) {
      if (submitControl() && dice.children.length) {
        dice.setAttribute("role", "button");
        dice.setAttribute("tabindex", "0");
        dice.setAttribute("aria-label", "Submit the move (the dice)");
        dice.classList.add("dice-submit");
      } else {
        ["role", "tabindex", "aria-label"].forEach(function (name) { dice.removeAttribute(name); });
        dice.classList.remove("dice-submit");
      }
    }
    var board = document.querySelector("#game-main .game__board");
    if (!board || !turnApi()) return;
    var svg = board.querySelector("svg.board");
    if (svg) guard(svg);
    if (!document.getElementById("turn-keys")) {
      var hint = document.createElement("p");
      hint.id = "turn-keys";
      hint.className = "visually-hidden";
      hint.textContent = KEYS_HINT;
      board.after(hint);
    }
    board.querySelectorAll("a.move").forEach(function (link) { link.setAttribute("aria-describedby", "turn-keys"); });
  }

  document.addEventListener("turn:drawn", dress);
})();
