// Hands on their way to the database. The hand form's Save keeps a copy of the hand on the
// phone before sending it, and only an answer saying the hand is stored (its Hand-Saved header)
// drops it. A hand refused for what it says goes back to its form to be fixed; one that can no
// longer be stored (the game over or gone, the account out of the group) is shown with why until
// the player drops it. Anything else (no connection, logged out, a login changed since the page
// was opened, a server error) keeps it, says so, and sends it again from any page once the same
// account is logged in; another account is asked first. The hand's request key makes every
// resend harmless: the server answers it as the hand it stored.
(() => {
  const PREFIX = "tractor-hand:";
  const banner = document.getElementById("kept-hands");
  const me = document.body.dataset.account || "";
  const myName = document.body.dataset.accountName || "";
  const words = banner ? banner.dataset : {};
  const sending = new Set();
  // The hand form of this page, if any: it shows what becomes of its own hand.
  let here = null;

  const token = () => {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  };
  const load = (key) => {
    let raw = null;
    try {
      raw = localStorage.getItem(key);
    } catch (e) {
      return null;
    }
    if (raw === null) return null;
    try {
      const record = JSON.parse(raw);
      if (record && typeof record.body === "string") return record;
    } catch (e) {
      // A copy kept by an earlier version of this script: its form's body alone.
    }
    return { url: key.slice(PREFIX.length), body: raw, account: "", accountName: "", number: "", state: "offline" };
  };
  const all = () => {
    const keys = [];
    try {
      for (let i = 0; i < localStorage.length; i++) keys.push(localStorage.key(i));
    } catch (e) {
      return [];
    }
    return keys.filter((key) => key && key.startsWith(PREFIX)).map(load).filter(Boolean);
  };
  const put = (record) => {
    try {
      localStorage.setItem(PREFIX + record.url, JSON.stringify(record));
    } catch (e) {
      // No storage (a private window that refuses it): the hand is sent without a copy.
    }
    show();
  };
  const drop = (url) => {
    try {
      localStorage.removeItem(PREFIX + url);
    } catch (e) {
      // Nothing was kept.
    }
    show();
  };

  // Sends a kept hand; answers what became of it: "saved" (with the answer), "refused" (with
  // the form's page as the server returned it), "unstorable" or "kept".
  async function send(record) {
    if (sending.has(record.url)) return { kind: "busy" };
    sending.add(record.url);
    put({ ...record, state: record.state || "sending" });
    const body = new URLSearchParams(record.body);
    // The page's own token: the one kept with the hand may be from a login since replaced.
    if (token()) body.set("csrfmiddlewaretoken", token());
    let response;
    try {
      response = await fetch(record.url, {
        method: "POST",
        body: body.toString(),
        credentials: "same-origin",
        // Its own header, not htmx's: the server answers a kept hand as this script reads it.
        headers: { "Kept-Hand": "true", "Content-Type": "application/x-www-form-urlencoded" },
      });
    } catch (e) {
      sending.delete(record.url);
      put({ ...record, state: "offline" });
      return { kind: "kept" };
    }
    sending.delete(record.url);
    if (response.headers.has("Hand-Saved")) {
      drop(record.url);
      return { kind: "saved", response };
    }
    if (response.headers.has("Hand-Unstorable")) {
      put({ ...record, state: "unstorable", why: await response.text() });
      return { kind: "unstorable" };
    }
    if (response.status === 422 && !response.redirected) {
      put({ ...record, state: "refused" });
      return { kind: "refused", html: await response.text() };
    }
    // A redirect followed to the login page, a refused token, a server error: kept.
    const state = response.redirected ? "login" : response.status === 403 ? "session" : "server";
    put({ ...record, state });
    return { kind: "kept" };
  }

  // Sends every kept hand that may be sent now: by this account, with a connection.
  async function flush() {
    if (!me || navigator.onLine === false) return;
    for (const record of all()) {
      if (record.state === "unstorable" || record.state === "refused") continue;
      if (record.account && record.account !== me) continue;
      await resend(record);
    }
  }

  async function resend(record) {
    const outcome = await send({ ...record, account: me, accountName: myName });
    if (here && here.url === record.url) return here.resent(outcome);
    if (outcome.kind === "saved") say(words.saved, record);
  }

  const filled = (text, record) =>
    (text || "").replace("{number}", record.number || "").replace("{account}", record.accountName || "").replace("{me}", myName);

  function say(text, record) {
    const note = document.getElementById("kept-note");
    if (!note) return;
    note.textContent = filled(text, record);
    note.hidden = false;
  }

  function button(label, action, style) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `btn btn-sm ${style || "btn-outline-secondary"} me-2 mt-1`;
    b.textContent = label;
    b.addEventListener("click", action);
    return b;
  }

  // One line for each kept hand: what became of it and what to do.
  function show() {
    if (!banner) return;
    const list = banner.querySelector("ul");
    list.replaceChildren();
    for (const record of all()) {
      // A hand this page is sending says nothing until its answer comes.
      if (record.state === "sending" && sending.has(record.url)) continue;
      const item = document.createElement("li");
      const title = document.createElement("strong");
      title.textContent = filled(words.hand, record);
      const text = document.createElement("span");
      item.append(title, " ", text);
      const other = record.account && me && record.account !== me;
      if (record.state === "unstorable") {
        text.textContent = filled(words.unstorable, record).replace("{why}", record.why || "");
      } else if (record.state === "refused") {
        text.textContent = filled(words.refused, record);
        if (location.pathname !== record.url) {
          const fix = document.createElement("a");
          fix.className = "btn btn-sm btn-outline-primary me-2 mt-1";
          fix.href = record.url;
          fix.textContent = words.fix;
          item.append(document.createElement("br"), fix);
        }
      } else if (!me) {
        text.textContent = filled(words.loggedOut, record);
      } else if (other) {
        text.textContent = filled(words.other, record);
        item.append(document.createElement("br"), button(filled(words.sendAsMe, record), () => resend(record), "btn-outline-primary"));
      } else {
        text.textContent = filled(words[record.state] || words.offline, record);
        if (record.state === "session") item.append(document.createElement("br"), button(words.again, () => location.reload(), "btn-outline-primary"));
      }
      if (record.state === "unstorable" || other || record.state === "refused") {
        item.append(
          button(words.drop, () => {
            if (window.confirm(filled(words.dropAsk, record))) drop(record.url);
          }),
        );
      }
      list.append(item);
    }
    banner.hidden = !list.children.length;
  }

  window.tractorHands = {
    // Keeps the hand a form is about to send, and sends it.
    save: (url, body, number) => send({ url, body, number, account: me, accountName: myName, state: "sending" }),
    // Keeps a hand without a connection to send it.
    keep: (url, body, number) => put({ url, body, number, account: me, accountName: myName, state: "offline" }),
    kept: (url) => load(PREFIX + url),
    drop,
    // The hand form of this page: ``resent(outcome)`` is told what became of its kept hand
    // when it is sent again in the background.
    here: (form) => {
      here = form;
    },
  };

  show();
  // After every script of the page has run: the hand form hears what became of its hand.
  document.addEventListener("DOMContentLoaded", flush);
  window.addEventListener("online", flush);
  setInterval(flush, 15000);
})();
