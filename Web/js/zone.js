// The account's time zone: alerts at a time of day ("9:00 on the day"), their emails and
// calendar sync use it, and so does the server for a client that sends no zone. An account
// without one takes this browser's the first time the app runs; Settings shows and changes it.
import { request, timeZone } from "./api.js";
import { el } from "./format.js";

/** Gives an account that has no zone this browser's (quietly: offline or refused, nothing changes). */
export async function adoptBrowserZone() {
  if (!timeZone) return;
  try {
    const { data } = await request("GET", "/account");
    if (data.timeZone === null) await request("PATCH", "/account", { body: { timeZone } });
  } catch {
    // Settings shows the zone and any refusal when opened.
  }
}

/** The zones a browser knows, this one's first; just this one where the list is not offered. */
function zoneNames(current) {
  let names = [];
  try {
    names = Intl.supportedValuesOf("timeZone");
  } catch {
    names = [];
  }
  return [...new Set([current, timeZone, ...names].filter(Boolean))];
}

/** One zone, whatever it is called: UTC, Etc/UTC and GMT are the same clock. */
function sameZone(a, b) {
  const utc = new Set(["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Etc/Universal", "Universal", "Zulu"]);
  return a === b || (utc.has(a) && utc.has(b));
}

/** The "Time zone" section of Settings. */
export async function zoneSection() {
  const section = el("section", "settings-zone");
  section.setAttribute("aria-labelledby", "zone-heading");
  const heading = el("h3", null, "Time zone");
  heading.id = "zone-heading";
  const intro = el("p", "settings-intro",
    "Alerts at a time of day, their emails and calendar sync use your time zone. This device is in " + (timeZone || "an unknown zone") + ".");
  const select = el("select");
  select.id = "account-zone";
  const label = el("label", "settings-field", "Your time zone ");
  label.append(select);
  const state = el("p", "settings-intro");
  state.setAttribute("role", "status");
  const error = el("p", "form-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  // Travelling, or a second device elsewhere: say when this device's clock is not the
  // account's, which alerts at a time of day follow, and offer to switch.
  const mismatch = el("p", "settings-intro zone-mismatch");
  mismatch.hidden = true;
  const useDevice = el("button", "ghost", `Use ${(timeZone || "").replaceAll("_", " ")}`);
  useDevice.type = "button";
  const { data: account } = await request("GET", "/account");
  const showMismatch = (current) => {
    const effective = current || account.serverTimeZone;
    mismatch.hidden = !timeZone || sameZone(timeZone, effective);
    mismatch.replaceChildren(
      `Your time zone is ${effective.replaceAll("_", " ")}, but this device is in ${(timeZone || "").replaceAll("_", " ")}: `
        + "alerts at a time of day go by your time zone's clock. ",
      useDevice);
  };
  const fill = (current) => {
    const none = el("option", null, `The server's (${account.serverTimeZone.replaceAll("_", " ")})`);
    none.value = "";
    select.replaceChildren(none, ...zoneNames(current).map((name) => {
      const option = el("option", null, name.replaceAll("_", " "));
      option.value = name;
      return option;
    }));
    select.value = current || "";
    showMismatch(current);
  };
  fill(account.timeZone);
  useDevice.addEventListener("click", () => {
    select.value = timeZone;
    select.dispatchEvent(new Event("change"));
  });
  select.addEventListener("change", async () => {
    error.hidden = true;
    try {
      const { data } = await request("PATCH", "/account", { body: { timeZone: select.value || null } });
      fill(data.timeZone);
      state.textContent = "Saved.";
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  });
  section.append(heading, intro, mismatch, label, state, error);
  return section;
}
