// Settings: the account's time zone, the CalDAV address and an app password per device, the account's tokens — each with its label, when it was created, last used
// and when it expires — a form to create one (its secret is shown once, here) and a way to
// revoke one. Self-contained: main.js only shows it for ?view=settings.
import { alertSettingsSection } from "./alertsettings.js";
import { request } from "./api.js";
import { el, friendlyDateTime } from "./format.js";
import { zoneSection } from "./zone.js";

const LIFETIMES = [
  ["never", "Never expires"],
  ["30d", "Expires in 30 days"],
  ["90d", "Expires in 90 days"],
  ["1y", "Expires in a year"],
];

function field(labelText, control) {
  const label = el("label", "settings-field", labelText + " ");
  label.append(control);
  return label;
}

/** A Copy button for a shown-once value: the clipboard where the page may write it (https,
 * or this machine), else the browser's copy of the selected text. */
function copyButton(input, what) {
  const copy = el("button", "ghost small settings-copy", "Copy");
  copy.type = "button";
  copy.setAttribute("aria-label", `Copy ${what}`);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.focus();
      input.select();
      document.execCommand("copy");
    }
    copy.textContent = "Copied";
  });
  return copy;
}

/** The "shown once" box for a token just created. */
function newTokenBox(record) {
  const box = el("div", "settings-new-token");
  box.setAttribute("role", "status");
  box.append(el("p", null, `Your new token “${record.label || "(no label)"}”. Copy it now: it is not shown again.`));
  const value = el("input", "settings-token-value");
  value.readOnly = true;
  value.value = record.token;
  value.setAttribute("aria-label", "The new token");
  value.addEventListener("focus", () => value.select());
  box.append(value, copyButton(value, "the new token"));
  return box;
}

function tokenRow(token, onRevoke) {
  const row = el("li", "settings-token");
  row.dataset.tokenId = token.id;
  const expired = token.expires && new Date(token.expires) <= new Date();
  const details = el("div", "settings-token-details");
  details.append(el("span", "settings-token-label", token.label || "(no label)"));
  const facts = [
    `Created ${friendlyDateTime(token.created)}`,
    token.lastUsed ? `last used ${friendlyDateTime(token.lastUsed)}` : "never used",
    token.expires ? `${expired ? "expired" : "expires"} ${friendlyDateTime(token.expires)}` : "no expiry",
  ];
  details.append(el("span", "settings-token-facts", facts.join(" · ")));
  const revoke = el("button", "ghost danger settings-revoke", "Revoke");
  revoke.type = "button";
  revoke.setAttribute("aria-label", `Revoke the token ${token.label || token.id.slice(0, 8)}`);
  // Two steps, no modal: the first click asks, the second revokes.
  revoke.addEventListener("click", () => {
    if (revoke.dataset.confirm !== "yes") {
      revoke.dataset.confirm = "yes";
      revoke.textContent = "Revoke — sure?";
      return;
    }
    revoke.disabled = true;
    onRevoke(token);
  });
  row.append(details, revoke);
  return row;
}

/** A labelled, read-only value that selects itself on focus (for copying). */
function copyField(labelText, value, id) {
  const input = el("input", "settings-token-value");
  if (id) input.id = id;
  input.readOnly = true;
  input.value = value;
  input.addEventListener("focus", () => input.select());
  // The button beside the label, not in it (a label names one control).
  const row = el("div", "settings-copy-row");
  row.append(field(labelText, input), copyButton(input, labelText.toLowerCase()));
  return row;
}

/** What a device needs to sign in, shown once after its app password is made. */
function deviceSetupBox(record, account, address) {
  const box = el("div", "settings-new-token");
  box.id = "device-setup";
  box.setAttribute("role", "status");
  box.append(
    el("p", null, `Add a CalDAV account on “${record.label}” with these. Copy the password now: it is not shown again.`),
    copyField("Server", address),
    copyField("User name", account),
    copyField("Password", record.token, "device-password"));
  return box;
}

/**
 * "Sync with your phone": the CalDAV address, and an app password made per device (shown
 * once, with the server and user name it goes with). Devices are listed with the tokens,
 * where "last used" is their last sync and revoking one signs that device out.
 */
