"""Defects of the detail pane and the task form (issue 9): a due date that is briefly empty
or incomplete while typed never saves; clearing it is an explicit action; the List field is
filled even when the task arrives before the lists; the open task can be completed and
reopened from the detail and from the form."""

from selenium.webdriver.common.keys import Keys

from slate_web import By, is_visible, unique, visible, wait_for, wait_row, wait_until


def open_detail(page, task_id):
    wait_row(page.driver, task_id).find_element(By.CSS_SELECTOR, ".task-title").click()
    visible(page.driver, "aside#detail")
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-title").get_attribute("value"),
             message="the detail shows no title")


def local_due(page, task):
    """The task's due date as the browser's `datetime-local` value (its own zone)."""
    return page.js("""const d = new Date(arguments[0]); const p = (n) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;""",
                   task["due"])


def utc_of_local(page, value):
    return page.js("return new Date(arguments[0]).toISOString()", value)


def save_title_then(page, task, suffix=" edited"):
    """Edits the title and waits until it is saved: any due-date edit waiting would have
    gone with it (one debounced PATCH carries every pending field)."""
    page.css("#detail-title").send_keys(Keys.END, suffix)
    wait_until(lambda: page.api.task(task["id"])["title"] == task["title"] + suffix,
               message="the title edit was not saved")
    wait_for(page.driver, lambda d: "saved" in d.find_element(By.CSS_SELECTOR, "#save-state").text.lower())
    return page.api.task(task["id"])


def add_timed_task(page, title):
    due = utc_of_local(page, "2031-03-14T15:30")
    return page.api.add_task(unique(title), due=due)


