"""A task's repeat and tags are shown and edited in the detail pane and the full form."""

from contextlib import contextmanager

from selenium.webdriver.common.keys import Keys

from slate_web import By, is_visible, unique, visible, wait_for, wait_row, wait_until
from test_04_detail import open_detail, saved


@contextmanager
def in_detail(page, title, **fields):
    """A new task with `fields`, open in the detail pane of All Tasks; deleted afterwards."""
    task = page.api.add_task(unique(title), **fields)
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        yield task
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def choose(page, select, value):
    page.js("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));",
            select, value)


def test_the_detail_edits_the_repeat_and_the_tags(page):
    with in_detail(page, "Charge the batteries", tags=["camera"], recurrence="every 3 days") as task:
        repeat = page.css("select#detail-repeat")
        assert repeat.get_attribute("value") == "every 3 days", "a repeat not among the named ones is shown as it is"
        tags = page.css("input#detail-tags")
        assert tags.get_attribute("value") == "camera"

        choose(page, repeat, "every week")
        wait_until(lambda: page.api.task(task["id"])["recurrence"] == "every week", message="the repeat was not saved")
        tags.send_keys(Keys.END, ", #Location  night-shoot", Keys.TAB)
        wait_until(lambda: page.api.task(task["id"])["tags"] == ["camera", "location", "night-shoot"],
                   message="the tags were not saved when the field was left")
        wait_for(page.driver, saved, message="#save-state does not say Saved")
        wait_for(page.driver, lambda d: page.css("input#detail-tags").get_attribute("value") == "camera, location, night-shoot",
                 message="the field does not show the tags as saved")
        row = wait_row(page.driver, task["id"])
        wait_for(page.driver, lambda d: "every week" in row.text, message="the row does not show the new repeat")

        choose(page, page.css("select#detail-repeat"), "")
        wait_until(lambda: page.api.task(task["id"])["recurrence"] is None, message="Never did not stop the repeat")
        field = page.css("input#detail-tags")
        field.clear()
        field.send_keys(Keys.ENTER)
        wait_until(lambda: page.api.task(task["id"])["tags"] == [], message="emptying the tags did not clear them")


def test_the_full_form_adds_and_edits_a_repeat_and_tags(page):
    visible(page.driver, "button#new-task").click()
    form = visible(page.driver, "dialog#task-form")
    title = unique("Back up the rushes")
    form.find_element(By.CSS_SELECTOR, "input[name=title]").send_keys(title)
    choose(page, form.find_element(By.CSS_SELECTOR, "select[name=recurrence]"), "every month")
    form.find_element(By.CSS_SELECTOR, "input[name=tags]").send_keys("edit, storage")
    form.find_element(By.CSS_SELECTOR, "button#task-form-add").click()
    task = wait_until(lambda: next((t for t in page.api.tasks("scope=all&status=all") if t["title"] == title), None),
                      message="the form did not add the task")
    try:
        assert task["recurrence"] == "every month"
        assert task["tags"] == ["edit", "storage"]
        assert task["due"], "a repeating task gets a first date"
        wait_for(page.driver, lambda d: not is_visible(d, "dialog#task-form"), message="the form stays open after Add")

        page.open("view=all")
        open_detail(page, task["id"])
        page.css("button#detail-edit-form").click()
        form = visible(page.driver, "dialog#task-form")
        wait_for(page.driver, lambda d: form.find_element(By.CSS_SELECTOR, "select[name=recurrence]").get_attribute("value") == "every month",
                 message="the edit form does not show the repeat")
        assert form.find_element(By.CSS_SELECTOR, "input[name=tags]").get_attribute("value") == "edit, storage"
        choose(page, form.find_element(By.CSS_SELECTOR, "select[name=recurrence]"), "every year")
        form.find_element(By.CSS_SELECTOR, "button#task-form-add").click()
        wait_until(lambda: page.api.task(task["id"])["recurrence"] == "every year", message="Save did not change the repeat")
        assert page.api.task(task["id"])["tags"] == ["edit", "storage"], "tags the user did not touch are kept"
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_quick_entry_in_scheduled_dates_the_task_and_elsewhere_says_where_an_unseen_task_went(page):
    page.open("view=scheduled")
    title = unique("Scout the quarry")
    entry = visible(page.driver, "input#quick-entry")
    entry.send_keys(title, Keys.ENTER)
    task = wait_until(lambda: next((t for t in page.api.tasks("scope=all&status=all") if t["title"] == title), None),
                      message="quick entry in Scheduled added nothing")
    try:
        assert task["due"] and task["isAllDay"], "added in Scheduled, an undated task is due today"
        wait_row(page.driver, task["id"])
    finally:
        page.api.delete(f"/tasks/{task['id']}")

    page.open("view=completed")
    title = unique("Book the crane")
    visible(page.driver, "input#quick-entry").send_keys(title, Keys.ENTER)
    task = wait_until(lambda: next((t for t in page.api.tasks("scope=all&status=all") if t["title"] == title), None),
                      message="quick entry in Completed added nothing")
    try:
        toast = visible(page.driver, "#toast")
        wait_for(page.driver, lambda d: "this view does not show it" in toast.text and "Inbox" in toast.text,
                 message="the toast does not say where a task the view cannot show went")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_all_day_on_and_off_again_keeps_the_time(page):
    with in_detail(page, "Grade the trailer", due="2031-05-06T14:30:00Z") as task:
        due = page.css("input#detail-due")
        before = due.get_attribute("value")
        assert len(before) == 16, before
        page.js("arguments[0].click()", page.css("input#detail-all-day"))
        wait_until(lambda: page.api.task(task["id"])["isAllDay"], message="All day was not saved")
        page.js("arguments[0].click()", page.css("input#detail-all-day"))
        wait_until(lambda: not page.api.task(task["id"])["isAllDay"], message="turning All day off was not saved")
        assert page.css("input#detail-due").get_attribute("value") == before, "the time did not come back"
        assert page.api.task(task["id"])["due"] == "2031-05-06T14:30:00.000Z"