function syncBox(onCreated) {
  const box = el("div", "settings-sync");
  const heading = el("h3", null, "Sync with your phone");
  heading.id = "sync-heading";
  const address = `${location.origin}/dav/`;
  const form = el("form", "settings-create");
  form.id = "device-form";
  const name = el("input");
  name.name = "device";
  name.maxLength = 100;
  name.placeholder = "e.g. Ana’s iPhone";
  const create = el("button", "primary", "Make an app password");
  create.type = "submit";
  const error = el("p", "form-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  form.append(field("Device", name), create, error);
  const setup = el("div");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const label = name.value.trim();
    if (!label) {
      error.textContent = "Name the device, e.g. “Ana’s iPhone”: its app password is listed under that name.";
      error.hidden = false;
      return;
    }
    create.disabled = true;
    try {
      const [{ data: record }, { data: session }] = await Promise.all([
        request("POST", "/tokens", { body: { label, expiresIn: "never" } }),
        request("GET", "/session"),
      ]);
      setup.replaceChildren(deviceSetupBox(record, session.account, address));
      name.value = "";
      await onCreated();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    } finally {
      create.disabled = false;
    }
  });
  box.append(heading,
    el("p", "settings-intro",
      "Reminders on iPhone, iPad and Mac, DAVx⁵ with tasks.org or jtx Board, Thunderbird and todoman sync your lists over CalDAV. " +
      "Make an app password for each device and add a CalDAV account there with the server, user name and password shown."),
    copyField("Server address", address, "caldav-address"), form, setup);
  return box;
}

/** Renders the settings view into `section` (reads the tokens afresh each time). */
export async function showSettings(section) {
  const heading = el("h3", null, "Devices and API tokens");
  heading.id = "tokens-heading";
  const intro = el("p", "settings-intro",
    "Each device's app password and each script's token. A device's “last used” is its last sync; revoking it signs the device out. " +
    "Scripts send a token as “Authorization: Bearer <token>”.");
  const form = el("form", "settings-create");
  form.id = "token-form";
  const label = el("input");
  label.name = "label";
  label.maxLength = 100;
  label.placeholder = "What it is for, e.g. phone";
  const lifetime = el("select");
  lifetime.name = "expiresIn";
  for (const [value, text] of LIFETIMES) {
    const option = el("option", null, text);
    option.value = value;
    lifetime.append(option);
  }
  const create = el("button", "primary", "Create token");
  create.type = "submit";
  const error = el("p", "form-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  form.append(field("Label", label), field("Expiry", lifetime), create, error);
  const fresh = el("div");
  fresh.id = "new-token";
  const list = el("ul", "settings-tokens");
  list.id = "token-list";
  list.setAttribute("aria-labelledby", "tokens-heading");
  const empty = el("p", "settings-empty", "No tokens yet.");

  async function reload() {
    const { data } = await request("GET", "/tokens");
    list.replaceChildren(...data.tokens.map((token) => tokenRow(token, revoke)));
    empty.hidden = data.tokens.length > 0;
  }

  async function revoke(token) {
    try {
      await request("DELETE", `/tokens/${token.id}`);
    } catch (failure) {
      if (failure.status !== 404) error.textContent = failure.message;
      error.hidden = failure.status === 404;
    }
    await reload();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    create.disabled = true;
    try {
      const { data } = await request("POST", "/tokens", { body: { label: label.value.trim(), expiresIn: lifetime.value } });
      fresh.replaceChildren(newTokenBox(data));
      label.value = "";
      await reload();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    } finally {
      create.disabled = false;
    }
  });

  section.replaceChildren(syncBox(reload), heading, intro, form, fresh, list, empty);
  await reload();
  try {
    section.prepend(await zoneSection());
  } catch (failure) {
    section.prepend(el("p", "form-error", `The time zone could not be read: ${failure.message}`));
  }
  // Alerts come after the tokens; a failure to read them leaves the rest usable.
  try {
    section.append(await alertSettingsSection());
  } catch (failure) {
    section.append(el("p", "form-error", `The alert settings could not be read: ${failure.message}`));
  }
}
