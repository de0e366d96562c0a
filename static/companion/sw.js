// The service worker that makes the app installable. It keeps the static shell (stylesheets,
// scripts, icons) for a phone without a connection, and nothing else: pages and the game's
// data always come from the server (it never answers for them), so it cannot show a stale score.
// The server writes SHELL, the shell's URLs, above these lines.
const CACHE = `shell:${SHELL.join(" ")}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
  self.skipWaiting();
});

// A new deploy names new files: the shells kept for older ones go.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// The network first, so an edited file shows at once; the kept copy when the network fails.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !SHELL.includes(url.pathname)) {
    return;
  }
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(event.request, copy)));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((kept) => kept || Response.error())),
  );
});
