// The menus are <details>, so they work without script; this only closes an open menu
// on Escape, on a click elsewhere, or when another menu opens.
(function () {
  var menus = document.querySelectorAll("details.menu");
  function closeAll(except) {
    menus.forEach(function (menu) { if (menu !== except) menu.open = false; });
  }
  menus.forEach(function (menu) {
    menu.addEventListener("toggle", function () { if (menu.open) closeAll(menu); });
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest("details.menu")) closeAll(null);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector("details.menu[open]");
    if (open) { open.open = false; open.querySelector("summary").focus(); }
  });
})();
