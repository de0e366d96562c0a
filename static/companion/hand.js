// The hand form's thumb helpers. Without them the form still works: the kitty is typed as
// card codes and the points as numbers.
(function () {
  const form = document.getElementById("hand-form");
  if (!form) return;
  const changed = (input) => input.dispatchEvent(new Event("change", { bubbles: true }));

  // Kitty: tap a card to add a copy (as many as the table's decks hold), one tap more removes
  // them all; the kitty holds as many cards as the table's deal leaves.
  const grid = document.getElementById("kitty-grid");
  const kittySize = Number(grid.dataset.kitty);
  const mostCopies = Number(grid.dataset.copies);
  const text = document.getElementById("id_kitty_cards");
  const pointsInput = document.getElementById("id_kitty_points");
  const count = document.getElementById("kitty-count");
  const copies = new Map();
  const show = () => {
    let cards = 0, points = 0;
    grid.querySelectorAll(".kitty-card").forEach((button) => {
      const n = copies.get(button.dataset.card) || 0;
      cards += n;
      points += n * Number(button.dataset.points);
      button.querySelector(".copies").textContent = n > 1 ? "×" + n : "";
      button.setAttribute("aria-pressed", n > 0 ? "true" : "false");
    });
    count.textContent = cards + "/" + kittySize + " · " + points;
    return points;
  };
  text.value.split(/[\s,]+/).filter(Boolean).forEach((code) => {
    const key = code.toUpperCase();
    copies.set(key, (copies.get(key) || 0) + 1);
  });
  grid.hidden = false;
  show();
  grid.addEventListener("click", (event) => {
    const button = event.target.closest(".kitty-card");
    if (!button) return;
    const code = button.dataset.card;
    const total = [...copies.values()].reduce((a, b) => a + b, 0);
    const n = copies.get(code) || 0;
    copies.set(code, n < mostCopies && total < kittySize ? n + 1 : 0);
    text.value = [...copies].flatMap(([card, k]) => Array(k).fill(card)).join(" ");
    pointsInput.value = show();
    changed(text);
  });

  // Friends: "Nobody" and the friends found exclude each other.
  const friends = document.getElementById("friends");
  if (friends) {
    friends.addEventListener("change", (event) => {
      const box = event.target;
      if (!box.checked) return;
      friends.querySelectorAll("input[type=checkbox]").forEach((other) => {
        if (other !== box && (box.value === "nobody" || other.value === "nobody")) other.checked = false;
      });
    });
  }

  // Opponents' points: quick totals, or counted from their fives, tens and kings.
  form.querySelectorAll(".quick-points").forEach((row) => {
    const input = document.getElementById(row.dataset.target);
    row.addEventListener("click", (event) => {
      const quick = event.target.closest("[data-value]");
      if (!quick) return;
      input.value = quick.dataset.value;
      changed(input);
    });
  });
  const counter = document.getElementById("point-counter");
  const opponentPoints = document.getElementById("id_opponent_points");
  counter.hidden = false;
  counter.addEventListener("click", (event) => {
    const step = event.target.closest("[data-count]");
    if (!step) return;
    const output = step.parentElement.querySelector(".count");
    const most = Number(step.parentElement.dataset.most);
    output.value = Math.min(most, Math.max(0, Number(output.value) + Number(step.dataset.count)));
    let total = 0;
    counter.querySelectorAll("[data-worth]").forEach((row) => {
      total += Number(row.dataset.worth) * Number(row.querySelector(".count").value);
    });
    opponentPoints.value = total;
    changed(opponentPoints);
  });

  // Opponents' points: steps of 5, kept from 0 to the decks' points.
  form.querySelectorAll(".stepper").forEach((stepper) => {
    const input = document.getElementById(stepper.dataset.target);
    stepper.addEventListener("click", (event) => {
      const step = event.target.closest("[data-step]");
      if (!step) return;
      const value = (Number(input.value) || 0) + Number(step.dataset.step);
      input.value = Math.min(Number(stepper.dataset.max), Math.max(0, value));
      changed(input);
    });
  });
})();
