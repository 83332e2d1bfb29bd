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
      tag: alert.id,
      icon: "/icons/icon-192.png",
      data: alert,
      actions: [{ action: "complete", title: "Complete" }, ...SNOOZE_ACTIONS],
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

self.addEventListener("notificationclick", (event) => {
  const alert = event.notification.data || {};
  event.notification.close();
  if (!alert.taskId) return;
  if (event.action === "complete") {
    event.waitUntil(call("PATCH", `/tasks/${alert.taskId}`, { isCompleted: true }));
  } else if (event.action.startsWith("snooze-")) {
    event.waitUntil(call("POST", `/tasks/${alert.taskId}/snooze`, { until: event.action.slice("snooze-".length) }));
  } else {
    event.waitUntil(
      self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
        const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
        if (open) return open.navigate(alert.url).then((client) => (client || open).focus());
        return self.clients.openWindow(alert.url);
      }),
    );
  }
});
