"""Creating tasks: the quick-entry line with its chips, and the full form."""

from selenium.webdriver.common.keys import Keys

from slate_web import By, is_visible, unique, visible, wait_for, wait_row, wait_until


def chips(driver):
    return {e.get_attribute("data-kind"): e.text.strip()
            for e in driver.find_elements(By.CSS_SELECTOR, "#quick-chips .chip[data-kind]") if e.is_displayed()}


def test_quick_entry_shows_what_it_understood_and_adds_the_task(page):
    title = unique("Buy film")
    entry = visible(page.driver, "input#quick-entry")
    assert entry.get_attribute("aria-label") or page.all(f'label[for="quick-entry"]'), "quick entry has no label"
    entry.send_keys(f"{title} tomorrow 5pm !high #Story @props")
    found = wait_for(page.driver, lambda d: chips(d) if {"due", "priority", "list", "tag"} <= set(chips(d)) else None,
                     message="quick entry did not show due, priority, list and tag chips")
    assert "high" in found["priority"].lower()
    assert "Story" in found["list"]
    assert "props" in found["tag"]
    assert found["due"], "the due chip is empty"
    entry.send_keys(Keys.ENTER)
    task = wait_until(lambda: next((t for t in page.api.tasks("scope=all&status=all") if t["title"] == title), None),
                      message="Enter did not add the task")
    try:
        assert task["priority"] == "high"
        assert task["list"] == "Story"
        assert task["due"] is not None
        assert task["tags"] == ["props"]
        wait_row(page.driver, task["id"])
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "input#quick-entry").get_attribute("value") == "",
                 message="the quick entry was not cleared after adding")
        wait_for(page.driver, lambda d: not chips(d), message="chips stay after adding")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_quick_entry_quotes_keep_words_literal(page):
    title = unique("Watch")
    entry = visible(page.driver, "input#quick-entry")
    entry.send_keys(f'{title} "Toy Story 5 tomorrow"')
    wait_for(page.driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#quick-chips"))
    entry.send_keys(Keys.ENTER)
    task = wait_until(lambda: next((t for t in page.api.tasks("scope=all&status=all") if t["title"].startswith(title)), None),
                      message="the quoted quick entry was not added")
    try:
        assert task["due"] is None, "a quoted date was understood as a due date"
        assert "Toy Story 5 tomorrow" in task["title"]
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_full_form_add_is_disabled_while_the_title_is_blank_and_adds_every_field(page):
    visible(page.driver, "button#new-task").click()
    form = visible(page.driver, "dialog#task-form")
    add = form.find_element(By.CSS_SELECTOR, "button#task-form-add")
    assert not add.is_enabled(), "Add is enabled with an empty title"
    title_field = form.find_element(By.CSS_SELECTOR, "input[name=title]")
    title_field.send_keys("   ")
    assert not add.is_enabled(), "Add is enabled with a blank (spaces) title"
    title = unique("Review dailies")
    title_field.send_keys(title)
    wait_for(page.driver, lambda d: add.is_enabled(), message="Add stays disabled with a title")
    form.find_element(By.CSS_SELECTOR, "textarea[name=notes]").send_keys("Line one\nLine two")
    lighting = next(l for l in page.api.lists() if l["name"] == "Lighting")
    page.js("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));",
            form.find_element(By.CSS_SELECTOR, "select[name=listId]"), lighting["id"])
    # Priority is a segmented control of radios; medium by default.
    checked = [r.get_attribute("value") for r in form.find_elements(By.CSS_SELECTOR, "input[name=priority]") if r.is_selected()]
    assert checked == ["medium"], f"the form's default priority is {checked}"
    high = form.find_element(By.CSS_SELECTOR, "input[name=priority][value=high]")
    page.js("arguments[0].click()", high)
    has_due = form.find_element(By.CSS_SELECTOR, "input[name=hasDue]")
    if not has_due.is_selected():
        page.js("arguments[0].click()", has_due)
    due = form.find_element(By.CSS_SELECTOR, "input[name=due]")
    kind = due.get_attribute("type")
    value = "2031-05-06T09:30" if kind == "datetime-local" else "2031-05-06"
    page.js("const i = arguments[0]; i.value = arguments[1]; i.dispatchEvent(new Event('input', {bubbles: true})); i.dispatchEvent(new Event('change', {bubbles: true}));", due, value)
    flag = form.find_element(By.CSS_SELECTOR, "input[name=isFlagged]")
    if not flag.is_selected():
        page.js("arguments[0].click()", flag)
    add.click()
    task = wait_until(lambda: next((t for t in page.api.tasks("scope=all&status=all") if t["title"] == title), None),
                      message="the form did not add the task")
    try:
        assert task["notes"] == "Line one\nLine two"
        assert task["listId"] == lighting["id"]
        assert task["priority"] == "high"
        assert task["isFlagged"] is True
        assert task["due"] and task["due"].startswith("2031-05-0"), task["due"]
        wait_for(page.driver, lambda d: not is_visible(d, "dialog#task-form"), message="the form stays open after Add")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_full_form_cancel_discards(page):
    visible(page.driver, "button#new-task").click()
    form = visible(page.driver, "dialog#task-form")
    title = unique("Never saved")
    form.find_element(By.CSS_SELECTOR, "input[name=title]").send_keys(title)
    form.find_element(By.CSS_SELECTOR, "input[name=title]").send_keys(Keys.ESCAPE)
    wait_for(page.driver, lambda d: not is_visible(d, "dialog#task-form"), message="Escape does not close the form")
    assert not [t for t in page.api.tasks("scope=all&status=all") if t["title"] == title]
