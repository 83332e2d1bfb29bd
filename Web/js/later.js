// The modules the first list does not need — Statistics, Settings (with its alert
// settings), the alerts shown on an open page — loaded with import() when first used, so a
// load evaluates only what draws the first rows. Once the first list is on screen they are
// fetched while the browser is idle, so opening Settings the first time does not wait.

/** Statistics (stats.js). */
export const stats = () => import("./stats.js");

/** Settings and the alert settings inside it (settings.js, alertsettings.js). */
export const settings = () => import("./settings.js");

/** The alerts shown on an open page (alerts.js). */
export const alerts = () => import("./alerts.js");

/** The account's time zone (zone.js): taken from this browser when the account has none. */
export const zone = () => import("./zone.js");

/** Runs `task` when the browser is next idle (at the latest after `timeout` ms). */
export function whenIdle(task, { timeout = 2000 } = {}) {
  if ("requestIdleCallback" in window) requestIdleCallback(() => task(), { timeout });
  else setTimeout(task, 200);
}

/** Loads the modules above when the browser is next idle (at the latest after `timeout` ms). */
export function loadWhenIdle({ timeout = 2000 } = {}) {
  whenIdle(() => Promise.all([stats(), settings(), alerts()]).catch(() => {}), { timeout }); // offline: loaded when opened
}
