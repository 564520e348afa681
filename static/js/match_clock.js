// A live game's clocks (backgammon/jinja2/backgammon/_match_clocks.html): the region carries the
// server's reading at the moment it was rendered, and every region that arrives (page load, an
// htmx answer, a pushed update) starts the count again from it, so the page never drifts from the
// server for longer than one move. In between, the running clock first spends what is left of the
// turn's delay, then its reserve; in the last 10 seconds it turns red and a screen reader hears it
// once. At zero it asks for the game region: the server's timeout is on its way (within a second).
(function () {
  "use strict";
  var WARN_MS = 10000;
  var timer = null;
  var shown = null; // the clocks element being counted: only a new one (a new region) restarts

  function pad(number) { return (number < 10 ? "0" : "") + number; }

  // As backgammon/match_clock_view.py clock_text: "4:08", "1:02:30", "0:09.4".
  function clockText(ms) {
    if (ms < WARN_MS) return "0:0" + Math.floor(ms / 1000) + "." + Math.floor((ms % 1000) / 100);
    var seconds = Math.ceil(ms / 1000);
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    seconds = seconds % 60;
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds) : minutes + ":" + pad(seconds);
  }

  function start(event) {
    var box = document.querySelector("[data-match-clock]");
    // Other regions settle too (the menu counts, a poll answered "nothing new"): the count goes
    // on unless the clocks themselves were replaced, or given a new reading (a pushed roll,
    // static/js/live.js, which says so with "live:clocks").
    if (box === shown && !(event && event.type === "live:clocks")) return;
    shown = box;
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    if (!box) return;
    var data;
    try { data = JSON.parse(box.getAttribute("data-match-clock")); } catch (error) { return; }
    if (data.running !== "black" && data.running !== "white") return;
    var face = box.querySelector('[data-side="' + data.running + '"]');
    if (!face) return;
    var time = face.querySelector(".match-clock__time");
    var delayNote = box.querySelector(".match-clock__delay");
    var alert = box.querySelector(".match-clock__alert");
    var reserve = Number(data[data.running + "_ms"]) || 0;
    var delayLeft = Number(data.delay_left_ms) || 0;
    var began = window.performance.now();
    var warned = reserve < WARN_MS;
    var asked = false;

    function tick() {
      var elapsed = window.performance.now() - began;
      var left = Math.max(0, reserve - Math.max(0, elapsed - delayLeft));
      var delay = Math.max(0, delayLeft - elapsed);
      time.textContent = clockText(left);
      if (delayNote) delayNote.textContent = delay > 0 ? "delay " + Math.ceil(delay / 1000) + " s" : "";
      face.classList.toggle("match-clock--warning", left < WARN_MS);
      if (!warned && left < WARN_MS) {
        warned = true;
        var name = face.querySelector(".match-clock__name");
        if (alert) alert.textContent = "Less than 10 seconds left on " + (name ? name.textContent : "the") + "'s clock";
      }
      if (left === 0 && !asked) {
        asked = true;
        window.clearInterval(timer);
        timer = null;
        // The worker's timeout is pushed within a second; ask as well, in case push is away.
        window.setTimeout(function () {
          var poll = document.getElementById("game-poll");
          if (poll && typeof htmx !== "undefined") htmx.trigger(poll, "live:poll");
        }, 1500);
      }
    }
    tick();
    timer = window.setInterval(tick, 100);
  }

  document.body.addEventListener("htmx:afterSettle", start);
  document.body.addEventListener("live:clocks", start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
