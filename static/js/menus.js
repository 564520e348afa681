// The menus are <details>, so they work without script; this only closes an open menu
// on Escape, on a click elsewhere, or when another menu opens.
// On a phone (or a phone on its side) the menus wait behind the Menu button as one sheet: the
// button is a link to the sheet (#main-nav, shown by :target without script); here it opens and
// closes the sheet in place, with every menu open in it.
(function () {
  var menus = document.querySelectorAll("details.menu");
  var header = document.querySelector(".site-header");
  var toggle = document.querySelector(".nav-toggle");
  function sheetMode() {
    return toggle && window.getComputedStyle(toggle).display !== "none";
  }
  function closeAll(except) {
    menus.forEach(function (menu) { if (menu !== except) menu.open = false; });
  }
  function setSheet(open) {
    header.classList.toggle("nav-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    menus.forEach(function (menu) { menu.open = open; });
  }
  menus.forEach(function (menu) {
    menu.addEventListener("toggle", function () { if (menu.open && !sheetMode()) closeAll(menu); });
  });
  if (toggle) {
    toggle.setAttribute("role", "button");
    toggle.addEventListener("click", function (event) {
      event.preventDefault();
      setSheet(!header.classList.contains("nav-open"));
    });
  }
  document.addEventListener("click", function (event) {
    if (sheetMode()) {
      if (header.classList.contains("nav-open") && !event.target.closest(".site-header")) setSheet(false);
      return;
    }
    if (!event.target.closest("details.menu")) closeAll(null);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    if (sheetMode() && header.classList.contains("nav-open")) { setSheet(false); toggle.focus(); return; }
    var open = document.querySelector("details.menu[open]");
    if (open) { open.open = false; open.querySelector("summary").focus(); }
  });
  // Leaving sheet mode (a phone turned, a window widened) closes the sheet and its menus.
  if (toggle && window.matchMedia) {
    window.matchMedia("(max-width: 900px), (max-height: 500px)").addEventListener("change", function () {
      if (header.classList.contains("nav-open")) setSheet(false);
    });
  }
})();
