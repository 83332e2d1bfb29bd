"""Leaving the app and coming back, with chromium's back/forward cache on (as for anyone).

A page kept in the back/forward cache keeps its connections unless the app closes them on
`pagehide`; an open live event stream (GET /api/v1/events) is one of the six connections
chromium allows per server, so a few visits away and back used to leave the app unable to
save anything (requests wait for a free connection)."""

import time

from conftest import sign_in
from slate_web import API, By, app_ready, make_driver, unique, wait_for, wait_row, wait_until

FETCH = """
const done = arguments[arguments.length - 1];
const start = performance.now();
const timer = setTimeout(() => done(-1), 5000);
fetch('/api/v1/session', {credentials: 'same-origin', cache: 'no-store'})
  .then(() => { clearTimeout(timer); done(performance.now() - start); }, () => done(-2));
"""


def test_pages_left_for_the_back_forward_cache_release_their_live_connection(env, api):
    driver = make_driver(back_forward_cache=True)
    try:
        driver.set_script_timeout(10)
        driver.get(env.base + "/")
        wait_for(driver, lambda d: app_ready(d) or d.find_elements(By.CSS_SELECTOR, "form#login"))
        if not app_ready(driver):
            sign_in(driver, env.base, env.user, env.password)
        # Eight visits, each a new page (as following a link out and back, or a bookmark).
        for visit in range(8):
            driver.get(f"{env.base}/?view=all&visit={visit}")
            wait_for(driver, app_ready)
        waited = driver.execute_async_script(FETCH)
        assert 0 <= waited < 2000, (
            "after eight page visits a request from the app waited "
            + ("over 5 s" if waited == -1 else f"{waited:.0f} ms")
            + ": earlier pages in the back/forward cache still hold their /api/v1/events connections")
        task = api.add_task(unique("After visits"))
        try:
            driver.get(f"{env.base}/?view=all&sort=created")
            wait_row(driver, task["id"]).find_element(By.CSS_SELECTOR, "button.complete-toggle").click()
            wait_until(lambda: api.task(task["id"])["isCompleted"], timeout=3,
                       message="completing a task after a few page visits did not reach the server")
        finally:
            api.delete(f"/tasks/{task['id']}")
    finally:
        driver.quit()
