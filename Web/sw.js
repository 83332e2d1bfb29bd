// Slate's service worker: caches the app shell so the app opens, and what is on screen stays
// readable, without a connection. API requests always go to the network (never cached).
importScripts("/alerts-sw.js");   // Web Push: alerts with Complete and Snooze

const CACHE = "slate-shell-v7";
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
  "/js/batch.js",
  "/js/detail.js",
  "/js/format.js",
  "/js/forms.js",
  "/js/keyboard.js",
  "/js/live.js",
  "/js/quickentry.js",
  "/js/reorder.js",
  "/js/rows.js",
  "/js/sidebar.js",
  "/js/settings.js",
  "/js/state.js",
  "/js/stats.js",
  "/js/tasklist.js",
  "/js/toast.js",
  "/js/vocabulary.js",
  "/js/choices.js",
  "/js/placement.js",
  "/js/nesting.js",
  "/js/section.js",
  "/js/changes.js",
  "/js/subtasks.js",
  "/js/later.js",
  "/js/alerts.js",
  "/js/alerteditor.js",
  "/js/alertsettings.js",
  "/js/zone.js",
  "/alerts.css",
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

// The shell comes from the cache at once and is refreshed from the network behind it (a new
// version shows on the next load); without a cache entry, or offline, the network or the
// cached page answers.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  const navigation = event.request.mode === "navigate";
  // Only the app's page is the app's page: opening another file in the tab is left alone.
  if (navigation && url.pathname !== "/" && url.pathname !== "/index.html") return;
  if (!navigation && !SHELL.includes(url.pathname)) return;
  const key = navigation ? "/" : url.pathname;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = await cache.match(key);
      const fresh = fetch(event.request)
        .then((response) => {
          if (response.ok) cache.put(key, response.clone());
          return response;
        })
        .catch(() => cached || Response.error());
      if (cached) {
        event.waitUntil(fresh.catch(() => {}));
        return cached;
      }
      return fresh;
    }),
  );
});
