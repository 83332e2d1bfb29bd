"""bench/web: the web app with 10,000 tasks in headless chromium (see bench/web/run).

Every time is taken inside the page with performance.now() (navigation start is 0 for a
page load; a click's or keystroke's own event timeStamp otherwise) up to the first animation
frame after the DOM shows the expected result — that frame is what the user sees. The
driver only starts each measurement and reads the figure back; WebDriver round trips are
never inside a figure.

Beside each figure, in the same run on the same server: a ceiling.
  first interactive  vs  a static page of the same 10,000 rows served by the same server
                         (ceiling.html in a copy of Web/), and the app's first API request
  list switch        vs  the first request the app sent for it, as a bare fetch from the page
  search keystroke   vs  the first request the app sent for it (the search), bare
  complete tap       vs  the raw PATCH /api/v1/tasks/{id} from the page
and the API requests per live change: a rename, a completion and an add made elsewhere (target
at most 2 each), and the tab's own complete tap (its PATCH aside).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from conftest import sign_in  # noqa: E402
from slate_web import API, By, make_driver, wait_for  # noqa: E402

# Installed before any page script: marks the first frame in which a task row is on screen
# and hit-testable (the point in its middle belongs to it), i.e. can be clicked.
FIRST_ROW = """
(() => {
  window.__bench = {firstRow: null, longTasks: 0};
  try {
    new PerformanceObserver(list => { for (const e of list.getEntries()) window.__bench.longTasks += e.duration; })
      .observe({type: 'longtask', buffered: true});
  } catch (e) {}
  function check() {
    const row = document.querySelector('#active-section li.task-row, li.ceiling-row');
    if (row) {
      const r = row.getBoundingClientRect();
      const hit = r.width > 0 && r.height > 0 && r.top < innerHeight &&
        row.contains(document.elementFromPoint(r.left + Math.min(r.width / 2, 200), r.top + r.height / 2));
      if (hit) { window.__bench.firstRow = performance.now(); return; }
    }
    requestAnimationFrame(check);
  }
  requestAnimationFrame(check);
})();
"""

# Runs `action` (a function body) and resolves with the time from `start` (the event's
# timeStamp, or performance.now() before the action) to the first frame after `done()`.
UNTIL = """
const [action, done, timeout] = [arguments[0], arguments[1], arguments[2]];
const callback = arguments[arguments.length - 1];
const isDone = new Function(done);
let start = null;
const stamp = (event) => { if (start === null) start = event.timeStamp; };
for (const type of ['pointerdown', 'keydown', 'click']) document.addEventListener(type, stamp, {capture: true, once: true});
const t0 = performance.now();
new Function(action)();
if (start === null) start = t0;
const limit = performance.now() + timeout;
function frame() {
  if (isDone()) {
    requestAnimationFrame(() => callback(performance.now() - start));
  } else if (performance.now() > limit) {
    callback(-1);
  } else {
    requestAnimationFrame(frame);
  }
}
frame();
"""

FETCH = """
const [method, path, body] = [arguments[0], arguments[1], arguments[2]];
const callback = arguments[arguments.length - 1];
const t = performance.now();
fetch('/api/v1' + path, {method, credentials: 'same-origin', cache: 'no-store',
  headers: Object.assign({'X-Requested-With': 'slate', 'Accept': 'application/json'}, body ? {'Content-Type': 'application/json'} : {}),
  body: body ? JSON.stringify(body) : undefined})
  .then(r => r.text()).then(() => callback(performance.now() - t), () => callback(-1));
