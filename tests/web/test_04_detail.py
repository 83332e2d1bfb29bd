"""The detail pane: inline editing saved as you type, a 412 conflict, subtasks, dates."""

from selenium.webdriver.common.keys import Keys

from slate_web import By, is_visible, unique, visible, wait_for, wait_row, wait_until


def open_detail(page, task_id):
    wait_row(page.driver, task_id).find_element(By.CSS_SELECTOR, ".task-title").click()
    detail = visible(page.driver, "aside#detail")
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-title").get_attribute("value"),
             message="the detail shows no title")
    return detail


def saved(driver):
    return "saved" in driver.find_element(By.CSS_SELECTOR, "#save-state").text.lower()


def test_clicking_a_title_opens_the_detail_with_every_field_and_the_url(page):
    task = next(t for t in page.api.tasks("scope=all") if t["title"] == "Write Act 2 outline")
    open_detail(page, task["id"])
    assert page.css("#detail-title").get_attribute("value") == "Write Act 2 outline"
    assert page.css("textarea#detail-notes").get_attribute("value") == task["notes"]
    assert page.css("select#detail-list").get_attribute("value") == task["listId"]
    pressed = [b.get_attribute("data-priority") for b in page.all("#detail-priority button[data-priority]")
               if b.get_attribute("aria-pressed") == "true"]
    assert pressed == ["critical"]
    assert page.css("input#detail-has-due").is_selected()
    assert page.css("#detail-created").text.strip(), "no created date"
    assert f"task={task['id']}" in page.driver.current_url
    page.css("button#detail-close").click()
    wait_for(page.driver, lambda d: not is_visible(d, "aside#detail"), message="Close does not close the detail")
    assert "task=" not in page.driver.current_url


