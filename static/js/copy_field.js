// A button with data-copy-from="ID" copies that field's value (the new API token) to the clipboard.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy-from]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copyFrom);
  field.select();
  const done = () => { button.textContent = "Copied"; };
  if (navigator.clipboard) {
    navigator.clipboard.writeText(field.value).then(done, () => document.execCommand("copy") && done());
  } else if (document.execCommand("copy")) {
    done();
  }
});
