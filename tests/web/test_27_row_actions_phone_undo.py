"""A long title is never hidden under the row's Flag and Delete on the desktop, and a
320 px phone keeps Undo and Redo in the header (they were hidden below 360 px)."""

from selenium.webdriver.common.action_chains import ActionChains

from slate_web import By, set_desktop, set_phone, unique, visible, wait_for, wait_row, wait_until

LONG = ("Confirm with the studio that the second unit can shoot the night exteriors at the harbour "
        "on the Thursday after the pickups, and that the generator truck is booked for both nights")


def text_right(page, element):
    """The right edge of the element's text as laid out (not of its box)."""
    return page.js("const r = document.createRange(); r.selectNodeContents(arguments[0]);"
                   "return Math.max(...Array.from(r.getClientRects()).map(b => b.right));", element)


def test_the_hover_actions_never_cover_a_long_title(page):
    task = page.api.add_task(unique(LONG))
    try:
        set_desktop(page.driver, 1024, 768)
        page.open("view=all&sort=created")
        row = wait_row(page.driver, task["id"])
        ActionChains(page.driver).move_to_element(row).perform()
        actions = wait_for(page.driver, lambda d: next((e for e in row.find_elements(By.CSS_SELECTOR, ".swipe-actions")
                                                        if e.is_displayed() and e.find_element(By.CSS_SELECTOR, "button.action-delete").is_displayed()), None),
                           message="no Flag and Delete on hover")
        left = min(page.js("return arguments[0].getBoundingClientRect().left", button)
                   for button in actions.find_elements(By.CSS_SELECTOR, "button"))
        title = row.find_element(By.CSS_SELECTOR, ".task-title")
        assert page.js("return arguments[0].getClientRects().length", title) > 0
        end = text_right(page, title)
        assert end <= left, f"the title's text runs to {end}px, under the actions from {left}px"
        # The row does not reflow when the pointer arrives: the room was there before.
        ActionChains(page.driver).move_to_element(visible(page.driver, "#view-title")).perform()
        wait_until(lambda: not row.find_element(By.CSS_SELECTOR, "button.action-delete").is_displayed(),
                   message="the actions stay after the pointer left")
        assert text_right(page, title) == end
    finally:
        set_desktop(page.driver)
        page.api.delete(f"/tasks/{task['id']}")


def test_a_320_px_phone_keeps_undo_and_redo(page):
    task = page.api.add_task(unique("Return the boom pole"))
    try:
        set_phone(page.driver, 320, 640)
        page.open("view=all&sort=created")
        row = wait_row(page.driver, task["id"])
        width = page.js("return window.innerWidth")
        buttons = [visible(page.driver, css) for css in ["#back-to-lists", "#undo", "#redo", "#select-mode", "#new-task"]]
        boxes = [page.js("const b = arguments[0].getBoundingClientRect(); return [b.left, b.right, b.width, b.height]", b) for b in buttons]
        for (left, right, w, h), css in zip(boxes, ["back to lists", "undo", "redo", "select", "new task"]):
            assert 0 <= left and right <= width, f"{css} is at {left}–{right}px on a {width}px screen"
            assert w >= 36 and h >= 36, f"{css} is {w}×{h}px, smaller than the header's other buttons"
        for (_, right, _, _), (left, _, _, _) in zip(boxes, boxes[1:]):
            assert right <= left, "two header buttons overlap"
        assert page.js("return document.documentElement.scrollWidth") <= width
        # And Undo works from there: a completion taken back.
        row.find_element(By.CSS_SELECTOR, "button.complete-toggle").click()
        wait_until(lambda: page.api.task(task["id"])["isCompleted"], message="the tap did not complete the task")
        visible(page.driver, "#undo").click()
        wait_until(lambda: not page.api.task(task["id"])["isCompleted"], message="Undo did not reopen the task")
    finally:
        set_desktop(page.driver)
        page.api.delete(f"/tasks/{task['id']}")


def test_escape_clears_the_search_then_leaves_it(page):
    from selenium.webdriver.common.keys import Keys
    page.open("view=all")
    body = page.driver.find_element(By.TAG_NAME, "body")
    body.send_keys("/")
    search = visible(page.driver, "#search")
    wait_until(lambda: page.js("return document.activeElement === arguments[0]", search), message="/ did not focus the search")
    search.send_keys("storyb")
    search.send_keys(Keys.ESCAPE)
    wait_until(lambda: search.get_attribute("value") == "", message="the first Esc did not clear the search")
    assert page.js("return document.activeElement === arguments[0]", search), "the first Esc left the box"
    search.send_keys(Keys.ESCAPE)
    wait_until(lambda: not page.js("return document.activeElement === arguments[0]", search),
               message="the second Esc stayed in the search box, so shortcuts type into it")


