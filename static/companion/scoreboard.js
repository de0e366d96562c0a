// The live scoreboard says when it has stopped hearing from the server: while its poll fails
// (no network, a server that does not answer) it shows when it was last up to date, and the
// notice goes as soon as a poll comes back.
(() => {
  let updated = new Date();
  // The time as the page's language writes it (the sentence around it is translated).
  const language = document.documentElement.lang || [];
  const clock = (time) => time.toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit" });

  document.addEventListener("htmx:afterRequest", (event) => {
    const poll = event.detail.elt;
    const notice = document.getElementById("scoreboard-offline");
    if (!poll || poll.id !== "scoreboard-poll" || !notice) return;
    if (event.detail.successful) {
      updated = new Date();
      notice.hidden = true;
    } else {
      notice.textContent = notice.dataset.offline.replace("{time}", clock(updated));
      notice.hidden = false;
    }
  });
})();

// A hand's sides keep to one line on the scoreboard, and who starts the next hand to three,
// however long the names: a tap shows them whole.
document.addEventListener("click", (event) => {
  const cut = event.target.closest && event.target.closest(".hand-sides, .next-hand");
  if (cut) cut.classList.toggle("whole");
});
