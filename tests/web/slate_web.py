"""Helpers shared by the browser tests, the screenshots and bench/web: the REST API client,
the headless chromium, and waiting for the web app.

Everything the tests touch in the page goes through the DOM contract of the web app
(ids and classes such as ``#quick-entry`` or ``li.task-row[data-id]``)."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
import uuid

from selenium import webdriver
from selenium.common.exceptions import (
    JavascriptException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# How long a wait gives its condition before failing; a wait ends as soon as the condition
# holds, so a longer deadline costs nothing when things work. 4 s was too short for a full
# page load on a 2-core VM now and then (a fresh-clone `make test` of 2026-12-07 failed once
# on "the app did not show a view", and passed the two reruns).
WAIT = float(os.environ.get("WEB_TEST_WAIT", "10"))
DESKTOP = (1280, 800)
PHONE = (390, 844)


# ---------------------------------------------------------------------------------------
# The REST API, as a second client (bearer token).


class APIError(Exception):
    def __init__(self, status, body, headers):
        super().__init__(f"HTTP {status}: {body[:300]!r}")
        self.status = status
        self.body = body
        self.headers = headers


class API:
    """A tiny client of /api/v1 with a bearer token (or a cookie)."""

    def __init__(self, base: str, token: str | None = None, cookie: str | None = None):
        self.base = base.rstrip("/")
        self.token = token
        self.cookie = cookie

    def call(self, method: str, path: str, body=None, headers=None, want_headers=False):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + "/api/v1" + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", "Bearer " + self.token)
        if self.cookie:
            request.add_header("Cookie", self.cookie)
            request.add_header("X-Requested-With", "slate")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read().decode()
                result = json.loads(raw) if raw else None
                return (result, dict(response.headers)) if want_headers else result
        except urllib.error.HTTPError as error:
            raise APIError(error.code, error.read().decode(errors="replace"), dict(error.headers)) from None

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.call("POST", path, body if body is not None else {}, **kw)

    def patch(self, path, body, **kw):
        return self.call("PATCH", path, body, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)

    # Conveniences
    def task(self, task_id):
        return self.get(f"/tasks/{task_id}")

    def task_or_none(self, task_id):
        try:
            return self.task(task_id)
        except APIError as error:
            if error.status == 404:
                return None
            raise

    def add_task(self, title, **fields):
        return self.post("/tasks", dict(title=title, **fields))

    def add_list(self, name, **fields):
        return self.post("/lists", dict(name=name, **fields))

    def lists(self):
        result = self.get("/lists")
        return result["lists"] if isinstance(result, dict) else result

    def tasks(self, query=""):
        """Every task of a query (follows the cursor)."""
        tasks, cursor = [], None
        while True:
            sep = "&" if query else ""
            path = f"/tasks?{query}{sep}limit=500" + (f"&cursor={urllib.request.quote(cursor)}" if cursor else "")
            page = self.get(path)
            tasks += page["tasks"]
            cursor = page.get("nextCursor")
            if not cursor:
                return tasks


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:6]}"


# ---------------------------------------------------------------------------------------
# The browser.

# Records, from the first script of every document, what a test must be able to see
# afterwards: alert() calls and Content-Security-Policy violations.
RECORDER = """
window.__slateTest = {alerts: [], csp: []};
window.alert = function (message) { window.__slateTest.alerts.push(String(message)); };
document.addEventListener('securitypolicyviolation', function (event) {
  window.__slateTest.csp.push(event.violatedDirective + ' ' + event.blockedURI);
});
"""


def make_driver(width=DESKTOP[0], height=DESKTOP[1], record=True, back_forward_cache=False):
    """Headless system chromium. The back/forward cache is off unless asked for: the tests
    load the app hundreds of times with driver.get, which a person never does, and every
    cached page keeps its live event stream open (see test_11_navigation.py, which checks
    exactly that with the cache on)."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--lang=en-US",
        *([] if back_forward_cache else ["--disable-features=BackForwardCache"]),
        *os.environ.get("WEB_TEST_CHROMIUM_ARGS", "").split(),
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    # The window size of a headless browser includes no chrome; make the viewport exact.
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    if record:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    return driver


def set_desktop(driver, width=DESKTOP[0], height=DESKTOP[1]):
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    driver.execute_cdp_cmd("Emulation.setEmitTouchEventsForMouse", {"enabled": False})
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def set_phone(driver, width=PHONE[0], height=PHONE[1]):
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def set_color_scheme(driver, scheme: str | None):
    features = [{"name": "prefers-color-scheme", "value": scheme}] if scheme else []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": features})


def set_offline(driver, offline: bool):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


# ---------------------------------------------------------------------------------------
# Waiting.


def wait_for(driver, condition, timeout=None, message=""):
    """Waits until condition(driver) is truthy and returns it; stale elements retry."""
    return WebDriverWait(
        driver,
        WAIT if timeout is None else timeout,
        poll_frequency=0.05,
        ignored_exceptions=(StaleElementReferenceException, NoSuchElementException, JavascriptException),
    ).until(condition, message)


