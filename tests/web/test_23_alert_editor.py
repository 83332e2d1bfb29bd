"""The alert editors: the detail pane and the task form add, change and remove a task's alerts
(at the due time, N minutes/hours/days before, days before at a time, a fixed moment);
Settings → Alerts sets the account's default alerts, the email address, a webhook (its
secret shown once), lists and removes push devices and sends a test alert. Keyboard only
where a person would use the keyboard; phone and desktop sizes; axe clean."""

import base64
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from slate_web import is_visible, set_desktop, set_phone, unique, visible, wait_for, wait_until
from test_10_safety_pwa_a11y import describe, run_axe, serious


def choose(page, select, value):
    page.js("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));", select, value)


def set_value(page, field, value):
    page.js("const i = arguments[0]; i.value = arguments[1]; i.dispatchEvent(new Event('input', {bubbles: true}));", field, value)


def listed(page, host):
    return [item.get_attribute("data-alert") for item in page.all(f"{host} li.alert-item")]


def saved_alerts(page, task_id):
    return page.api.task(task_id)["alerts"]


def test_the_detail_pane_adds_changes_and_removes_alerts(page):
    task = page.api.add_task(unique("Alert <i>editor</i>"), due="2031-03-04T15:00:00Z", alerts=["due"])
    try:
        page.open(f"view=all&task={task['id']}")
        visible(page.driver, "#detail-alerts fieldset.alert-editor")
        wait_for(page.driver, lambda d: listed(page, "#detail-alerts") == ["due"], message="the task's alert is listed")
        assert page.css("#detail-alerts .alert-text").text == "At the due time"

        # 2 hours before, typed and added with Enter (keyboard only).
        choose(page, page.css("#detail-alert-kind"), "before")
        count = page.css("#detail-alert-count")
        count.clear()
        count.send_keys("2")
        choose(page, page.css("#detail-alert-unit"), "h")
        count.send_keys(Keys.ENTER)
        wait_until(lambda: saved_alerts(page, task["id"]) == ["due", "2h"], message="2 hours before was not saved")

        # 1 day before at 08:30, with the Add button.
        choose(page, page.css("#detail-alert-kind"), "day")
        days = page.css("#detail-alert-days")
        days.clear()
        days.send_keys("1")
        set_value(page, page.css("#detail-alert-time"), "08:30")
        page.css("#detail-alert-add").click()
        wait_until(lambda: saved_alerts(page, task["id"]) == ["due", "2h", "1d@08:30"], message="1 day before at 08:30 was not saved")
        texts = [node.text for node in page.all("#detail-alerts .alert-text")]
        assert texts == ["At the due time", "2 hours before", "1 day before at 08:30"], texts

        # A fixed moment.
        choose(page, page.css("#detail-alert-kind"), "moment")
        set_value(page, page.css("#detail-alert-moment"), "2031-03-01T10:00")
        page.css("#detail-alert-add").click()
        wait_until(lambda: len(saved_alerts(page, task["id"])) == 4, message="the moment was not saved")
        moment = saved_alerts(page, task["id"])[3]
        assert moment.startswith("2031-03-01T"), moment

        # Remove the first one (the button names what it removes).
        remove = page.css("#detail-alerts li.alert-item button.alert-remove")
        assert remove.get_attribute("aria-label") == "Remove the alert At the due time"
        remove.click()
        wait_until(lambda: saved_alerts(page, task["id"]) == ["2h", "1d@08:30", moment], message="the removal was not saved")

        # A bad value is explained, nothing is saved.
        choose(page, page.css("#detail-alert-kind"), "before")
        count = page.css("#detail-alert-count")
        page.js("arguments[0].removeAttribute('max')", count)
        count.clear()
        count.send_keys("5000")
        page.css("#detail-alert-add").click()
        error = visible(page.driver, "#detail-alerts .alert-error")
        assert "How many" in error.text
        assert saved_alerts(page, task["id"]) == ["2h", "1d@08:30", moment]

        # Without a due date only the moment stays (as the server keeps it).
        page.js("arguments[0].click()", page.css("#detail-has-due"))
        wait_until(lambda: page.api.task(task["id"])["due"] is None, message="the due date was not cleared")
        assert saved_alerts(page, task["id"]) == [moment]
        wait_for(page.driver, lambda d: listed(page, "#detail-alerts") == [moment], message="the list shows what is kept")
        assert is_visible(page.driver, "#detail-alerts .alert-hint"), "it says why relative alerts are not offered"
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_the_form_gives_a_new_task_the_defaults_or_the_alerts_chosen(page):
    page.open("view=all")
    titles = [unique("Defaults"), unique("Chosen")]
    try:
        for title in titles:
            visible(page.driver, "button#new-task").click()
            form = visible(page.driver, "dialog#task-form")
            form.find_element(By.CSS_SELECTOR, "input[name=title]").send_keys(title)
            page.js("arguments[0].click()", form.find_element(By.CSS_SELECTOR, "input[name=hasDue]"))
            due = form.find_element(By.CSS_SELECTOR, "input[name=due]")
            page.js("const i = arguments[0]; i.value = '2031-05-06T09:30'; i.dispatchEvent(new Event('change', {bubbles: true}));", due)
            defaults = page.api.get("/alerts/settings")["timedDefaults"]
            wait_for(page.driver, lambda d: listed(page, "#task-form-alerts") == defaults,
                     message="the form shows the account's default alerts")
            if title.startswith("Chosen"):
                choose(page, page.css("#task-form-alert-kind"), "before")
                count = page.css("#task-form-alert-count")
                count.clear()
                count.send_keys("45")
                page.css("#task-form-alert-add").click()
                wait_for(page.driver, lambda d: listed(page, "#task-form-alerts") == defaults + ["45m"], message="45m is listed")
            page.css("#task-form-add").click()
            wait_for(page.driver, lambda d: not is_visible(d, "dialog#task-form"), message="the form stays open after Add")
        tasks = {t["title"]: t for t in page.api.tasks("scope=all&status=all") if t["title"] in titles}
        defaults = page.api.get("/alerts/settings")["timedDefaults"]
        assert tasks[titles[0]]["alerts"] == defaults
        assert tasks[titles[1]]["alerts"] == defaults + ["45m"]

        # Editing in the form changes them; Save sends only what changed.
        chosen = tasks[titles[1]]
        page.open(f"view=all&task={chosen['id']}")
        visible(page.driver, "button#detail-edit-form").click()
        visible(page.driver, "dialog#task-form")
        wait_for(page.driver, lambda d: listed(page, "#task-form-alerts") == defaults + ["45m"], message="the form shows the task's alerts")
        page.all("#task-form-alerts button.alert-remove")[-1].click()
        page.css("#task-form-add").click()
        wait_until(lambda: page.api.task(chosen["id"])["alerts"] == defaults, message="removing in the form was not saved")
    finally:
        for task in page.api.tasks("scope=all&status=all"):
            if task["title"] in titles:
                page.api.delete(f"/tasks/{task['id']}")


