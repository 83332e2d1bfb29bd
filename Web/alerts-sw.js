// Web Push in the service worker (imported by sw.js): an alert pushed by the server shows
// as a notification with Complete and Snooze actions that act through the API; clicking
// the notification itself opens the task.

const SNOOZE_ACTIONS = [
  { action: "snooze-10m", title: "Snooze 10 min" },
  { action: "snooze-1h", title: "Snooze 1 hour" },
  { action: "snooze-tomorrow", title: "Tomorrow" },
];

self.addEventListener("push", (event) => {
  let alert = null;
  try {
    alert = event.data ? event.data.json() : null;
  } catch {
    alert = null;
  }
  if (!alert || !alert.taskId) return;
  const due = alert.due ? new Date(alert.isAllDay ? alert.due + "T00:00:00" : alert.due) : null;
  event.waitUntil(
    self.registration.showNotification(alert.title, {
      body: due ? "Due " + due.toLocaleString() + (alert.late ? " (late)" : "") : "",
      // The delivery id: a repeat of a delivery (sent again after an interrupted attempt)
      // replaces its notification instead of adding a second one.
      tag: alert.id,
      renotify: false,
      icon: "/icons/icon-192.png",
      data: alert,
      // A test alert's task is made up: nothing to complete or snooze.
      actions: alert.test ? [] : [{ action: "complete", title: "Complete" }, ...SNOOZE_ACTIONS],
    }),
  );
});

function call(method, path, body) {
  return fetch("/api/v1" + path, {
    method,
    credentials: "same-origin",
    headers: { "X-Requested-With": "slate", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * What a click on an alert's notification does: Complete and Snooze act through the API
 * (resolving to its response); a click on the notification itself opens the task. A test
 * alert has nothing to act on. On `self` so that the browser tests can run it as a click does.
 */
self.slateAlertAction = function (alert, action) {
  if (!alert.taskId || (alert.test && action)) return Promise.resolve(null);
  if (action === "complete") return call("PATCH", `/tasks/${alert.taskId}`, { isCompleted: true });
  if (action.startsWith("snooze-")) return call("POST", `/tasks/${alert.taskId}/snooze`, { until: action.slice("snooze-".length) });
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
    if (open) return open.navigate(alert.url).then((client) => (client || open).focus());
    return self.clients.openWindow(alert.url);
  });
};

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.slateAlertAction(event.notification.data || {}, event.action || ""));
});
