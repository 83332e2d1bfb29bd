// Alerts on open pages: the server sends an `alert` event on the live stream when a task's
// alert fires. With the browser's permission it becomes a system notification; otherwise
// (or while permission is undecided) an in-app banner with Open, Complete, Snooze and
// Dismiss. Every text is set with textContent: a task title is never read as HTML.
import { request } from "./api.js";

const SNOOZES = [
  ["10m", "10 min"],
  ["1h", "1 hour"],
  ["tomorrow", "Tomorrow"],
];

let stylesheet = null;

/** Adds the banner's stylesheet once (a file of this origin: the CSP allows no inline style). */
function ensureStyles() {
  if (stylesheet) return;
  stylesheet = document.createElement("link");
  stylesheet.rel = "stylesheet";
  stylesheet.href = "/alerts.css";
  document.head.append(stylesheet);
}

function banners() {
  let area = document.getElementById("alert-banners");
  if (!area) {
    ensureStyles();
    area = document.createElement("div");
    area.id = "alert-banners";
    area.setAttribute("role", "region");
    area.setAttribute("aria-label", "Alerts");
    area.setAttribute("aria-live", "assertive");
    document.body.append(area);
  }
  return area;
}

function button(label, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = label;
  node.addEventListener("click", onClick);
  return node;
}

/** When an alert says the task was due: "Due 17:00" or "Due 24 Dec". */
function dueText(alert) {
  if (!alert.due) return "";
  const date = alert.isAllDay ? new Date(alert.due + "T00:00:00") : new Date(alert.due);
  const options = alert.isAllDay ? { day: "numeric", month: "short" } : { hour: "2-digit", minute: "2-digit", day: "numeric", month: "short" };
  return "Due " + date.toLocaleString(undefined, options) + (alert.late ? " · late" : "");
}

/**
 * Shows one alert. `app.openTask(id)` opens a task (optional; without it the page goes to
 * the alert's address).
 */
export function showAlert(alert, app = {}) {
  const open = () => (app.openTask ? app.openTask(alert.taskId) : location.assign(alert.url));
  if ("Notification" in window && Notification.permission === "granted") {
    const notification = new Notification(alert.title, { body: dueText(alert), tag: alert.id, icon: "/icons/icon-192.png" });
    notification.addEventListener("click", () => {
      window.focus();
      open();
      notification.close();
    });
    return;
  }
  const area = banners();
  if (area.querySelector(`[data-alert-id="${CSS.escape(alert.id)}"]`)) return;
  const banner = document.createElement("div");
  banner.className = "alert-banner";
  banner.dataset.alertId = alert.id;
  banner.dataset.taskId = alert.taskId;
  const title = document.createElement("strong");
  title.className = "alert-title";
  title.textContent = alert.title;
  const due = document.createElement("span");
  due.className = "alert-due";
  due.textContent = dueText(alert);
  const actions = document.createElement("div");
  actions.className = "alert-actions";
  const done = () => banner.remove();
  const act = (promise) => promise.then(done, (error) => (due.textContent = error.message || "Could not reach the server."));
  if (alert.test) {
    // A test alert's task is made up: nothing to open, complete or snooze.
    actions.append(button("OK", done));
    banner.append(title, due, actions);
    area.append(banner);
    return;
  }
  actions.append(
    button("Open", () => {
      open();
      done();
    }),
    button("Complete", () => act(request("PATCH", `/tasks/${alert.taskId}`, { body: { isCompleted: true } }))),
    ...SNOOZES.map(([until, label]) => button(label, () => act(request("POST", `/tasks/${alert.taskId}/snooze`, { body: { until } })))),
    button("Dismiss", () => act(request("POST", `/tasks/${alert.taskId}/dismiss`))),
  );
  if ("Notification" in window && Notification.permission === "default") {
    actions.append(
      button("Use notifications", () =>
        Notification.requestPermission().then((choice) => {
          if (choice !== "granted") return;
          done();
          enablePush().catch(() => {});
        }),
      ),
    );
  }
  banner.append(title, due, actions);
  area.append(banner);
}

/**
 * Subscribes this browser to Web Push with the server's VAPID key and registers it as a
 * device of the account, so alerts arrive with the app closed. Needs notification permission
 * and a service worker; resolves to the device, or null where push is not available.
 */
export async function enablePush(label = navigator.userAgent.slice(0, 100)) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  const registration = await navigator.serviceWorker.ready;
  const { data } = await request("GET", "/push/key");
  const key = Uint8Array.from(atob(data.publicKey.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const subscription =
    (await registration.pushManager.getSubscription()) ||
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  const json = subscription.toJSON();
  const device = await request("POST", "/push/devices", {
    body: { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth, label },
  });
  return device.data;
}