def open_alert_settings(page):
    page.open("view=all")  # signed in
    page.open("view=settings", wait_ready=False)  # on a phone the sidebar is folded away
    return visible(page.driver, "#alert-settings")


def test_settings_set_defaults_email_and_a_webhook_whose_secret_is_shown_once(page):
    before = page.api.get("/alerts/settings")
    try:
        open_alert_settings(page)
        choose(page, page.css("#defaults-timed-alert-kind"), "before")
        count = page.css("#defaults-timed-alert-count")
        count.clear()
        count.send_keys("10")
        page.css("#defaults-timed-alert-add").click()
        wait_until(lambda: page.api.get("/alerts/settings")["timedDefaults"] == before["timedDefaults"] + ["10m"],
                   message="the default alert was not saved")
        options = [o.get_attribute("value") for o in page.all("#defaults-timed-alert-kind option")]
        assert "moment" not in options, "a default alert is relative to the due date"

        email = page.css("#alert-email")
        email.clear()
        email.send_keys("not an address")
        email.send_keys(Keys.ENTER)
        error = visible(page.driver, "#alert-settings > p.form-error")
        assert "email" in error.text.lower()
        email.clear()
        email.send_keys("ana@example.test")
        email.send_keys(Keys.ENTER)
        wait_until(lambda: page.api.get("/alerts/settings")["email"] == "ana@example.test", message="the address was not saved")
        # Remove shows for a saved address only, and takes it away.
        remove = wait_for(page.driver, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#alert-email-form button")
                                                       if b.text == "Remove" and b.is_displayed()), None),
                          message="no Remove beside a saved address")
        remove.click()
        wait_until(lambda: page.api.get("/alerts/settings")["email"] is None, message="Remove kept the address")
        wait_for(page.driver, lambda d: not remove.is_displayed(), message="Remove stays beside an empty address")

        hook = page.css("#alert-webhook")
        hook.clear()
        hook.send_keys("http://127.0.0.1:9/hook")
        hook.send_keys(Keys.ENTER)
        secret = visible(page.driver, "#webhook-secret").get_attribute("value")
        assert len(secret) == 64, "the new secret is shown once, in full"
        settings = page.api.get("/alerts/settings")
        assert settings["webhookURL"] == "http://127.0.0.1:9/hook"
        assert settings["webhookSecret"] is None, "the secret is never shown again"
        open_alert_settings(page)
        assert secret not in page.css("#alert-settings").text and not page.all("#webhook-secret")
    finally:
        page.api.patch("/alerts/settings", {"timedDefaults": before["timedDefaults"], "email": before["email"], "webhookURL": None})


def p256dh():
    """A valid uncompressed P-256 public key: the generator point (only its form matters here)."""
    x = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
    y = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"
    return base64.urlsafe_b64encode(bytes.fromhex("04" + x + y)).rstrip(b"=").decode()