def test_detail_edits_save_as_you_type_with_a_saved_state(page):
    task = page.api.add_task(unique("Edit me"), notes="old notes")
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        title = page.css("#detail-title")
        title.send_keys(Keys.END, " now")
        wait_until(lambda: page.api.task(task["id"])["title"] == task["title"] + " now",
                   message="typing in the title did not save it (no Save button press)")
        wait_for(page.driver, saved, message="#save-state does not say Saved")
        notes = page.css("textarea#detail-notes")
        notes.send_keys(Keys.END, "\nand more")
        wait_until(lambda: page.api.task(task["id"])["notes"] == "old notes\nand more", message="notes were not saved")
        page.css('#detail-priority button[data-priority="low"]').click()
        wait_until(lambda: page.api.task(task["id"])["priority"] == "low", message="priority was not saved")
        assert page.css('#detail-priority button[data-priority="low"]').get_attribute("aria-pressed") == "true"
        flag = page.css("input#detail-flag")
        page.js("arguments[0].click()", flag)
        wait_until(lambda: page.api.task(task["id"])["isFlagged"], message="the flag was not saved")
        sound = next(l for l in page.api.lists() if l["name"] == "Sound")
        page.js("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));",
                page.css("select#detail-list"), sound["id"])
        wait_until(lambda: page.api.task(task["id"])["listId"] == sound["id"], message="the list was not saved")
        has_due = page.css("input#detail-has-due")
        page.js("arguments[0].click()", has_due)
        wait_until(lambda: page.api.task(task["id"])["due"] is not None, message="turning the due date on saved nothing")
        page.js("arguments[0].click()", page.css("input#detail-has-due"))
        wait_until(lambda: page.api.task(task["id"])["due"] is None, message="turning the due date off did not clear it")
        wait_for(page.driver, saved)
        # The row follows the edit.
        wait_for(page.driver, lambda d: d.find_element(
            By.CSS_SELECTOR, f'li.task-row[data-id="{task["id"]}"] .task-title').text == task["title"] + " now")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_a_conflict_shows_both_versions_and_never_overwrites_silently(page):
    task = page.api.add_task(unique("Contested"), notes="base")
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        notes = page.css("textarea#detail-notes")
        # The user types; before the debounced save goes out, another device changes the task.
        notes.send_keys(Keys.END, " mine")
        page.api.patch(f"/tasks/{task['id']}", {"notes": "theirs from the API"})
        dialog = visible(page.driver, "dialog#conflict-dialog", timeout=6)
        mine = dialog.find_element(By.CSS_SELECTOR, ".conflict-mine").text
        theirs = dialog.find_element(By.CSS_SELECTOR, ".conflict-theirs").text
        assert "base mine" in mine, f"mine shows {mine!r}"
        assert "theirs from the API" in theirs, f"theirs shows {theirs!r}"
        assert page.api.task(task["id"])["notes"] == "theirs from the API", "the server version was overwritten"
        dialog.find_element(By.CSS_SELECTOR, "#conflict-keep-mine").click()
        wait_until(lambda: page.api.task(task["id"])["notes"] == "base mine", message="Keep mine did not save mine")
        wait_for(page.driver, lambda d: not is_visible(d, "dialog#conflict-dialog"))
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_conflict_use_theirs_takes_the_server_version(page):
    task = page.api.add_task(unique("Contested again"), notes="base")
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        page.css("#detail-title").send_keys(Keys.END, " (mine)")
        page.api.patch(f"/tasks/{task['id']}", {"title": task["title"] + " (theirs)"})
        dialog = visible(page.driver, "dialog#conflict-dialog", timeout=6)
        dialog.find_element(By.CSS_SELECTOR, "#conflict-use-theirs").click()
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-title").get_attribute("value")
                 == task["title"] + " (theirs)", message="Use theirs did not show the server's title")
        assert page.api.task(task["id"])["title"] == task["title"] + " (theirs)"
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_subtasks_are_listed_and_added(page):
    parent = page.api.add_task(unique("Parent"))
    page.api.post(f"/tasks/{parent['id']}/subtasks", {"title": "Existing step"})
    try:
        page.open("view=all")
        open_detail(page, parent["id"])
        wait_for(page.driver, lambda d: any("Existing step" in e.text for e in d.find_elements(By.CSS_SELECTOR, "#subtasks li.subtask")),
                 message="the existing subtask is not listed")
        entry = page.css("input#subtask-entry")
        entry.send_keys("Second step", Keys.ENTER)
        wait_until(lambda: "Second step" in [t["title"] for t in page.api.get(f"/tasks/{parent['id']}/subtasks")["tasks"]],
                   message="Enter in the subtask entry did not add a subtask")
        wait_for(page.driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#subtasks li.subtask")) == 2)
        assert entry.get_attribute("value") == ""
        added = next(t for t in page.api.get(f"/tasks/{parent['id']}/subtasks")["tasks"] if t["title"] == "Second step")
        assert added["priority"] == "none", "a one-line entry is quick entry: no priority unless stated"
        # And it reads what quick entry reads.
        entry.send_keys("Write questions 2031-03-04 !high @lab", Keys.ENTER)
        wait_until(lambda: "Write questions" in [t["title"] for t in page.api.get(f"/tasks/{parent['id']}/subtasks")["tasks"]],
                   message="the subtask entry did not read the line as quick entry")
        parsed = next(t for t in page.api.get(f"/tasks/{parent['id']}/subtasks")["tasks"] if t["title"] == "Write questions")
        assert parsed["priority"] == "high" and parsed["due"] == "2031-03-04" and parsed["tags"] == ["lab"], parsed
    finally:
        page.api.delete(f"/tasks/{parent['id']}")


def test_completed_date_is_shown_for_a_completed_task(page):
    task = page.api.add_task(unique("Finished thing"))
    page.api.patch(f"/tasks/{task['id']}", {"isCompleted": True})
    try:
        page.open(f"view=all&status=all&task={task['id']}")
        visible(page.driver, "aside#detail")
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-completed").text.strip(),
                 message="#detail-completed is empty for a completed task (opened from ?task=)")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_completing_a_repeating_task_in_the_detail_says_the_next_one_is_scheduled(page):
    title = unique("Water the plants")
    task = page.api.add_task(title, due="2031-05-06", recurrence="weekly")
    try:
        page.open(f"view=all&task={task['id']}")
        visible(page.driver, "aside#detail")
        visible(page.driver, "#detail-complete").click()
        toast = visible(page.driver, "#toast")
        wait_until(lambda: "the next one is scheduled" in toast.text, message=f"no toast for the repeat: {toast.text!r}")
        wait_until(lambda: any(t["title"] == title and not t["isCompleted"] and t["due"] == "2031-05-13"
                               for t in page.api.get("/tasks?status=all&limit=200")["tasks"]),
                   message="the next occurrence was not made")
    finally:
        for found in page.api.get("/tasks?status=all&limit=200")["tasks"]:
            if found["title"] == title:
                page.api.delete(f"/tasks/{found['id']}")
