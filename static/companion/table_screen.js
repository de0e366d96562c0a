// The table screen stays on while it is shown, where the browser offers the Screen Wake Lock API
// (over HTTPS, or on the machine itself); the lock goes when the page is hidden, so it is asked
// for again when the page is shown again. Where it cannot be had (a plain-HTTP local network),
// a line in small print says once how to keep the screen on.
(() => {
  const root = document.documentElement;
  let lock = null;

  const cannot = () => {
    root.dataset.wakeLock = "unavailable";
    const note = document.getElementById("screen-awake");
    if (note) note.hidden = false;
  };

  const keepAwake = async () => {
    if (!("wakeLock" in navigator)) return cannot();
    if (lock && !lock.released) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      root.dataset.wakeLock = "held";
    } catch (error) {
      // Refused while the page was hidden: asked again when it is shown.
      if (document.visibilityState === "visible") cannot();
    }
  };

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") keepAwake();
  });
  keepAwake();
})();

// While the screen's poll fails (no network, a server that does not answer) it says when it was
// last up to date; the line goes as soon as a poll comes back.
(() => {
  let updated = new Date();
  const language = document.documentElement.lang || [];
  const clock = (time) => time.toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit" });

  document.addEventListener("htmx:afterRequest", (event) => {
    const notice = document.getElementById("screen-offline");
    if (!notice || !event.detail.elt || event.detail.elt.id !== "screen") return;
    if (event.detail.successful) {
      updated = new Date();
      notice.hidden = true;
    } else {
      notice.textContent = notice.dataset.offline.replace("{time}", clock(updated));
      notice.hidden = false;
    }
  });
})();
