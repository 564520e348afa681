/* Registers the site's service worker (/sw.js, scope "/": see gamesite/pwa.py), which keeps the
   static files and the offline page and shows push notifications. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) {
    return;
  }
  var worker = script.getAttribute("data-worker") || "/sw.js";
  navigator.serviceWorker.register(worker, { scope: "/" }).catch(function (error) {
    console.warn("The service worker was not registered:", error);
  });
})();
