"""Live updates that cost what changed (issue 9): the tab's own change reads no task (its
answer had it), a change made elsewhere reads only what changed (one GET /changes with the
counts), the sidebar's counts follow without one request per smart list, and a `resync`
event (the server could not keep up with the stream) re-reads everything."""

from selenium.webdriver.common.by import By

from slate_web import unique, wait_for, wait_row, wait_until

# The API requests the page made after the mark (performance entries are never cleared by
# the app); the event stream itself is left out.
REQUESTS = """
const since = window.__slateMark || 0;
return performance.getEntriesByType('resource')
  .filter(e => e.name.includes('/api/v1/') && !e.name.includes('/api/v1/events') && e.startTime >= since)
  .map(e => new URL(e.name).pathname + new URL(e.name).search);
"""


def mark(page):
    page.js("performance.setResourceTimingBufferSize(5000); window.__slateMark = performance.now();")


def requests(page):
    return page.js(REQUESTS)


def live_at(page, revision):
    """Waits until the tab has applied every change up to `revision`."""
    wait_for(page.driver, lambda d: (d.execute_script("return window.slate.live.revision") or 0) >= revision,
             message=f"the tab never reached revision {revision}")


def revision_of(result_headers):
    return int(result_headers["ETag"].strip('"').lstrip("r"))


def settled_view(page, query):
    page.open(query)
    # The first counts have arrived and the live stream said hello.
    wait_for(page.driver, lambda d: d.execute_script("return window.slate.live.revision !== null"))
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, 'a.nav-item[data-view="all"] .nav-count').text.strip())


def test_the_tabs_own_change_reads_no_task(page):
    task = page.api.add_task(unique("Own change"))
    try:
        settled_view(page, "view=all")
        row = wait_row(page.driver, task["id"])
        page.js("window.slate.taskList.select(arguments[0]); arguments[1].focus();", task["id"], row)
        mark(page)
        row.send_keys("f")  # the keyboard's Flag on the selected row
        wait_until(lambda: page.api.task(task["id"])["isFlagged"], message="the flag was not saved")
        _, headers = page.api.get(f"/tasks/{task['id']}", want_headers=True)
        live_at(page, revision_of(headers))
        wait_for(page.driver, lambda d: any("/api/v1/counts" in r for r in requests(page)), message="the counts were not read")
        made = requests(page)
        # The PATCH itself, and the counts: no page of tasks, no /changes.
        assert sorted(made) == ["/api/v1/counts", f"/api/v1/tasks/{task['id']}"], f"the tab's own change made {made}"
        assert wait_row(page.driver, task["id"]).find_elements(By.CSS_SELECTOR, ".flag-marker")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_a_remote_change_reads_only_what_changed_and_the_counts(page):
    task = page.api.add_task(unique("Remote rename"))
    try:
        settled_view(page, "view=all")
        wait_row(page.driver, task["id"])
        flagged_before = int(page.css('a.nav-item[data-view="flagged"] .nav-count').text)
        mark(page)
        _, headers = page.api.patch(f"/tasks/{task['id']}", {"title": task["title"] + " (renamed)", "isFlagged": True},
                                    want_headers=True)
        live_at(page, revision_of(headers))
        wait_for(page.driver, lambda d: d.find_element(
            By.CSS_SELECTOR, f'li.task-row[data-id="{task["id"]}"] .task-title').text == task["title"] + " (renamed)")
        wait_for(page.driver, lambda d: int(d.find_element(By.CSS_SELECTOR, 'a.nav-item[data-view="flagged"] .nav-count').text)
                 == flagged_before + 1, message="the Flagged count did not follow")
        made = requests(page)
        assert len(made) == 1 and made[0].startswith("/api/v1/changes?since="), f"a remote rename made {made}"
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_a_remote_change_that_moves_a_task_costs_at_most_two_requests(page):
    task = page.api.add_task(unique("Remote complete"))
    try:
        settled_view(page, "view=all&status=all")
        wait_row(page.driver, task["id"])
        mark(page)
        _, headers = page.api.patch(f"/tasks/{task['id']}", {"isCompleted": True}, want_headers=True)
        live_at(page, revision_of(headers))
        wait_for(page.driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#completed-section li.task-row.done[data-id="{task["id"]}"]'),
                 message="the task completed elsewhere did not move to Completed")
        made = requests(page)
        assert 1 <= len(made) <= 2, f"a remote completion made {made}"
        assert made[0].startswith("/api/v1/changes?since=")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_a_resync_event_reads_everything_again(page):
    task = page.api.add_task(unique("Missed change"))
    try:
        settled_view(page, "view=all")
        wait_row(page.driver, task["id"])
        # The stream stops delivering (as when the server dropped this subscriber's events)…
        page.js("window.__slateSource = window.slate.live.source; window.__slateSource.close();")
        renamed = task["title"] + " (missed)"
        page.api.patch(f"/tasks/{task['id']}", {"title": renamed})
        assert page.css(f'li.task-row[data-id="{task["id"]}"] .task-title').text == task["title"]
        # …then says so: the app reads everything again.
        page.js("window.__slateSource.dispatchEvent(new MessageEvent('resync', {data: '{}'}));")
        wait_for(page.driver, lambda d: d.find_element(
            By.CSS_SELECTOR, f'li.task-row[data-id="{task["id"]}"] .task-title').text == renamed,
                 message="a resync event did not re-read the tasks")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_typing_in_the_detail_reads_nothing_back(page):
    task = page.api.add_task(unique("Typed in the detail"))
    try:
        settled_view(page, f"view=all&task={task['id']}")
        title = wait_for(page.driver, lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, "#detail-title")
                                                      if e.get_attribute("value") == task["title"]), None))
        mark(page)
        title.send_keys(" now")
        wait_until(lambda: page.api.task(task["id"])["title"] == task["title"] + " now", message="the title was not saved")
        _, headers = page.api.get(f"/tasks/{task['id']}", want_headers=True)
        live_at(page, revision_of(headers))
        wait_for(page.driver, lambda d: any("/api/v1/counts" in r for r in requests(page)), message="the counts were not read")
        made = requests(page)
        # One PATCH (the same address as a GET would be: one entry only), and the counts.
        assert sorted(made) == ["/api/v1/counts", f"/api/v1/tasks/{task['id']}"], f"saving from the detail made {made}"
    finally:
        page.api.delete(f"/tasks/{task['id']}")
