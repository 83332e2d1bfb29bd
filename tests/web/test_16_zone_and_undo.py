"""Quick entry in the user's time zone, and a toast's Undo that reverts its own change
(issue 9). The server runs in UTC (scripts/web-test); the browser is put in New York."""

import pytest
from selenium.webdriver.common.keys import Keys

from slate_web import By, unique, visible, wait_for, wait_no_row, wait_row, wait_until


@pytest.fixture
def new_york(page):
    page.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
    try:
        page.open("view=all")  # the app reads its zone as it loads
        assert page.js("return Intl.DateTimeFormat().resolvedOptions().timeZone") == "America/New_York"
        yield page
    finally:
        page.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})


def test_fri_5pm_is_5pm_where_the_user_is(new_york):
    page = new_york
    title = unique("Call the studio")
    entry = visible(page.driver, "input#quick-entry")
    entry.send_keys(f"{title} fri 5pm")
    chip = wait_for(page.driver, lambda d: next((c for c in d.find_elements(By.CSS_SELECTOR, '#quick-chips .chip[data-kind="due"]')
                                                 if c.text.strip()), None), message="no due-date chip")
    assert "5:00 PM" in chip.text, f"the chip says {chip.text!r} (read in the server's zone?)"
    entry.send_keys(Keys.ENTER)
    task = wait_until(lambda: next((t for t in page.api.tasks("scope=all") if t["title"] == title), None),
                      message="Enter did not add the task")
    try:
        local = page.js("""return new Date(arguments[0]).toLocaleString('en-US', {timeZone: 'America/New_York',
            weekday: 'short', hour: 'numeric', minute: '2-digit'});""", task["due"])
        assert local == "Fri 5:00 PM", f"due {task['due']} is {local} in New York"
        row = wait_row(page.driver, task["id"])
        assert "5:00 PM" in row.find_element(By.CSS_SELECTOR, ".task-due").text
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_the_toasts_undo_reverts_its_delete_even_after_another_change(page):
    gone_task = page.api.add_task(unique("Deleted here"))
    other = page.api.add_task(unique("Changed elsewhere"))
    try:
        page.open("view=all")
        wait_row(page.driver, gone_task["id"])
        page.js("window.slate.remove(window.slate.taskList.row(arguments[0]).task)", gone_task["id"])
        toast = visible(page.driver, "#toast")
        wait_until(lambda: page.api.task_or_none(gone_task["id"]) is None, message="the task was not deleted")
        # Another device changes something before the user presses Undo.
        page.api.patch(f"/tasks/{other['id']}", {"title": other["title"] + " (theirs)"})
        toast.find_element(By.CSS_SELECTOR, "button.toast-undo").click()
        wait_until(lambda: page.api.task_or_none(gone_task["id"]) is not None, message="Undo did not bring the deleted task back")
        assert page.api.task(other["id"])["title"] == other["title"] + " (theirs)", "Undo reverted the other device's change"
        wait_row(page.driver, gone_task["id"])
    finally:
        for task in (gone_task, other):
            if page.api.task_or_none(task["id"]):
                page.api.delete(f"/tasks/{task['id']}")
