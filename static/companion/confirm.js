// A form with data-confirm asks before it does something the scorekeeper may regret.
document.addEventListener("submit", (event) => {
  const question = event.target.dataset && event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});

// A read-only field with data-select-on-focus (a link to share) is selected whole when tapped;
// an onfocus attribute would be refused by the Content Security Policy.
document.addEventListener("focusin", (event) => {
  if (event.target.matches("[data-select-on-focus]")) event.target.select();
});

// The Content Security Policy refuses style attributes in the page; a server-drawn shape (the
// scoring table's preview bar) gives its style as data-style, set here on every load and swap.
htmx.onLoad((root) => {
  for (const element of root.querySelectorAll("[data-style]")) {
    element.style.cssText = element.dataset.style;
  }
});

// A form with data-submit-on-change (the language switch) is sent as soon as its choice changes;
// without JavaScript its own button sends it.
document.addEventListener("change", (event) => {
  const form = event.target.form;
  if (form && form.hasAttribute("data-submit-on-change")) form.requestSubmit();
});