def visible(driver, css, timeout=None):
    def find(d):
        for element in d.find_elements(By.CSS_SELECTOR, css):
            if element.is_displayed():
                return element
        return None

    return wait_for(driver, find, timeout, f"no visible {css}")


def is_visible(driver, css):
    return any(e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, css))


def gone(driver, css, timeout=None):
    return wait_for(driver, lambda d: not is_visible(d, css), timeout, f"{css} still visible")


def row(driver, task_id):
    return driver.find_element(By.CSS_SELECTOR, f'li.task-row[data-id="{task_id}"]')


def wait_row(driver, task_id, timeout=None):
    return wait_for(
        driver,
        lambda d: d.find_elements(By.CSS_SELECTOR, f'li.task-row[data-id="{task_id}"]'),
        timeout,
        f"no row for task {task_id}",
    )[0]


def wait_no_row(driver, task_id, timeout=None):
    wait_for(
        driver,
        lambda d: not d.find_elements(By.CSS_SELECTOR, f'li.task-row[data-id="{task_id}"]'),
        timeout,
        f"row for task {task_id} still shown",
    )


def row_ids(driver, section="#active-section"):
    # Read in one script, not element by element: a live change that redraws the section
    # between two reads would leave a stale element behind.
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.getAttribute('data-id'))",
        f"{section} li.task-row",
    )


def app_ready(driver):
    """The app shows a view: its title is set and it shows rows or an empty state."""
    return driver.execute_script(
        """
        const app = document.querySelector('#app');
        const title = document.querySelector('#view-title');
        if (!app || !title || app.hidden || !app.offsetParent && getComputedStyle(app).position !== 'fixed') return false;
        if (!title.textContent.trim()) return false;
        const shown = (e) => e && !e.hidden && e.getClientRects().length > 0;
        return [...document.querySelectorAll('li.task-row, .empty-state, section#stats')].some(shown);
        """
    )


def wait_until(predicate, timeout=None, message="condition not met", interval=0.05):
    """Polls a Python predicate (e.g. an API read) until truthy; returns its value."""
    deadline = time.monotonic() + (WAIT if timeout is None else timeout)
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutException(message)
        time.sleep(interval)


def touch_swipe(driver, element, dx, steps=8, dy=0, start_fraction=0.5):
    """A one-finger swipe across element by dx CSS pixels, as touch events (CDP)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    rect = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", element
    )
    x0 = rect[0] + rect[2] * start_fraction
    y0 = rect[1] + rect[3] / 2
    send = lambda kind, x, y: driver.execute_cdp_cmd(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]},
    )
    send("touchStart", x0, y0)
    for i in range(1, steps + 1):
        send("touchMove", x0 + dx * i / steps, y0 + dy * i / steps)
        time.sleep(0.016)
    send("touchEnd", x0 + dx, y0 + dy)


def touch_drag(driver, source, target, hold=0.6, steps=12, fraction=0.25):
    """A finger pressing on source, holding (a long press, as touch reordering needs), then
    moving to `fraction` of target's height and lifting (CDP touch events)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", source)
    (x0, y0), (x1, y1) = driver.execute_script(
        """const [a, b, f] = arguments; const r = a.getBoundingClientRect(), t = b.getBoundingClientRect();
           return [[r.left + r.width / 2, r.top + r.height / 2], [r.left + r.width / 2, t.top + t.height * f]];""",
        source, target, fraction)
    send = lambda kind, x, y: driver.execute_cdp_cmd(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 3}]},
    )
    send("touchStart", x0, y0)
    time.sleep(hold)
    for i in range(1, steps + 1):
        send("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        time.sleep(0.02)
    send("touchEnd", x1, y1)


def touch_tap(driver, element):
    """A finger tap in the middle of element: touch events (CDP), then the click a tap
    makes. Headless chromium runs the touch and pointer events of a CDP tap but does not
    follow them with the click a real tap produces, so that click is dispatched when the
    tap alone made none (at the element the finger was on)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'});", element)
    x, y = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
        element,
    )
    driver.execute_script(
        "window.__slateTap = false; document.addEventListener('click', () => { window.__slateTap = true; }, {capture: true, once: true});"
    )
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 2}]})
    time.sleep(0.05)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    time.sleep(0.1)
    driver.execute_script(
        """if (!window.__slateTap) {
             const target = document.elementFromPoint(arguments[0], arguments[1]);
             if (target) target.click();
           }""",
        x, y,
    )


__all__ = [
    "API", "APIError", "By", "DESKTOP", "PHONE", "TimeoutException", "WAIT", "WebDriverException",
    "app_ready", "gone", "is_visible", "make_driver", "row", "row_ids", "set_color_scheme",
    "set_desktop", "set_offline", "set_phone", "touch_drag", "touch_swipe", "touch_tap", "unique", "visible",
    "wait_for", "wait_no_row", "wait_row", "wait_until",
]
