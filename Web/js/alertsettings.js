// Settings → Alerts: the account's default alerts (for tasks with a due time, for all-day
// tasks), the channels alerts go to (email address; a webhook, whose signing secret is shown
// once; Web Push on this device, subscribe and unsubscribe), the account's push devices
// with Remove, and "Send a test alert". Uses /alerts/settings, /alerts/test and /push/*.
import { AlertEditor } from "./alerteditor.js";
import { enablePush } from "./alerts.js";
import { request } from "./api.js";
import { el, friendlyDateTime } from "./format.js";

/** Where this browser remembers the id of its own push device. */
const DEVICE_KEY = "slate-push-device";

function field(labelText, control) {
  const label = el("label", "settings-field", labelText + " ");
  label.append(control);
  return label;
}

function button(text, className, onClick) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

/** A status line that screen readers announce. */
function status() {
  const node = el("p", "settings-status");
  node.setAttribute("role", "status");
  return node;
}

/** True when this browser can take Web Push (a service worker and the Push API). */
function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The box that shows a new webhook secret once. */
function secretBox(secret) {
  const box = el("div", "settings-new-token");
  box.setAttribute("role", "status");
  box.append(el("p", null, "The webhook's signing secret (HMAC-SHA256 of the body, header X-Slate-Signature). Copy it now: it is not shown again."));
  const value = el("input", "settings-token-value");
  value.id = "webhook-secret";
  value.readOnly = true;
  value.value = secret;
  value.setAttribute("aria-label", "The webhook secret");
  value.addEventListener("focus", () => value.select());
  box.append(value);
  return box;
}

