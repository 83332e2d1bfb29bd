// Slate's service worker: caches the app shell so the app opens, and what is on screen stays
// readable, without a connection. API requests always go to the network (never cached).
const CACHE = "slate-shell-v1";
const SHELL = [
  "/",
  "/index.html",
  "/app.css",
  "/manifest.webmanifest",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/js/main.js",
  "/js/api.js",
  "/js/detail.js",
  "/js/format.js",
  "/js/forms.js",
  "/js/keyboard.js",
  "/js/live.js",
  "/js/quickentry.js",
  "/js/reorder.js",
  "/js/rows.js",
  "/js/sidebar.js",
  "/js/state.js",
  "/js/stats.js",
  "/js/tasklist.js",
  "/js/toast.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// The shell: the network first (so an updated server is seen at once), the cache when offline.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(url.pathname === "/" ? "/" : event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname === "/" || event.request.mode === "navigate" ? "/" : event.request).then((hit) => hit || Response.error())),
  );
});
