// New game and the Waiting Room: the "Rated game" box starts as the player chose for the
// variant (Edit ratings). When another variant is picked the box follows that variant's choice,
// until the player ticks or unticks it themselves. Without script the first variant's choice holds.
(function () {
  var box = document.querySelector("input[data-rated-defaults]");
  if (!box) return;
  var defaults = JSON.parse(box.getAttribute("data-rated-defaults"));
  var touched = false;
  box.addEventListener("change", function () { touched = true; });
  box.form.querySelectorAll("input[name=variant]").forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (!touched && radio.checked) box.checked = Boolean(defaults[radio.value]);
    });
  });
})();