/** Builds the Alerts section; resolves once it shows the account's settings and devices. */
export async function alertSettingsSection() {
  const section = el("section", "settings-alerts");
  section.id = "alert-settings";
  section.setAttribute("aria-labelledby", "alerts-heading");
  const heading = el("h3", null, "Alerts");
  heading.id = "alerts-heading";
  const intro = el("p", "settings-intro",
    "Slate reminds you of tasks on this page, and through the channels below: email, a webhook (ntfy, Gotify, Home Assistant…) and " +
    "Web Push to your devices, even with Slate closed.");
  const error = el("p", "form-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  const fail = (failure) => {
    error.textContent = failure.message || "Could not reach the server.";
    error.hidden = false;
  };
  let settings = (await request("GET", "/alerts/settings")).data;

  async function patch(body, saved) {
    error.hidden = true;
    try {
      const { data } = await request("PATCH", "/alerts/settings", { body });
      settings = data;
      if (saved) saved(data);
      return data;
    } catch (failure) {
      fail(failure);
      return null;
    }
  }

  // Default alerts.
  const defaultsHost = el("div", "settings-defaults");
  const defaultsStatus = status();
  const timedHost = el("div");
  const allDayHost = el("div");
  const timed = new AlertEditor(timedHost, {
    prefix: "defaults-timed", label: "New tasks with a due time", relativeOnly: true,
    onChange: (alerts) => patch({ timedDefaults: alerts }, () => (defaultsStatus.textContent = "Default alerts saved.")),
  });
  const allDay = new AlertEditor(allDayHost, {
    prefix: "defaults-all-day", label: "New all-day tasks", relativeOnly: true,
    onChange: (alerts) => patch({ allDayDefaults: alerts }, () => (defaultsStatus.textContent = "Default alerts saved.")),
  });
  timed.set(settings.timedDefaults, { hasDue: true, isAllDay: false });
  allDay.set(settings.allDayDefaults, { hasDue: true, isAllDay: true });
  const defaultsHeading = el("h4", null, "Default alerts");
  defaultsHost.append(defaultsHeading, timedHost, allDayHost, defaultsStatus);

  // Email.
  const emailForm = el("form", "settings-create");
  emailForm.id = "alert-email-form";
  emailForm.noValidate = true; // the server's message names the field and the accepted form
  const email = el("input");
  email.type = "email";
  email.id = "alert-email";
  email.maxLength = 320;
  email.autocomplete = "email";
  email.placeholder = "name@example.org";
  email.value = settings.email || "";
  const emailStatus = status();
  const saveEmail = el("button", "primary", "Save address");
  saveEmail.type = "submit";
  const removeEmail = button("Remove", "ghost", async () => {
    if (await patch({ email: null })) {
      email.value = "";
      emailStatus.textContent = "No email alerts.";
      removeEmail.hidden = true;
    }
  });
  // Remove is offered only for an address that is saved.
  removeEmail.hidden = !settings.email;
  emailForm.append(field("Email address", email), saveEmail, removeEmail);
  emailForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = email.value.trim();
    const data = await patch({ email: value || null });
    if (data) emailStatus.textContent = data.email ? `Alerts are emailed to ${data.email}.` : "No email alerts.";
    if (data) removeEmail.hidden = !data.email;
  });
  emailStatus.textContent = settings.email ? `Alerts are emailed to ${settings.email}.` : "No email alerts.";

  // Webhook.
  const hookForm = el("form", "settings-create");
  hookForm.id = "alert-webhook-form";
  hookForm.noValidate = true;
  const hook = el("input");
  hook.type = "url";
  hook.id = "alert-webhook";
  hook.maxLength = 320;
  hook.placeholder = "https://ntfy.example.org/slate";
  hook.value = settings.webhookURL || "";
  const hookStatus = status();
  const secret = el("div");
  secret.id = "webhook-new-secret";
  const saveHook = el("button", "primary", "Save webhook");
  saveHook.type = "submit";
  const newSecret = button("New secret", "ghost", async () => {
    const data = await patch({ newWebhookSecret: true });
    if (data?.webhookSecret) secret.replaceChildren(secretBox(data.webhookSecret));
  });
  const removeHook = button("Remove", "ghost", async () => {
    if (await patch({ webhookURL: null })) {
      hook.value = "";
      secret.replaceChildren();
      showHook();
    }
  });
  const showHook = () => {
    hookStatus.textContent = settings.webhookURL ? `Alerts are posted to ${settings.webhookURL}.` : "No webhook.";
    newSecret.hidden = removeHook.hidden = !settings.webhookURL;
  };
  hookForm.append(field("Webhook URL", hook), saveHook, newSecret, removeHook);
  hookForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = hook.value.trim();
    const data = await patch({ webhookURL: value || null });
    if (!data) return;
    secret.replaceChildren(...(data.webhookSecret ? [secretBox(data.webhookSecret)] : []));
    showHook();
  });
  showHook();

  // Web Push on this device, and the account's devices.
  const pushStatus = status();
  pushStatus.id = "push-status";
  const subscribe = button("Turn on alerts on this device", "primary", async () => {
    subscribe.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        pushStatus.textContent = "This browser does not allow notifications from Slate: allow them in its site settings, then try again.";
        return;
      }
      const device = await enablePush(deviceLabel());
      if (device) localStorage.setItem(DEVICE_KEY, device.id);
      await showPush();
    } catch (failure) {
      fail(failure);
    } finally {
      subscribe.disabled = false;
    }
  });
  const unsubscribe = button("Turn off on this device", "ghost", async () => {
    const id = localStorage.getItem(DEVICE_KEY);
    try {
      const registration = await navigator.serviceWorker.ready;
      await (await registration.pushManager.getSubscription())?.unsubscribe();
      if (id) await request("DELETE", `/push/devices/${id}`).catch((failure) => failure.status === 404 || Promise.reject(failure));
      localStorage.removeItem(DEVICE_KEY);
      await showPush();
    } catch (failure) {
      fail(failure);
    }
  });
  const devices = el("ul", "settings-tokens");
  devices.id = "push-devices";
  devices.setAttribute("aria-labelledby", "devices-heading");
  const devicesHeading = el("h4", null, "Devices");
  devicesHeading.id = "devices-heading";
  const noDevices = el("p", "settings-empty", "No devices get Web Push alerts yet.");

  async function showPush() {
    const { data } = await request("GET", "/push/devices");
    const mine = localStorage.getItem(DEVICE_KEY);
    const subscribed = pushSupported() && !!(await currentSubscription());
    const registered = data.devices.some((device) => device.id === mine);
    if (!pushSupported()) pushStatus.textContent = "This browser cannot receive Web Push alerts.";
    else pushStatus.textContent = subscribed && registered ? "This device gets alerts, even with Slate closed." : "This device gets alerts only while Slate is open.";
    subscribe.hidden = !pushSupported() || (subscribed && registered);
    unsubscribe.hidden = !(subscribed && registered);
    devices.replaceChildren(...data.devices.map((device) => deviceRow(device, device.id === mine)));
    noDevices.hidden = data.devices.length > 0;
  }

  function deviceRow(device, isThis) {
    const row = el("li", "settings-token");
    row.dataset.deviceId = device.id;
    const details = el("div", "settings-token-details");
    details.append(el("span", "settings-token-label", (device.label || "A browser") + (isThis ? " (this device)" : "")));
    details.append(el("span", "settings-token-facts", `Added ${friendlyDateTime(device.created)} · through ${device.service || "its push service"}`));
    const remove = button("Remove", "ghost danger settings-revoke", async () => {
      remove.disabled = true;
      try {
        await request("DELETE", `/push/devices/${device.id}`);
      } catch (failure) {
        if (failure.status !== 404) fail(failure);
      }
      if (isThis) localStorage.removeItem(DEVICE_KEY);
      await showPush();
    });
    remove.setAttribute("aria-label", `Remove the device ${device.label || device.id.slice(0, 8)}`);
    row.append(details, remove);
    return row;
  }

  // Test alert.
  const testStatus = status();
  testStatus.id = "test-alert-status";
  const test = button("Send a test alert", "", async () => {
    test.disabled = true;
    try {
      await request("POST", "/alerts/test");
      testStatus.textContent = "Test alert sent to every channel and device: it should arrive within moments.";
    } catch (failure) {
      fail(failure);
    } finally {
      test.disabled = false;
    }
  });
  test.id = "send-test-alert";

  const channelsHeading = el("h4", null, "Where alerts go");
  section.append(heading, intro, error, defaultsHost, channelsHeading,
    emailForm, emailStatus, hookForm, hookStatus, secret,
    el("h4", null, "Web Push on this device"), pushStatus, subscribe, unsubscribe,
    devicesHeading, devices, noDevices, test, testStatus);
  await showPush();
  return section;
}

async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration();
  return registration ? registration.pushManager.getSubscription() : null;
}

/** A name for this device in the list: the browser and system, from the user agent. */
function deviceLabel() {
  const agent = navigator.userAgent;
  const browser = /Firefox\//.test(agent) ? "Firefox" : /Edg\//.test(agent) ? "Edge" : /Chrom(e|ium)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "Browser";
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Mac OS X/.test(agent) ? "macOS" : /Windows/.test(agent) ? "Windows" : /Linux/.test(agent) ? "Linux" : "";
  return system ? `${browser} on ${system}` : browser;
}