def test_backspace_in_the_day_of_the_due_date_never_saves_another_date(page):
    task = add_timed_task(page, "Backspace day")
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        due = page.css("input#detail-due")
        assert due.get_attribute("value") == "2031-03-14T15:30"
        # mm/dd/yyyy, hh:mm AM: focus lands on the month, the right arrow moves to the day.
        due.send_keys(Keys.ARROW_RIGHT, Keys.BACKSPACE)
        after = save_title_then(page, task)
        assert after["due"] == task["due"], f"an incomplete date saved {after['due']} over {task['due']}"
        assert local_due(page, after) == "2031-03-14T15:30"
        assert page.css("input#detail-has-due").is_selected(), "the due toggle turned off by itself"
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_typing_an_hour_as_02_keeps_the_day(page):
    task = add_timed_task(page, "Hour 02")
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        due = page.css("input#detail-due")
        # Month, day, year, then the hour segment.
        due.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, "02")
        wait_until(lambda: page.api.task(task["id"])["due"] != task["due"], message="typing the hour saved nothing")
        wait_for(page.driver, lambda d: "saved" in d.find_element(By.CSS_SELECTOR, "#save-state").text.lower())
        saved = page.api.task(task["id"])
        assert local_due(page, saved).startswith("2031-03-14T"), f"the day changed: {local_due(page, saved)}"
        assert local_due(page, saved) in ("2031-03-14T02:30", "2031-03-14T14:30"), local_due(page, saved)
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_clearing_the_due_date_is_an_explicit_button(page):
    task = add_timed_task(page, "Clear me")
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        clear = visible(page.driver, "button#detail-due-clear")
        clear.click()
        wait_until(lambda: page.api.task(task["id"])["due"] is None, message="the clear button did not clear the due date")
        wait_for(page.driver, lambda d: not is_visible(d, "input#detail-due"), message="the date picker still shows")
        assert not page.css("input#detail-has-due").is_selected()
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_the_form_refuses_an_incomplete_due_date_instead_of_clearing_it(page):
    task = add_timed_task(page, "Form date")
    try:
        page.open("view=all")
        wait_row(page.driver, task["id"]).click()
        page.js("window.slate.editTask(arguments[0])", page.api.task(task["id"]))
        form = visible(page.driver, "dialog#task-form")
        due = form.find_element(By.CSS_SELECTOR, "input[name=due]")
        wait_for(page.driver, lambda d: due.get_attribute("value") == "2031-03-14T15:30")
        due.send_keys(Keys.ARROW_RIGHT, Keys.BACKSPACE)
        form.find_element(By.CSS_SELECTOR, "button#task-form-add").click()
        error = wait_for(page.driver, lambda d: next((e for e in form.find_elements(By.CSS_SELECTOR, ".form-error") if e.is_displayed()), None),
                         message="Save with an incomplete date shows no error")
        assert "due" in error.text.lower()
        assert page.api.task(task["id"])["due"] == task["due"], "Save cleared or changed the due date"
        form.find_element(By.CSS_SELECTOR, "#task-form-cancel").click()
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_the_list_field_is_filled_when_the_task_arrives_before_the_lists(page):
    sound = next(l for l in page.api.lists() if l["name"] == "Sound")
    task = page.api.add_task(unique("Early task"), listId=sound["id"])
    try:
        # Hold GET /lists back until the task has been read (and shown) by the detail.
        page.js("""
            const original = window.fetch;
            window.__slateHeld = [];
            window.fetch = function (url, options) {
              if (String(url).startsWith('/api/v1/lists') && (!options || !options.method || options.method === 'GET') && !window.__slateRelease) {
                return new Promise((resolve) => window.__slateHeld.push(() => resolve(original(url, options))));
              }
              return original(url, options);
            };""")
        page.js("""
            window.__slateRelease = false;
            window.slate.lists = [];
            window.slate.reloadLists();
            window.slate.detail.reset();
            history.pushState(null, '', '?view=all&task=' + arguments[0]);
            dispatchEvent(new PopStateEvent('popstate'));""", task["id"])
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-title").get_attribute("value") == task["title"],
                 message="the task did not open")
        page.js("window.__slateRelease = true; window.__slateHeld.forEach((go) => go());")
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "select#detail-list").get_attribute("value") == sound["id"],
                 message="the detail's List stays blank after the lists arrive")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_the_detail_completes_and_reopens_the_open_task(page):
    task = page.api.add_task(unique("Finish from detail"))
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        button = visible(page.driver, "button#detail-complete")
        assert button.get_attribute("aria-pressed") == "false"
        button.click()
        wait_until(lambda: page.api.task(task["id"])["isCompleted"], message="the detail's Complete did not complete the task")
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "button#detail-complete").get_attribute("aria-pressed") == "true")
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-completed").text.strip() != "Not completed")
        page.css("button#detail-complete").click()
        wait_until(lambda: not page.api.task(task["id"])["isCompleted"], message="the detail's Reopen did not reopen the task")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_the_edit_form_completes_the_task(page):
    task = page.api.add_task(unique("Finish from form"))
    try:
        page.open("view=all")
        wait_row(page.driver, task["id"])
        page.js("window.slate.editTask(arguments[0])", page.api.task(task["id"]))
        form = visible(page.driver, "dialog#task-form")
        box = form.find_element(By.CSS_SELECTOR, "input[name=isCompleted]")
        assert box.is_displayed() and not box.is_selected()
        # The form is taller than the window: bring the box into view the way the keyboard
        # does (the nearest edge). The sticky Save bar must not cover it then
        # (scroll-padding), or the click lands on the bar.
        page.js("arguments[0].scrollIntoView({block: 'nearest'})", box)
        box.click()
        form.find_element(By.CSS_SELECTOR, "button#task-form-add").click()
        wait_until(lambda: page.api.task(task["id"])["isCompleted"], message="the form's Completed did not complete the task")
        wait_for(page.driver, lambda d: not is_visible(d, "dialog#task-form"))
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_a_year_typed_past_four_digits_is_not_saved_and_says_so(page):
    """Chrome's year field takes six digits: 2026 then 09 makes 202609, which no date is."""
    task = add_timed_task(page, "Six digit year")
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        page.js("window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(String(e.message)));")
        due = page.css("input#detail-due")
        page.js("arguments[0].value = '202609-12-10T09:00'; arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", due)
        wait_for(page.driver, lambda d: "incomplete" in d.find_element(By.CSS_SELECTOR, "#save-state").text.lower(),
                 message="the pane does not say the date was not saved")
        errors = page.js("return window.__errors")
        assert not errors, f"the page threw: {errors}"
        after = save_title_then(page, task)
        assert after["due"] == task["due"], f"the six-digit year saved {after['due']}"
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_a_long_list_name_never_widens_the_detail_pane(page):
    made = page.api.add_list(unique("Quarterly planning and budget reviews for the whole studio and crew"))
    task = page.api.add_task(unique("Book the long-named review"), listId=made["id"])
    try:
        page.open("view=all")
        open_detail(page, task["id"])
        pane = visible(page.driver, "aside#detail")
        overflow = page.js("return arguments[0].scrollWidth - arguments[0].clientWidth", pane)
        assert overflow <= 1, f"the detail pane scrolls sideways by {overflow}px"
        select = page.css("#detail-list")
        right = page.js("return arguments[0].getBoundingClientRect().right", select)
        edge = page.js("return arguments[0].getBoundingClientRect().right", pane)
        assert right <= edge + 0.5, f"the List field ends at {right}px, past the pane's {edge}px"
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")