def test_settings_list_and_remove_devices_and_send_a_test_alert(page):
    device = page.api.post("/push/devices", {"endpoint": "https://push.example.test/device/abc", "p256dh": p256dh(),
                                             "auth": "AAAAAAAAAAAAAAAAAAAAAA", "label": "Phone of Ana"})
    try:
        open_alert_settings(page)
        row = visible(page.driver, f'#push-devices li[data-device-id="{device["id"]}"]')
        assert "Phone of Ana" in row.text and "push.example.test" in row.text
        remove = row.find_element(By.CSS_SELECTOR, "button")
        assert remove.get_attribute("aria-label") == "Remove the device Phone of Ana"
        remove.click()
        wait_until(lambda: all(d["id"] != device["id"] for d in page.api.get("/push/devices")["devices"]),
                   message="the device was not removed")
        wait_for(page.driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'#push-devices li[data-device-id="{device["id"]}"]'),
                 message="the removed device is still listed")
    finally:
        if any(d["id"] == device["id"] for d in page.api.get("/push/devices")["devices"]):
            page.api.delete(f"/push/devices/{device['id']}")

    page.css("#send-test-alert").click()
    wait_for(page.driver, lambda d: "sent" in d.find_element(By.CSS_SELECTOR, "#test-alert-status").text.lower(),
             message="the test alert was not confirmed")
    # The open page is a channel too: the test alert arrives here, with nothing to complete.
    banner = visible(page.driver, ".alert-banner", timeout=15)
    assert banner.find_element(By.CSS_SELECTOR, ".alert-title").text == "Test alert from Slate"
    labels = [b.text for b in banner.find_elements(By.CSS_SELECTOR, "button")]
    assert labels == ["OK"], labels
    banner.find_element(By.CSS_SELECTOR, "button").click()


def test_the_alert_settings_and_the_editor_on_a_phone_and_with_axe(page):
    task = page.api.add_task(unique("Phone alerts"), due="2031-03-04T15:00:00Z", alerts=["due", "1d@09:00"])
    try:
        set_phone(page.driver)
        section = open_alert_settings(page)
        width = page.js("return document.documentElement.clientWidth")
        assert page.js("return arguments[0].getBoundingClientRect().right", section) <= width + 1, "settings fit a phone"
        assert page.js("return document.documentElement.scrollWidth") <= width + 1, "no sideways scrolling on a phone"
        problems = serious(run_axe(page))
        assert not problems, describe(problems)
        page.open(f"view=all&task={task['id']}", wait_ready=False)  # on a phone the detail covers the list
        visible(page.driver, "#detail-alerts fieldset.alert-editor")
        add = page.css("#detail-alert-add")
        assert page.js("return arguments[0].getBoundingClientRect().right", add) <= width + 1, "the add row wraps on a phone"
        set_desktop(page.driver)
        page.open(f"view=all&task={task['id']}")
        visible(page.driver, "#detail-alerts fieldset.alert-editor")
        problems = serious(run_axe(page))
        assert not problems, describe(problems)
    finally:
        set_desktop(page.driver)
        page.api.delete(f"/tasks/{task['id']}")


def test_the_editor_refuses_an_empty_count_and_a_passed_moment_and_chips_say_alerts_in_words(page):
    task = page.api.add_task(unique("Alert input"), due="2031-03-04T15:00:00Z", alerts=[])
    try:
        page.open(f"view=all&task={task['id']}")
        visible(page.driver, "#detail-alerts fieldset.alert-editor")
        choose(page, page.css("#detail-alerts select"), "before")
        set_value(page, page.css("#detail-alert-count"), "")
        page.css("#detail-alert-add").click()
        error = visible(page.driver, "#detail-alerts .alert-error")
        assert "How many" in error.text, error.text
        assert listed(page, "#detail-alerts") == [], "an empty count added an alert"
        choose(page, page.css("#detail-alerts select"), "moment")
        set_value(page, page.css("#detail-alert-moment"), "2020-01-01T09:00")
        page.css("#detail-alert-add").click()
        wait_for(page.driver, lambda d: "passed" in page.css("#detail-alerts .alert-error").text, message="a past moment was taken")
        assert listed(page, "#detail-alerts") == []
        assert saved_alerts(page, task["id"]) == []
    finally:
        page.api.delete(f"/tasks/{task['id']}")
    page.open("view=all")
    entry = visible(page.driver, "#quick-entry")
    entry.send_keys("Call the lab tomorrow 5pm ^15m ^1d@9:00")
    wait_for(page.driver, lambda d: len([c for c in d.find_elements(By.CSS_SELECTOR, ".chip[data-kind=alert]")]) == 2,
             message="no alert chips")
    texts = [c.text for c in page.driver.find_elements(By.CSS_SELECTOR, ".chip[data-kind=alert]")]
    assert texts == ["🔔 15 minutes before", "🔔 1 day before at 09:00"], texts
    entry.clear()
