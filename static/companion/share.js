// A Copy button (data-copy: the id of the field it copies) puts the link on the clipboard. The
// clipboard API needs a secure context, which the phones on `make run`'s local network are not:
// there the field is selected and copied the old way, or left selected for the phone's own Copy.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  let copied = false;
  try {
    await navigator.clipboard.writeText(field.value);
    copied = true;
  } catch {
    field.focus();
    field.select();
    copied = document.execCommand("copy");
  }
  const status = document.getElementById(button.getAttribute("aria-describedby"));
  status.textContent = copied ? button.dataset.copied : button.dataset.selected;
});
