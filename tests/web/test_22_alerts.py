"""Alerts on an open page: the server's `alert` event becomes a banner (this browser has not
allowed notifications) whose Complete and Snooze act on the task."""

from datetime import datetime, timedelta, timezone

from selenium.webdriver.common.by import By

from slate_web import unique, visible, wait_for


def due_in(seconds):
    moment = datetime.now(timezone.utc) + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def banner_button(banner, label):
    return next(b for b in banner.find_elements(By.CSS_SELECTOR, "button") if b.text == label)


def test_an_alert_shows_a_banner_whose_complete_completes_the_task(page):
    title = unique("Alert <b>me</b>")
    task = page.api.add_task(title, due=due_in(2), alerts=["due"])
    try:
        banner = visible(page.driver, f'.alert-banner[data-task-id="{task["id"]}"]', timeout=15)
        assert banner.find_element(By.CSS_SELECTOR, ".alert-title").text == title, "the title is shown as text"
        assert not banner.find_elements(By.CSS_SELECTOR, ".alert-title b"), "a title is never read as HTML"
        banner_button(banner, "Complete").click()
        wait_for(page.driver, lambda d: page.api.task(task["id"])["isCompleted"], message="Complete completed the task")
        wait_for(page.driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'.alert-banner[data-task-id="{task["id"]}"]'),
                 message="the banner goes once acted on")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_snooze_from_the_banner_puts_the_alert_off(page):
    task = page.api.add_task(unique("Snooze me"), due=due_in(2), alerts=["due"])
    try:
        banner = visible(page.driver, f'.alert-banner[data-task-id="{task["id"]}"]', timeout=15)
        banner_button(banner, "1 hour").click()

        def snoozed(_):
            upcoming = {a["taskId"]: a for a in page.api.get("/alerts")["alerts"]}
            return upcoming.get(task["id"], {}).get("snoozed")

        wait_for(page.driver, snoozed, message="the alert is snoozed")
        assert not page.api.task(task["id"])["isCompleted"]
    finally:
        page.api.delete(f"/tasks/{task['id']}")