"""


def median(values):
    good = [v for v in values if v is not None and v >= 0]
    return round(statistics.median(good), 1) if good else None


def summary(values):
    good = sorted(v for v in values if v is not None and v >= 0)
    return {
        "median_ms": median(values),
        "min_ms": round(good[0], 1) if good else None,
        "max_ms": round(good[-1], 1) if good else None,
        "runs": len(values),
        "failed_runs": len(values) - len(good),
    }


def requests_since(driver, window_ms):
    """The API requests of the last measured interaction (those that started within the
    last window_ms + 50 ms): what the app asked the server for, and how long each took."""
    return driver.execute_script("""
        const since = performance.now() - arguments[0] - 50;
        return performance.getEntriesByType('resource')
          .filter(e => e.name.includes('/api/v1/') && e.startTime >= since && !e.name.includes('/events'))
          .map(e => ({path: new URL(e.name).pathname + new URL(e.name).search,
                      started_ms: Math.round(e.startTime - since), duration_ms: Math.round(e.duration)}));""", window_ms)


def first_request(requests, fallback):
    """The path (under /api/v1) of the first request the app sent for the interaction: the
    ceiling is that same request, bare."""
    if not requests:
        return fallback
    path = min(requests, key=lambda r: r["started_ms"])["path"]
    return path[len("/api/v1"):] if path.startswith("/api/v1") else fallback


def requests_per_change(driver, api, base, list_a, list_b, runs):
    """API requests the page makes (the event stream aside) from a change until it has
    applied it (its live revision reached the change's), per kind of change."""
    driver.get(base + f"/?list={list_a['id']}&status=all")
    wait_for(driver, lambda d: d.execute_script("return window.slate && window.slate.live && window.slate.live.revision !== null"), timeout=30)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#active-section li.task-row"), timeout=30)
    driver.execute_script("performance.setResourceTimingBufferSize(100000);")

    def counted(change):
        mark = driver.execute_script("return performance.now()")
        revision = change()
        wait_for(driver, lambda d: (d.execute_script("return window.slate.live.revision") or 0) >= revision, timeout=10)
        # The requests a change starts are sent by the time it is applied; let their entries land.
        wait_for(driver, lambda d: d.execute_script(
            "return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0] && e.responseEnd === 0).length === 0", mark))
        time.sleep(0.15)  # a re-read the change started may still be in flight: counted below
        return driver.execute_script(
            "return performance.getEntriesByType('resource').filter(e => e.startTime >= arguments[0] && e.name.includes('/api/v1/')"
            " && !e.name.includes('/api/v1/events')).map(e => new URL(e.name).pathname + new URL(e.name).search)", mark)

    def remote(method, path, body):
        _, headers = api.call(method, path, body, want_headers=True)
        return int(headers["Slate-Change"])

    shown = driver.execute_script("return [...document.querySelectorAll('#active-section li.task-row')].slice(0, 3).map(r => r.dataset.id)")
    kinds = {"remote rename (row in view)": [], "remote complete (row moves)": [], "remote add to another list": [],
             "own complete tap": []}
    def undo_quietly(method, path, body):
        # Puts the row back, and waits until the page has applied that too (not counted).
        revision = remote(method, path, body)
        wait_for(driver, lambda d: (d.execute_script("return window.slate.live.revision") or 0) >= revision, timeout=10)
        time.sleep(0.15)

    for i in range(runs):
        task = shown[i % len(shown)]
        title = api.task(task)["title"]
        kinds["remote rename (row in view)"].append(counted(lambda: remote("PATCH", f"/tasks/{task}", {"title": title + " ·"})))
        undo_quietly("PATCH", f"/tasks/{task}", {"title": title})
        kinds["remote complete (row moves)"].append(counted(lambda: remote("PATCH", f"/tasks/{task}", {"isCompleted": True})))
        undo_quietly("PATCH", f"/tasks/{task}", {"isCompleted": False})
        kinds["remote add to another list"].append(counted(lambda: remote("POST", "/tasks", {"title": "bench", "listId": list_b["id"]})))
    for task_id in [t["id"] for t in api.tasks(f"list={list_b['id']}&search=bench") if t["title"] == "bench"]:
        undo_quietly("DELETE", f"/tasks/{task_id}", None)
    # Own: the tap on a row's circle (its PATCH is the change; what else is read).
    for i in range(runs):
        task = shown[0]
        wait_for(driver, lambda d: d.execute_script(
            f"const b = document.querySelector('#active-section li.task-row[data-id=\"{task}\"] button.complete-toggle'); return !!b;"), timeout=10)
        def tap():
            driver.execute_script(f"document.querySelector('#active-section li.task-row[data-id=\"{task}\"] button.complete-toggle').click();")
            wait_until_done = time.monotonic() + 5
            while not api.task(task)["isCompleted"] and time.monotonic() < wait_until_done:
                time.sleep(0.02)
            _, headers = api.call("GET", f"/tasks/{task}", want_headers=True)
            return int(headers["ETag"].strip('"').lstrip("r"))
        kinds["own complete tap"].append([r for r in counted(tap) if not r.startswith(f"/api/v1/tasks/{task}")])
        undo_quietly("PATCH", f"/tasks/{task}", {"isCompleted": False})
    return {kind: {"median": statistics.median(len(r) for r in lists), "max": max(len(r) for r in lists),
                   "example": lists[-1]} for kind, lists in kinds.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--tasks", type=int, default=10000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    api = API(args.base, token=args.token)
    runs = args.runs

    lists = sorted(api.lists(), key=lambda l: -l["activeCount"])
    list_a, list_b = lists[0], lists[1]
    first_of = lambda query: api.get(f"/tasks?{query}&status=active&limit=1")["tasks"][0]["id"]
    first_a = first_of(f"list={list_a['id']}")
    first_b = first_of(f"list={list_b['id']}")
    word = "storyboard"
    word_first = first_of(f"scope=all&search={word}")
    total = api.get("/tasks?scope=all&status=all&limit=1")["total"]

    driver = make_driver()
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_ROW})
    results = {"tasks": total, "runs": runs, "browser": driver.capabilities.get("browserVersion")}
    try:
        driver.get(args.base + "/")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form#login") or d.find_elements(By.CSS_SELECTOR, "li.task-row"), timeout=30)
        if driver.find_elements(By.CSS_SELECTOR, "form#login") and driver.find_element(By.CSS_SELECTOR, "form#login").is_displayed():
            sign_in(driver, args.base, "local", args.password)

        def load(url):
            driver.get(url)
            return wait_for(driver, lambda d: d.execute_script("return window.__bench && window.__bench.firstRow"), timeout=30)

        # 1. Navigation → first task row interactive (the app), beside the static page.
        load(args.base + "/?view=all")  # warm: service worker installed, caches filled
        app, app_long, ceiling, api_first = [], [], [], []
        for _ in range(runs):
            app.append(load(args.base + "/?view=all"))
            app_long.append(driver.execute_script("return window.__bench.longTasks"))
            api_first.append(driver.execute_script(
                "const e = performance.getEntriesByType('resource').find(e => e.name.includes('/api/v1/tasks'));"
                "return e ? e.responseEnd - e.startTime : null;"))
        load(args.base + "/ceiling.html")
        for _ in range(runs):
            ceiling.append(load(args.base + "/ceiling.html"))
        results["first_interactive"] = {
            "app": summary(app),
            "app_long_tasks_ms": median(app_long),
            "app_first_tasks_request_ms": median(api_first),
            "ceiling_static_page": summary(ceiling),
            "target_ms": 500,
        }

        # 2. List switch: click a list in the sidebar → its first task shown.
        load(args.base + f"/?list={list_b['id']}")
        switch = []
        for i in range(runs):
            target, first = (list_a, first_a) if i % 2 == 0 else (list_b, first_b)
            switch.append(driver.execute_async_script(
                UNTIL,
                f"document.querySelector('a.nav-item[data-list-id=\"{target['id']}\"]').click();",
                f"const r = document.querySelector('#active-section li.task-row');"
                f"return r && r.dataset.id === '{first}' && document.querySelector('#view-title').textContent.trim() === {json.dumps(target['name'])};",
                5000))
        results["list_switch_requests"] = requests_since(driver, switch[-1])
        raw_list = [driver.execute_async_script(FETCH, "GET", first_request(results["list_switch_requests"],
                    f"/tasks?status=active&list={list_b['id'] if runs % 2 == 0 else list_a['id']}&limit=60"), None) for _ in range(runs)]
        results["list_switch"] = {"app": summary(switch), "ceiling_raw_api": summary(raw_list), "target_ms": 100}

        # 3. Search keystroke → list updated. The field holds "storyboard"; one keystroke
        # adds "z" (no match: the empty state names the term), the next removes it again.
        load(args.base + "/?view=all")
        search = driver.find_element(By.CSS_SELECTOR, "input#search")
        search.send_keys(word)
        wait_for(driver, lambda d: d.execute_script(
            f"const r = document.querySelector('#active-section li.task-row'); return r && r.dataset.id === '{word_first}'"), timeout=10)
        keystroke = []
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        for i in range(runs * 2):
            adding = i % 2 == 0
            done = (f"const e = document.querySelector('.empty-state'); return !!e && !e.hidden && e.getClientRects().length > 0 && e.textContent.includes('{word}z');"
                    if adding else
                    f"const r = document.querySelector('#active-section li.task-row'); return !!r && r.dataset.id === '{word_first}' && r.getClientRects().length > 0;")
            # Start the frame watcher, then press the key from the driver (no round trip inside:
            # the page stamps the keydown's own timeStamp).
            driver.execute_script("window.__kdone = null; window.__kstart = null;"
                                  "document.addEventListener('keydown', e => { window.__kstart = e.timeStamp; }, {capture: true, once: true});"
                                  "const isDone = new Function(arguments[0]);"
                                  "const limit = performance.now() + 5000;"
                                  "(function frame() { if (window.__kstart !== null && isDone()) requestAnimationFrame(() => { window.__kdone = performance.now() - window.__kstart; });"
                                  " else if (performance.now() > limit) window.__kdone = -1; else requestAnimationFrame(frame); })();", done)
            ActionChains(driver).send_keys_to_element(search, "z" if adding else Keys.BACKSPACE).perform()
            keystroke.append(wait_for(driver, lambda d: d.execute_script("return window.__kdone"), timeout=10))
        results["search_keystroke_requests"] = requests_since(driver, keystroke[-1])
        raw_search = [driver.execute_async_script(FETCH, "GET", first_request(results["search_keystroke_requests"],
                      f"/tasks?status=active&search={word}&limit=60"), None) for _ in range(runs)]
        results["search_keystroke"] = {"app": summary(keystroke), "ceiling_raw_api": summary(raw_search), "target_ms": 50}

        # 4. Complete tap → row updated (done), then the reopen tap, alternately.
        load(args.base + f"/?list={list_a['id']}&status=all")
        target = first_a
        wait_for(driver, lambda d: d.execute_script(f"return !!document.querySelector('li.task-row[data-id=\"{target}\"] button.complete-toggle')"),
                 timeout=10, message=f"no row for {target} in {driver.current_url}: " + str(driver.execute_script(
                     "return [location.href, document.querySelector('#search').value, [...document.querySelectorAll('li.task-row')].slice(0,3).map(r => r.dataset.id)]")))
        complete = []
        for i in range(runs):
            wait_for(driver, lambda d: d.execute_script(
                f"const b = document.querySelector('#active-section li.task-row[data-id=\"{target}\"] button.complete-toggle');"
                "return !!b && b.getAttribute('aria-pressed') === 'false';"), timeout=10, message="the row is not back in Active")
            time.sleep(0.2)  # settled
            complete.append(driver.execute_async_script(
                UNTIL,
                f"document.querySelector('#active-section li.task-row[data-id=\"{target}\"] button.complete-toggle').click();",
                f"const r = document.querySelector('li.task-row[data-id=\"{target}\"]');"
                f"return !!r && r.querySelector('button.complete-toggle').getAttribute('aria-pressed') === 'true';",
                5000))
            # The server has it; then reopen through the API (not measured) for the next tap.
            deadline = time.monotonic() + 5
            while not api.task(target)["isCompleted"] and time.monotonic() < deadline:
                time.sleep(0.02)
            api.patch(f"/tasks/{target}", {"isCompleted": False})
        raw_patch = [driver.execute_async_script(FETCH, "PATCH", f"/tasks/{target}", {"isFlagged": i % 2 == 0}) for i in range(runs)]
        results["complete_tap"] = {"app": summary(complete), "ceiling_raw_api": summary(raw_patch)}

        # 5. Requests per live change: what the page asks the server for after a change
        # made elsewhere (through the API, as another device would), and after its own.
        results["requests_per_change"] = requests_per_change(driver, api, args.base, list_a, list_b, runs)
    finally:
        driver.quit()

    pathlib.Path(args.out).write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    rows = [
        ("navigation → first row interactive", results["first_interactive"]["app"], results["first_interactive"]["ceiling_static_page"], 500, "static page, same rows"),
        ("list switch", results["list_switch"]["app"], results["list_switch"]["ceiling_raw_api"], 100, "raw GET list"),
        ("search keystroke → list updated", results["search_keystroke"]["app"], results["search_keystroke"]["ceiling_raw_api"], 50, "raw GET search"),
        ("complete tap → row updated", results["complete_tap"]["app"], results["complete_tap"]["ceiling_raw_api"], None, "raw PATCH"),
    ]
    print(f"\nbench/web: {total} tasks, {runs} runs each (medians, ms)")
    print(f"{'measurement':38} {'app':>8} {'min':>7} {'max':>7} {'ceiling':>9}  {'target':>7}  met")
    for name, app_s, ceiling_s, target, what in rows:
        met = "—" if target is None or app_s["median_ms"] is None else ("yes" if app_s["median_ms"] < target else "NO")
        print(f"{name:38} {app_s['median_ms']!s:>8} {app_s['min_ms']!s:>7} {app_s['max_ms']!s:>7} {ceiling_s['median_ms']!s:>9}  "
              f"{('<' + str(target)) if target else '':>7}  {met}   ({what}; failed runs: {app_s['failed_runs']})")
    print("requests per live change (target ≤ 2 for a remote change; the own tap excludes its PATCH):")
    for kind, figures in results["requests_per_change"].items():
        print(f"  {kind:34} median {figures['median']}, max {figures['max']}   e.g. {'; '.join(p[:50] for p in figures['example'])}")
    for key in ("list_switch_requests", "search_keystroke_requests"):
        print(key.replace("_", " ") + ":", "; ".join(f"{r['path'][:60]}… {r['duration_ms']} ms (started {r['started_ms']} ms into the window)" for r in results[key]))
    print(f"first page load: long tasks {results['first_interactive']['app_long_tasks_ms']} ms, "
          f"first /api/v1/tasks request {results['first_interactive']['app_first_tasks_request_ms']} ms")


if __name__ == "__main__":
    main()
