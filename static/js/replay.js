// The replay page: the arrow keys follow its First/Previous/Next/Last links.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select")) return;
  const ids = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  const link = document.getElementById(ids[event.key] || "");
  if (link && link.href) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
