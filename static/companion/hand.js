// The hand form's thumb helpers, and a save that survives a lost connection. Without this
// script the form still works: the kitty is typed as card codes, the points as numbers, and
// Save is a plain form post.
(function () {
  const changed = (input) => input.dispatchEvent(new Event("change", { bubbles: true }));
  const checkedValue = (form, name) => (form.querySelector(`input[name="${name}"]:checked`) || {}).value;

  function start() {
    const form = document.getElementById("hand-form");
    if (!form) return;
    restore(form);
    kitty(form);
    friends();
    points(form);
    lastTrick(form);
    bids(form);
    save(form);
    focusError();
    outdated(form);
  }

  // A refused save's errors stand beside their fields until the hand is changed: from then on
  // the preview says what is still wrong, so that each error is said once.
  function outdated(form) {
    const said = form.querySelectorAll(".invalid-feedback");
    if (!said.length) return;
    const clear = () => {
      said.forEach((error) => error.remove());
      form.querySelectorAll("[aria-invalid]").forEach((field) => field.removeAttribute("aria-invalid"));
      form.removeEventListener("input", clear);
      form.removeEventListener("change", clear);
    };
    form.addEventListener("input", clear);
    form.addEventListener("change", clear);
  }

  // Kitty: tap a card to add a copy (as many as the table's decks hold), one tap more removes
  // them all; typed codes count the same. The badge and the kitty's points follow the cards.
  function kitty(form) {
    const grid = document.getElementById("kitty-grid");
    const text = document.getElementById("id_kitty_cards");
    const pointsInput = document.getElementById("id_kitty_points");
    const count = document.getElementById("kitty-count");
    const said = document.getElementById("kitty-said");
    const kittySize = Number(grid.dataset.kitty);
    const mostCopies = Number(grid.dataset.copies);
    const worth = new Map([...grid.querySelectorAll(".kitty-card")].map((b) => [b.dataset.card, Number(b.dataset.points)]));
    const code = (typed) => typed.toUpperCase().replace(/^10/, "T");
    let copies = new Map();
    const read = () => {
      copies = new Map();
      text.value.split(/[\s,]+/).filter(Boolean).forEach((typed) => {
        copies.set(code(typed), (copies.get(code(typed)) || 0) + 1);
      });
    };
    const show = () => {
      let cards = 0, total = 0;
      copies.forEach((n, card) => {
        cards += n;
        total += n * (worth.get(card) || 0);
      });
      grid.querySelectorAll(".kitty-card").forEach((button) => {
        const n = copies.get(button.dataset.card) || 0;
        button.querySelector(".copies").textContent = n > 1 ? "×" + n : "";
        button.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      });
      count.textContent = cards + "/" + kittySize + " · " + total;
      // Said in words to a screen reader, which reads the badge's signs one by one.
      said.textContent = said.dataset.said.replace("{cards}", cards).replace("{size}", kittySize).replace("{points}", total);
      if (cards) pointsInput.value = total;
    };
    read();
    grid.hidden = false;
    show();
    // Opened by a tap, the kitty comes whole into view, clear of the Save bar (the page's
    // scroll padding); opened by the last trick, the form stays where the thumb is.
    const more = document.getElementById("kitty-more");
    more.querySelector("summary").addEventListener("click", () => {
      requestAnimationFrame(() => { if (more.open) more.scrollIntoView({ block: "nearest" }); });
    });
    text.addEventListener("input", () => { read(); show(); });
    grid.addEventListener("click", (event) => {
      const button = event.target.closest(".kitty-card");
      if (!button) return;
      const card = button.dataset.card;
      const total = [...copies.values()].reduce((a, b) => a + b, 0);
      const n = copies.get(card) || 0;
      copies.set(card, n < mostCopies && total < kittySize ? n + 1 : 0);
      if (!copies.get(card)) copies.delete(card);
      text.value = [...copies].flatMap(([c, k]) => Array(k).fill(c)).join(" ");
      if (!copies.size) pointsInput.value = "";
      show();
      changed(text);
    });
  }

  // Friends: "Nobody" and the friends found exclude each other.
  function friends() {
    const group = document.getElementById("id_friends");
    if (!group) return;
    group.addEventListener("change", (event) => {
      const box = event.target;
      if (!box.checked) return;
      group.querySelectorAll("input[type=checkbox]").forEach((other) => {
        if (other !== box && (box.value === "nobody" || other.value === "nobody")) other.checked = false;
      });
    });
  }

  // Opponents' points: steps of 5 and 20 kept from 0 to the decks' points, quick totals, or
  // counted from their fives, tens and kings.
  function points(form) {
    const input = document.getElementById("id_opponent_points");
    form.querySelectorAll(".stepper").forEach((stepper) => {
      stepper.addEventListener("click", (event) => {
        const step = event.target.closest("[data-step]");
        if (!step) return;
        const value = (Number(input.value) || 0) + Number(step.dataset.step);
        input.value = Math.min(Number(stepper.dataset.max), Math.max(0, value));
        changed(input);
      });
    });
    form.querySelectorAll(".quick-points").forEach((row) => {
      row.addEventListener("click", (event) => {
        const quick = event.target.closest("[data-value]");
        if (!quick) return;
        input.value = quick.dataset.value;
        changed(input);
      });
    });
    // Counting their fives, tens and kings: a panel the Count button opens.
    const counter = document.getElementById("point-counter");
    const toggle = document.getElementById("count-toggle");
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      counter.hidden = !counter.hidden;
      toggle.setAttribute("aria-expanded", String(!counter.hidden));
    });
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
      input.value = total;
      changed(input);
    });
  }

  // The last trick: its cards per player are asked for a tractor or a throw; when the
  // opponents took it, the kitty counts, so its section opens.
  function lastTrick(form) {
    const cards = document.getElementById("last-trick-cards");
    const kittyMore = document.getElementById("kitty-more");
    const update = () => {
      const format = checkedValue(form, "last_trick_format");
      cards.classList.toggle("when-needed", format !== "tractor" && format !== "throw" && !cards.querySelector(".is-invalid"));
    };
    form.addEventListener("change", (event) => {
      if (event.target.name === "last_trick_format") update();
      if (event.target.name === "last_trick_winner" && event.target.value === "opponents") kittyMore.open = true;
    });
    update();
  }

  // Bid and trump: the trump starts untapped (the table names it); once tapped, only the bids
  // `scoring` allows with it can be tapped, and with none tapped the hand had the weakest one
  // allowed, which the section's button names. A bid of jokers means no trump: tapping one
  // taps "No trump" too.
  function bids(form) {
    const box = document.getElementById("bid-choices");
    if (!box) return;
    const allows = new Map(box.dataset.bidTrumps.split(";").filter(Boolean).map((pair) => {
      const [bid, trumps] = pair.split(":");
      return [bid, trumps.split(" ")];
    }));
    const noTrump = box.dataset.noTrump;
    const noTrumpOnly = (bid) => (allows.get(bid) || []).join(" ") === noTrump;
    const summary = document.querySelector("#bid-more > summary");
    const title = summary.textContent.trim();
    const update = () => {
      const trump = checkedValue(form, "trump");
      let shown = null;
      box.querySelectorAll("input[name=bid]").forEach((radio) => {
        const ok = !trump || (allows.get(radio.value) || []).includes(trump);
        radio.disabled = !ok && !noTrumpOnly(radio.value);
        if (!ok) radio.checked = false;
        if (trump && ok && (radio.checked || !shown)) shown = radio;
      });
      const checked = box.querySelector("input[name=bid]:checked") || shown;
      // The sentence is the server's ("Bid: {choice}"), so that each language words it.
      const choice = checked && form.querySelector(`label[for="${checked.id}"]`).textContent.trim();
      summary.textContent = checked ? summary.dataset.chosen.replace("{choice}", choice) : title;
    };
    form.addEventListener("change", (event) => {
      if (event.target.name === "bid" && event.target.checked && noTrumpOnly(event.target.value)) {
        const none = form.querySelector(`input[name="trump"][value="${noTrump}"]`);
        if (none && !none.checked) {
          none.checked = true;
          changed(none);
        }
      }
      if (event.target.name === "trump" || event.target.name === "bid") update();
    });
    update();
  }

  // Save: sent by this script (kept.js), which keeps the hand on the phone until the server
  // says it is stored, whatever happens on the way. A hand refused for what it says comes back
  // in its form, to be fixed.
  function save(form) {
    const hands = window.tractorHands;
    if (!hands) return;
    const url = form.getAttribute("action");
    const number = form.dataset.number;
    const refused = (html) => {
      hands.drop(url);
      const page = new DOMParser().parseFromString(html, "text/html").getElementById("hand-page");
      if (!page) return location.reload();
      document.getElementById("hand-page").replaceWith(page);
      if (window.htmx) window.htmx.process(page);
      start();
    };
    const saved = (outcome) => location.assign(outcome.response.headers.get("HX-Redirect") || outcome.response.url);
    // Whether this page's Save kept the hand (else it was kept before the page was opened).
    let tapped = false;
    hands.here({
      url,
      // Its kept hand, sent again in the background: stored, the page goes where a save goes
      // when it was saved here, else it shows the game as it now is (the next hand's form,
      // rather than a return to the scoreboard); refused, the hand is back in its form.
      resent: (outcome) => {
        if (outcome.kind === "saved") tapped ? saved(outcome) : location.reload();
        else if (outcome.kind === "refused") refused(outcome.html);
      },
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      tapped = true;
      const body = new URLSearchParams(new FormData(form)).toString();
      if (navigator.onLine === false) return hands.keep(url, body, number);
      const outcome = await hands.save(url, body, number);
      if (outcome.kind === "saved") saved(outcome);
      else if (outcome.kind === "refused") refused(outcome.html);
    });
  }

  // A hand kept on the phone for this form is shown in it as it was kept: until it is sent, or
  // to be fixed when it was refused for what it says (then it is the form's, never sent again
  // by itself). Before the other helpers read the form.
  function restore(form) {
    const hands = window.tractorHands;
    const kept = hands && hands.kept(form.getAttribute("action"));
    if (!kept || kept.state === "unstorable") return;
    const data = new URLSearchParams(kept.body);
    form.querySelectorAll("input[name]").forEach((input) => {
      if (input.name === "csrfmiddlewaretoken") return;
      if (input.type === "radio" || input.type === "checkbox") input.checked = data.getAll(input.name).includes(input.value);
      else if (data.has(input.name)) input.value = data.get(input.name);
    });
    if (kept.state === "refused") {
      hands.drop(kept.url);
      changed(form.querySelector("input[name=opponent_points]") || form);
    }
  }

  // After a refused save the first error is in view and focused.
  function focusError() {
    const wrong = document.querySelector("#hand-page [autofocus]");
    if (!wrong) return;
    wrong.closest("details")?.setAttribute("open", "");
    wrong.focus({ preventScroll: true });
    // The whole field comes into view with its error, which may sit under the field's control.
    const field = wrong.closest(".field-choices") || wrong.closest(".field-entry, #hand-errors") || wrong;
    field.scrollIntoView({ block: "nearest" });
  }

  start();
})();
