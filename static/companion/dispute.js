// The Dispute page's thumb helper: a card grid under each player's field. Without it the form
// still works, cards typed as codes. Who sits where is the server's: it lays the seats out.
// Card notation is the server's too: it renders what each field reads as the grid's codes
// (#card-codes, asked again as cards are typed); this script only counts those exact codes.
(function () {
  const form = document.getElementById("dispute-form");
  const template = document.getElementById("card-grid");
  if (!form || !template) return;

  // A tap adds a copy of a card up to as many as the table's decks hold.
  const decks = () => Number(document.getElementById("dispute-fields").dataset.decks);

  const fieldOf = (element) => element.closest(".cards-field");
  const inputOf = (field) => field.querySelector(".cards-input");
  // The field's cards: the server's reading of its text, or the codes a tap here wrote into it
  // when the server has not read that text yet. A reading sent before the tap may arrive after
  // it: it is of other text, and is not used. Text typed since the last reading (or offline)
  // is kept word for word, and a tap adds to it.
  const readOf = (input) => document.querySelector(`#card-codes [data-field="${input.name}"]`);
  const written = new Map();
  const words = (text) => (text || "").split(/\s+/).filter(Boolean);
  const codes = (input) => {
    const read = readOf(input);
    if (read && read.dataset.value === input.value) return words(read.dataset.codes);
    const own = written.get(input.name);
    if (own && own.value === input.value) return own.codes;
    return words(input.value);
  };

  const refresh = (field) => {
    const counts = new Map();
    codes(inputOf(field)).forEach((code) => counts.set(code, (counts.get(code) || 0) + 1));
    field.querySelectorAll(".grid-card").forEach((button) => {
      const n = counts.get(button.dataset.card) || 0;
      button.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      button.querySelector(".copies").textContent = n > 1 ? "×" + n : "";
    });
  };

  const close = (field) => {
    field.querySelector(".card-grid-slot").replaceChildren();
    field.querySelector(".cards-toggle").setAttribute("aria-expanded", "false");
  };

  const open = (field) => {
    form.querySelectorAll('.cards-toggle[aria-expanded="true"]').forEach((t) => close(fieldOf(t)));
    const details = field.closest("details");
    if (details) details.open = true;
    field.querySelector(".card-grid-slot").replaceChildren(template.content.cloneNode(true));
    field.querySelector(".cards-toggle").setAttribute("aria-expanded", "true");
    refresh(field);
    field.scrollIntoView({ block: "start", behavior: "smooth" });
  };

  // As typing does, a tap asks the server to read the field again: an answer to an earlier
  // reading, still on its way, is then replaced rather than shown.
  const changed = (input) => input.dispatchEvent(new Event("input", { bubbles: true }));

  const enhance = () => form.querySelectorAll(".cards-toggle").forEach((t) => (t.hidden = false));
  enhance();
  document.body.addEventListener("htmx:load", enhance);
  // The server's reading of typed cards arrived: the open grid shows it.
  document.body.addEventListener("htmx:afterSettle", () =>
    form.querySelectorAll('.cards-toggle[aria-expanded="true"]').forEach((t) => refresh(fieldOf(t))),
  );

  // Escape closes the open grid, back on its Cards button, as Done does.
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !event.target.closest(".card-grid-panel")) return;
    const field = fieldOf(event.target);
    close(field);
    field.querySelector(".cards-toggle").focus();
  });

  form.addEventListener("click", (event) => {
    const toggle = event.target.closest(".cards-toggle");
    if (toggle) {
      const field = fieldOf(toggle);
      toggle.getAttribute("aria-expanded") === "true" ? close(field) : open(field);
      return;
    }
    const card = event.target.closest(".grid-card");
    const action = event.target.closest("[data-grid]");
    if (!card && !action) return;
    const field = fieldOf(event.target);
    const input = inputOf(field);
    if (action && action.dataset.grid === "done") {
      close(field);
      // The grid is gone with the focused Done: the keyboard goes on from its Cards button.
      field.querySelector(".cards-toggle").focus();
      return;
    }
    let list = action ? [] : codes(input);
    if (card) {
      const code = card.dataset.card;
      const n = list.filter((c) => c === code).length;
      // Tap to add a copy, up to one a deck; one more tap takes them all back.
      list = n < decks() ? [...list, code] : list.filter((c) => c !== code);
    }
    input.value = list.join(" ");
    written.set(input.name, { value: input.value, codes: list });
    refresh(field);
    changed(input);
  });
})();
