// htmx leaves the page alone on a 4xx answer; forms marked data-swap-errors show the refusal
// (a fragment with the player-facing message) in place instead, as they do without JavaScript.
document.addEventListener("htmx:beforeSwap", (event) => {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  const status = event.detail.xhr.status;
  if (source instanceof Element && source.closest("[data-swap-errors]") && status >= 400 && status < 500) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