def test_a_repeat_given_to_an_undated_task_in_the_detail_starts_today_and_shows_it(page):
    with in_detail(page, "Water the set plants") as task:
        assert not page.css("input#detail-has-due").is_selected()
        choose(page, page.css("select#detail-repeat"), "every day")
        wait_until(lambda: page.api.task(task["id"])["due"] is not None, message="the repeat did not give the task a first date")
        wait_for(page.driver, lambda d: page.css("input#detail-has-due").is_selected() and page.css("input#detail-due").get_attribute("value"),
                 message="the detail does not show the date the repeat started")


def test_quick_entry_says_when_a_date_is_no_date(page):
    page.open("view=all")
    entry = visible(page.driver, "input#quick-entry")
    entry.send_keys("Call the lab feb 30")
    chip = wait_for(page.driver, lambda d: next((c for c in d.find_elements(By.CSS_SELECTOR, '#quick-chips .chip[data-kind="warning"]')
                                                 if c.text.strip()), None), message="no warning chip for feb 30")
    assert "feb 30" in chip.text and "not a date" in chip.text
    entry.clear()


def test_completing_a_repeating_task_in_the_detail_carries_its_subtasks_and_shows_no_repeat_on_the_done_one(page):
    with in_detail(page, "Clean the studio", recurrence="every week", due="2031-03-04") as task:
        sub = page.api.add_task(unique("Vacuum the stage"), parentId=task["id"])
        visible(page.driver, "button#detail-complete").click()
        wait_until(lambda: page.api.task(task["id"])["isCompleted"], message="Complete did not complete the task")
        # The pane shows the completed task as it is now: its repeat went to the next one.
        wait_for(page.driver, lambda d: page.css("select#detail-repeat").get_attribute("value") == "",
                 message="the completed task's pane still shows its repeat")
        nxt = wait_until(lambda: next((t for t in page.api.tasks("scope=all")
                                       if t["title"] == task["title"] and not t["isCompleted"]), None),
                         message="no next occurrence")
        assert nxt["due"] == "2031-03-11" and nxt["recurrence"] == "every week"
        moved = page.api.task(sub["id"])
        assert moved["parentId"] == nxt["id"] and not moved["isCompleted"], "the open subtask did not go on with the repeat"
        row = wait_row(page.driver, nxt["id"])
        wait_for(page.driver, lambda d: "0/1" in row.text or "Vacuum the stage" in d.find_element(By.CSS_SELECTOR, "#task-scroller").text,
                 message="the next occurrence does not show its subtask")
        page.api.delete(f"/tasks/{nxt['id']}")


def test_all_day_turns_a_lead_time_alert_into_nine_on_the_day(page):
    with in_detail(page, "Send the cue sheet", due="2031-05-06T14:30:00Z", alerts=["15m"]) as task:
        page.js("arguments[0].click()", page.css("input#detail-all-day"))
        wait_until(lambda: page.api.task(task["id"])["isAllDay"], message="All day was not saved")
        assert page.api.task(task["id"])["alerts"] == ["0d@09:00"], page.api.task(task["id"])["alerts"]
        wait_for(page.driver, lambda d: "On the due day at 09:00" in d.find_element(By.CSS_SELECTOR, "aside#detail").text,
                 message="the detail still shows the alert as a lead time")
        assert "15 minutes before" not in page.css("aside#detail").text