def test_the_full_form_starts_as_quick_entry_would_in_the_view(page):
    page.open("view=flagged")
    visible(page.driver, "button#new-task").click()
    dialog = visible(page.driver, "dialog#task-form")
    assert dialog.find_element(By.CSS_SELECTOR, "[name=isFlagged]").is_selected(), "a new task in Flagged is not flagged"
    page.js("arguments[0].close()", dialog)
    page.open("view=today")
    visible(page.driver, "button#new-task").click()
    dialog = visible(page.driver, "dialog#task-form")
    assert dialog.find_element(By.CSS_SELECTOR, "[name=hasDue]").is_selected(), "a new task in Today has no due date"
    today = page.js("return new Date().toLocaleDateString('sv')")
    assert dialog.find_element(By.CSS_SELECTOR, "[name=due]").get_attribute("value") == today
    assert not dialog.find_element(By.CSS_SELECTOR, "[name=isFlagged]").is_selected()
    page.js("arguments[0].close()", dialog)
    page.open("view=all")
    visible(page.driver, "button#new-task").click()
    dialog = visible(page.driver, "dialog#task-form")
    assert not dialog.find_element(By.CSS_SELECTOR, "[name=hasDue]").is_selected(), "All Tasks gives a new task a date"
    page.js("arguments[0].close()", dialog)


def test_opening_a_task_on_a_phone_raises_no_keyboard(page):
    from slate_web import touch_tap
    task = page.api.add_task(unique("Check the gaffer tape"))
    try:
        set_phone(page.driver, 390, 844)
        page.open(f"view=all&sort=created")
        row = wait_row(page.driver, task["id"])
        touch_tap(page.driver, row.find_element(By.CSS_SELECTOR, ".task-title"))
        visible(page.driver, "aside#detail")
        wait_for(page.driver, lambda d: page.js("return document.activeElement && document.activeElement.closest('aside#detail') !== null"),
                 message="the focus did not go to the detail")
        tag = page.js("return document.activeElement.tagName")
        assert tag not in ("INPUT", "TEXTAREA", "SELECT"), f"a {tag} has the focus: a phone raises its keyboard"
    finally:
        set_desktop(page.driver)
        page.api.delete(f"/tasks/{task['id']}")


def test_a_line_quick_entry_cannot_read_is_said_once_under_the_field(page):
    from selenium.webdriver.common.keys import Keys
    page.open("view=all")
    entry = visible(page.driver, "#quick-entry")
    entry.send_keys("Mix the trailer !urgent", Keys.ENTER)
    chip = wait_for(page.driver, lambda d: next((c for c in d.find_elements(By.CSS_SELECTOR, ".chip-error") if c.is_displayed()), None),
                    message="no error chip under the field")
    assert "urgent" in chip.text
    # Enter's own reading of the line has been answered: the field is free again.
    wait_until(lambda: page.js("return performance.getEntriesByType('resource')"
                               ".filter(e => e.name.includes('/tasks/parse') && e.responseEnd > 0).length") >= 1,
               message="Enter did not read the line")
    assert not page.js("const t = document.getElementById('toast');"
                       "return !!t && !t.hidden && t.textContent.includes('urgent')"), "the same error is also a toast"
    assert entry.get_attribute("value") == "Mix the trailer !urgent", "the line was lost"
    entry.clear()


def test_an_empty_completed_view_does_not_invite_adding_a_task(page):
    made = page.api.add_list(unique("Empty reels"))
    try:
        page.open(f"list={made['id']}&status=completed")
        empty = wait_for(page.driver, lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, ".empty-state") if e.is_displayed()), None),
                         message="no empty state")
        assert "Nothing completed yet" in empty.text and "add one" not in empty.text, empty.text
        page.open(f"list={made['id']}")
        wait_for(page.driver, lambda d: "add one" in d.find_element(By.CSS_SELECTOR, ".empty-state").text,
                 message="an empty list no longer says how to add")
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_at_tag_then_enter_in_the_search_filters_by_the_tag(page):
    from selenium.webdriver.common.keys import Keys
    task = page.api.add_task(unique("Check the dolly track"), tags=["grip"])
    try:
        page.open("view=all")
        search = visible(page.driver, "#search")
        search.send_keys("@Grip")
        wait_for(page.driver, lambda d: "Press Enter to show the tasks tagged @grip" in d.find_element(By.CSS_SELECTOR, ".empty-state").text,
                 message="the empty search does not say how to find a tag")
        search.send_keys(Keys.ENTER)
        wait_until(lambda: "tag=grip" in page.driver.current_url, message="Enter on @Grip did not filter by the tag")
        wait_row(page.driver, task["id"])
        assert search.get_attribute("value") == ""
    finally:
        page.api.delete(f"/tasks/{task['id']}")
