// Click-to-move in the page: the turn is built here, without asking the server at each click.
//
// The game page of a player who has a move to make carries the turn's click map (#turn-map,
// backgammon/game_page.py): every partial turn the clicks can reach, which checker each click
// moves where, and where the board draws what a click changes. A click on a checker, "swap dice",
// "undo" or "start the turn again" then redraws those parts of the board, the prompt, the links
// and the Submit form here, as the server would draw them for the same steps
// (backgammon/board_markup.py; tests/e2e/test_turn_e2e.py compares the two), and keeps the steps
// in the address, so a reload shows the same turn. Submit posts the steps as before. Without this
// script, or without a map, the same links ask the server.
//
// static/js/drag.js (drag-and-drop, double- and right-click, keys) moves checkers through
// window.gammonTurn below: every way of moving is a sequence of the same clicks on the same map,
// so the steps in the address and the server's replay of them stay what clicks would make.
(function () {
  "use strict";

  var turn = null;

  function escape(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }

  function start() {
    load();
    drawn();
  }

  // Tells drag.js that the board was drawn (or the region swapped in) so it can dress the dice.
  function drawn() {
    document.dispatchEvent(new CustomEvent("turn:drawn"));
  }

  function load() {
    var data = document.getElementById("turn-map");
    // Another part of the page was swapped (the private note, the menu counts): the turn built
    // here goes on, rather than going back to the steps the page was served with.
    if (turn && data && turn.source === data) return;
    turn = null;
    if (!data) return;
    var map;
    try { map = JSON.parse(data.textContent); } catch (error) { return; }
    var position = {mine: map.mine.slice(), theirs: map.theirs.slice(), off: map.off.slice()};
    var node = map.roots[map.swap ? 1 : 0];
    var path = [];
    for (var i = 0; i < map.steps.length; i++) {
      var origin = map.steps[i][0];
      var lead = map.nodes[node][3][String(origin)];
      if (!lead || lead[1] !== map.steps[i][1]) return;  // not a path of the map: the links ask the server
      path.push({node: node, origin: origin, destination: lead[1], position: position});
      position = moved(position, origin, lead[1]);
      node = lead[2];
    }
    turn = {map: map, swap: map.swap, node: node, path: path, position: position, source: data};
  }

  // The position after one checker moves (a blot where it lands goes to the bar).
  function moved(position, origin, destination) {
    var next = {mine: position.mine.slice(), theirs: position.theirs.slice(), off: position.off.slice()};
    next.mine[origin - 1] -= 1;
    if (destination === 0) {
      next.off[0] += 1;
    } else {
      next.mine[destination - 1] += 1;
      if (next.theirs[destination - 1] === 1) {
        next.theirs[destination - 1] = 0;
        next.theirs[24] += 1;
      }
    }
    return next;
  }

  function root() {
    return turn.map.roots[turn.swap ? 1 : 0];
  }

  function stepsText(steps) {
    var names = {0: "off", 25: "bar"};
    return steps.map(function (step) {
      return (names[step[0]] || step[0]) + "-" + (names[step[1]] || step[1]);
    }).join(",");
  }

  function madeSteps() {
    return turn.path.map(function (made) { return [made.origin, made.destination]; });
  }

  function link(steps, swap) {
    var query = new URLSearchParams();
    if (steps.length) query.set("steps", stepsText(steps));
    if (swap) query.set("swap", "1");
    var text = query.toString();
    return turn.map.base + (text ? "?" + text : "");
  }

  // What a click on each kind of link does to the turn.
  var act = {
    move: function (origin) {
      var lead = turn.map.nodes[turn.node][3][String(origin)];
      if (!lead) return false;
      turn.path.push({node: turn.node, origin: origin, destination: lead[1], position: turn.position});
      turn.position = moved(turn.position, origin, lead[1]);
      turn.node = lead[2];
      return true;
    },
    undo: function () {
      var last = turn.path.pop();
      if (!last) return false;
      turn.node = last.node;
      turn.position = last.position;
      return true;
    },
    reset: function () {
      while (turn.path.length) turn.position = turn.path.pop().position;
      turn.node = root();
      return true;
    },
    swap: function () {
      if (turn.path.length || turn.map.dice[0] === turn.map.dice[1]) return false;
      turn.swap = !turn.swap;
      turn.node = root();
      return true;
    }
  };

  document.addEventListener("click", function (event) {
    if (!turn || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey || !event.target.closest) return;
    var clicked = event.target.closest("#game-main a.move, #game-main a[data-turn]");
    if (!clicked) return;
    var kind = clicked.classList.contains("move") ? "move" : clicked.dataset.turn;
    if (!act[kind]) return;  // Refresh, or the step confirming a move: the server's
    // Before htmx, which would ask the server for the same thing.
    event.preventDefault();
    event.stopPropagation();
    if (act[kind](Number(clicked.dataset.origin))) draw();
  }, true);

  // Where a checker can go from ``origin`` by clicks: destination -> {swap, origins, dice}, the
  // clicks (on origin, then on each point it passes) that take it there, in the dice order shown
  // or, before the first step, the other order ("swap dice"). Fewest clicks first, then the order
  // shown: only a bear-off can be reached both by one die and by two.
  function routes(origin) {
    var found = {};
    trees().forEach(function (swap) {
      var node = swap === turn.swap ? turn.node : turn.map.roots[swap ? 1 : 0];
      var point = origin;
      var origins = [];
      var dice = [];
      for (;;) {
        var lead = turn.map.nodes[node][3][String(point)];
        if (!lead) break;
        origins.push(point);
        dice.push(lead[0]);
        point = lead[1];
        node = lead[2];
        var known = found[point];
        if (!known || known.origins.length > origins.length) {
          found[point] = {swap: swap, origins: origins.slice(), dice: dice.slice(), destination: point};
        }
        if (point === 0) break;
      }
    });
    return found;
  }

  // The dice orders a first click may use: the one shown, and the other one before any step.
  function trees() {
    var orders = [turn.swap];
    if (!turn.path.length && turn.map.dice[0] !== turn.map.dice[1]) orders.push(!turn.swap);
    return orders;
  }

  // One step of the checker on ``origin`` by the higher die (or the lower), or by the other
  // die when it cannot move by that one; null when it cannot move.
  function byDie(origin, higher) {
    var options = [];
    trees().forEach(function (swap) {
      var node = swap === turn.swap ? turn.node : turn.map.roots[swap ? 1 : 0];
      var lead = turn.map.nodes[node][3][String(origin)];
      if (lead) options.push({swap: swap, origins: [origin], dice: [lead[0]], destination: lead[1]});
    });
    options.sort(function (a, b) { return higher ? b.dice[0] - a.dice[0] : a.dice[0] - b.dice[0]; });
    return options.length ? options[0] : null;
  }

  // The clicks of ``plan`` (from routes or byDie), drawn once; with no plan, just the drawing.
  function play(plan) {
    if (plan && (plan.swap === turn.swap || act.swap())) {
      for (var i = 0; i < plan.origins.length && act.move(plan.origins[i]); i++) { /* each click in turn */ }
    }
    draw();
  }

  // Takes back steps, without drawing, until ``count`` are left (a double-click's first click).
  function undoTo(count) {
    while (turn.path.length > count && act.undo()) { /* one step at a time */ }
  }

  window.gammonTurn = {
    active: function () { return turn !== null; },
    made: function () { return turn.path.length; },
    routes: routes,
    byDie: byDie,
    play: play,
    undoTo: undoTo,
    geometry: function () { return turn.map.geometry; },
    // Checkers of the viewer's on a place: 1-24, or 25 for the bar.
    count: function (place) { return turn.position.mine[place - 1]; }
  };

  document.addEventListener("DOMContentLoaded", start);
  // A region swapped in (an action's answer, a pushed update, a click the server answered).
  document.addEventListener("htmx:afterSwap", start);

  // Drawing: the same markup as backgammon/board_markup.py writes for these parts.
  function draw() {
    var map = turn.map;
    var node = map.nodes[turn.node];
    var main = document.getElementById("game-main");
    if (!main) return;
    var steps = madeSteps();
    main.querySelectorAll(":scope > .game__alert").forEach(function (alert) { alert.remove(); });
    // A refused action's reason goes with the player's next click, as the page the server draws
    // for that click has none (the click is an answer to it: the turn is being built again).
    var alerts = document.getElementById("game-alerts");
    if (alerts) alerts.replaceChildren();
    var prompt = main.querySelector(".game__prompt");
    if (prompt) prompt.textContent = map.prompts[node[2]];
    fill("board-steps", outlines(steps));
    fill("board-slabs", slabs());
    fill("board-checkers", checkers());
    fill("board-texts", labels());
    fill("board-dice-mine", dice(node[1]));
    fill("board-moves", moves(node, steps));
    var desc = document.getElementById("board-desc");
    if (desc) desc.textContent = describe();
    var links = main.querySelector(".controls__links");
    if (links) links.innerHTML = controlLinks(steps);
    submitSlot(node, steps);
    var self = link(steps, turn.swap);
    main.querySelectorAll("a[data-turn=self]").forEach(function (refresh) { refresh.setAttribute("href", self); });
    window.history.replaceState(window.history.state, "", self);
    if (typeof htmx !== "undefined") htmx.process(main);
    drawn();
  }

  function fill(id, markup) {
    var group = document.getElementById(id);
    if (group) group.innerHTML = markup;
  }

  function rect(kind, place) {
    var area = turn.map.geometry.places[String(place)];
    return [area[0] + 2, area[1] + 2, area[2] - 4, area[3] - 4, kind];
  }

  function outlines(steps) {
    var marks = steps.map(function (step) { return rect("to", step[1]); })
      .concat(steps.map(function (step) { return rect("from", step[0]); }));
    return marks.map(function (mark) {
      var dashes = mark[4] === "from" ? ' stroke-dasharray="6 5"' : "";
      return '<rect class="outline-step outline-' + mark[4] + '" x="' + mark[0] + '" y="' + mark[1] +
        '" width="' + mark[2] + '" height="' + mark[3] + '" fill="none" stroke="#e8312a" stroke-width="3" rx="4"' +
        dashes + "/>\n";
    }).join("");
  }

  function slabs() {
    var slab = turn.map.geometry.slab;
    var colours = turn.map.colours;
    var out = "";
    [["mine", turn.position.off[0]], ["theirs", turn.position.off[1]]].forEach(function (side) {
      var mine = side[0] === "mine";
      for (var i = 0; i < side[1]; i++) {
        out += '<rect class="slab" x="' + slab.x + '" y="' + slab[side[0]][i] + '" width="' + slab.width +
          '" height="' + slab.height + '" rx="3" fill="' + escape(mine ? colours.mine : colours.theirs) +
          '" stroke="' + escape(mine ? colours.mineRim : colours.theirsRim) + '"/>\n';
      }
    });
    return out;
  }

  function stack(slots, count, symbol) {
    var geometry = turn.map.geometry;
    var colours = turn.map.colours;
    var shown = Math.min(count, slots.length);
    var out = "";
    for (var i = 0; i < shown; i++) {
      var slot = slots[i];
      out += '<use href="#ck-' + symbol + '" x="' + slot[0] + '" y="' + slot[1] + '" width="' +
        geometry.diameter + '" height="' + geometry.diameter + '"/>\n';
      if (count > slots.length && i === shown - 1) {
        out += '<text class="stack-count" x="' + slot[2] + '" y="' + slot[3] +
          '" text-anchor="middle" font-size="17" font-weight="bold" fill="' +
          escape(symbol === "mine" ? colours.mineInk : colours.theirsInk) + '">' + count + "</text>\n";
      }
    }
    return out;
  }

  function checkers() {
    var slots = turn.map.geometry.slots;
    var position = turn.position;
    var out = "";
    for (var point = 1; point <= 24; point++) {
      if (position.mine[point - 1]) out += stack(slots[String(point)], position.mine[point - 1], "mine");
      if (position.theirs[point - 1]) out += stack(slots[String(point)], position.theirs[point - 1], "theirs");
    }
    return out + stack(slots.bar, position.mine[24], "mine") + stack(slots.theirBar, position.theirs[24], "theirs");
  }

  function pips() {
    var position = turn.position;
    var mine = 25 * position.mine[24];
    var theirs = 25 * position.theirs[24];
    for (var point = 1; point <= 24; point++) {
      mine += point * position.mine[point - 1];
      theirs += (25 - point) * position.theirs[point - 1];
    }
    return [mine, theirs];
  }

  function labels() {
    var places = turn.map.geometry.labels;
    var counts = pips();
    var texts = [];
    if (turn.map.pips) {
      texts.push([places.theirPips, counts[1] + " pips", "pips"], [places.minePips, counts[0] + " pips", "pips"]);
    }
    if (turn.position.off[1]) texts.push([places.theirOff, turn.position.off[1] + " off", "off"]);
    if (turn.position.off[0]) texts.push([places.mineOff, turn.position.off[0] + " off", "off"]);
    return texts.map(function (text) {
      return '<text class="label-' + text[2] + '" x="' + text[0][0] + '" y="' + text[0][1] + '" text-anchor="' +
        text[0][2] + '" font-size="13" fill="' + (text[2] === "off" ? "#f3ede0" : "#333") + '">' +
        (text[2] === "pips" ? escape(text[1].slice(0, -5)) + '<tspan class="pips-word"> pips</tspan>' : escape(text[1])) +
        "</text>\n";
    }).join("");
  }

  // The viewer's dice, used ones first and dimmed (game_page._dice_pairs).
  function dice(remaining) {
    var shown = turn.swap ? [turn.map.dice[1], turn.map.dice[0]] : turn.map.dice.slice();
    var values = shown[0] === shown[1] ? shown.concat(shown) : shown;
    var left = remaining.slice();
    var pairs = values.map(function (value) {
      var at = left.indexOf(value);
      if (at >= 0) left.splice(at, 1);
      return [value, at < 0];
    });
    pairs = pairs.filter(function (pair) { return pair[1]; }).concat(pairs.filter(function (pair) { return !pair[1]; }));
    var geometry = turn.map.geometry;
    var xs = geometry.dice[String(pairs.length)];
    return pairs.map(function (pair, i) {
      var used = pair[1] ? [" die-used", ' opacity="0.35"'] : ["", ""];
      return '<use class="die die-mine' + used[0] + '" href="#die-mine-' + pair[0] + '" x="' + xs[i] + '" y="' +
        geometry.diceY + '" width="' + geometry.die + '" height="' + geometry.die + '"' + used[1] + "/>\n";
    }).join("");
  }

  function moveLabel(origin, die, destination) {
    if (origin === 25) return "enter the checker from the bar by " + die + " on " + destination;
    if (destination === 0) return "bear off the checker on " + origin + " with the " + die;
    return "move the checker on " + origin + " by " + die + " to " + destination;
  }

  function moves(node, steps) {
    var geometry = turn.map.geometry;
    var origins = Object.keys(node[3]).map(Number).sort(function (a, b) { return b - a; });
    return origins.map(function (origin) {
      var lead = node[3][String(origin)];
      var href = escape(link(steps.concat([[origin, lead[1]]]), turn.swap));
      var label = escape(moveLabel(origin, lead[0], lead[1]));
      var area = geometry.places[String(origin)];
      var target = geometry.places[String(lead[1])];
      var count = origin === 25 ? turn.position.mine[24] : turn.position.mine[origin - 1];
      var slots = origin === 25 ? geometry.slots.bar : geometry.slots[String(origin)];
      var ringY = slots[Math.min(count, slots.length) - 1][1] + geometry.radius;
      return '<a class="move" href="' + href + '" aria-label="' + label + '" hx-get="' + href +
        '" hx-push-url="true" data-origin="' + origin + '">\n' +
        "  <title>" + label + "</title>\n" +
        '  <rect class="hit" x="' + area[0] + '" y="' + area[1] + '" width="' + area[2] + '" height="' + area[3] +
        '" fill="#fff" fill-opacity="0"/>\n' +
        '  <circle class="ring" cx="' + (area[0] + Math.floor(area[2] / 2)) + '" cy="' + ringY + '" r="' +
        geometry.radius + '" fill="none" stroke="#ffd23f" stroke-width="4"/>\n' +
        '  <rect class="target" opacity="0" pointer-events="none" x="' + target[0] + '" y="' + target[1] +
        '" width="' + target[2] + '" height="' + target[3] + '" rx="4" fill="#ffd23f" fill-opacity="0.18" ' +
        'stroke="#ffd23f" stroke-width="3" stroke-dasharray="8 5"/>\n' +
        "</a>\n";
    }).join("");
  }

  // The position in words (board_svg.describe), for screen readers.
  function words(onPoints, bar, off) {
    var parts = onPoints.filter(function (item) { return item[1]; }).map(function (item) {
      return item[1] + " on " + item[0];
    });
    if (bar) parts.unshift(bar + " on the bar");
    if (off) parts.push(off + " borne off");
    return parts.length ? parts.join(", ") : "no checkers";
  }

  function describe() {
    var position = turn.position;
    var mine = [];
    var theirs = [];
    for (var point = 24; point >= 1; point--) {
      mine.push([point, position.mine[point - 1]]);
      theirs.push([point, position.theirs[point - 1]]);
    }
    var counts = pips();
    var names = turn.map.names;
    return names[0] + ": " + words(mine, position.mine[24], position.off[0]) + "; " + counts[0] + " pips. " +
      names[1] + ": " + words(theirs, position.theirs[24], position.off[1]) + "; " + counts[1] + " pips." +
      turn.map.descExtra;
  }

  function controlLink(href, kind, text) {
    var url = escape(href);
    return '<a href="' + url + '" hx-target="#game-main" hx-select="#game-main" hx-get="' + url +
      '" hx-push-url="true" data-turn="' + kind + '">' + text + "</a>";
  }

  function controlLinks(steps) {
    var out = "";
    if (!steps.length && turn.map.dice[0] !== turn.map.dice[1]) out += controlLink(link([], !turn.swap), "swap", "swap dice");
    if (steps.length) {
      out += controlLink(link(steps.slice(0, -1), turn.swap), "undo", "undo");
      out += controlLink(link([], turn.swap), "reset", "start the turn again");
    }
    return out;
  }

  // The finished move's Submit (the page's own form, kept in #turn-submit), for these steps.
  function submitSlot(node, steps) {
    var slot = document.getElementById("turn-submit-slot");
    var template = document.getElementById("turn-submit");
    if (!slot || !template) return;
    if (!node[0]) {
      slot.replaceChildren();
      return;
    }
    var form = template.content.cloneNode(true);
    form.querySelectorAll("input[name=steps]").forEach(function (input) { input.setAttribute("value", stepsText(steps)); });
    form.querySelectorAll("input[name=swap]").forEach(function (input) { input.setAttribute("value", turn.swap ? "1" : ""); });
    var self = link(steps, turn.swap);
    var confirmUrl = self + (self.indexOf("?") >= 0 ? "&" : "?") + "confirm=submit";
    form.querySelectorAll("a[data-turn=confirm]").forEach(function (confirm) {
      confirm.setAttribute("href", confirmUrl);
      confirm.setAttribute("hx-get", confirmUrl);
    });
    slot.replaceChildren(form);
  }
})();
