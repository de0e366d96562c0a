// The Dispute page's thumb helper: a card grid under each player's field. Without it the form
// still works, cards typed as codes. Who sits where is the server's: it lays the seats out.
(function () {
  const form = document.getElementById("dispute-form");
  const template = document.getElementById("card-grid");
  if (!form || !template) return;

  const SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  // A tap adds a copy of a card up to as many as the table's decks hold.
  const decks = () => Number(document.getElementById("dispute-fields").dataset.decks);
  // The field's codes as the grid names them: 10H is TH, 5♠ is 5S.
  const codes = (input) =>
    input.value
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((code) => code.toUpperCase().replace(/^10/, "T").replace(/[♠♥♦♣]$/, (s) => SUITS[s]));

  const fieldOf = (element) => element.closest(".cards-field");
  const inputOf = (field) => field.querySelector(".cards-input");

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

  const changed = (input) => input.dispatchEvent(new Event("change", { bubbles: true }));

  const enhance = () => form.querySelectorAll(".cards-toggle").forEach((t) => (t.hidden = false));
  enhance();
  document.body.addEventListener("htmx:load", enhance);

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
    refresh(field);
    changed(input);
  });

  form.addEventListener("input", (event) => {
    if (event.target.matches(".cards-input")) refresh(fieldOf(event.target));
  });
})();
