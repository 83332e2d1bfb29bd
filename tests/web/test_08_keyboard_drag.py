"""Keyboard shortcuts (n, /, j, k, x, e, ?) and reordering rows by dragging the handle."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from slate_web import By, is_visible, unique, visible, wait_for, wait_until


def press(page, keys):
    """Types keys to the page (not into a field): focus goes to the body first."""
    page.js("document.activeElement && document.activeElement.blur && document.activeElement.blur();")
    ActionChains(page.driver).send_keys(keys).perform()


def selected_id(driver):
    rows = driver.find_elements(By.CSS_SELECTOR, "li.task-row.selected")
    return rows[0].get_attribute("data-id") if len(rows) == 1 else None


def active_ids(driver):
    return [e.get_attribute("data-id") for e in driver.find_elements(By.CSS_SELECTOR, "#active-section li.task-row")]


def test_slash_focuses_search_and_n_starts_a_new_task(page):
    press(page, "/")
    wait_for(page.driver, lambda d: d.switch_to.active_element.get_attribute("id") == "search", message="/ does not focus #search")
    page.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    press(page, "n")
    wait_for(page.driver, lambda d: d.switch_to.active_element.get_attribute("id") == "quick-entry"
             or is_visible(d, "dialog#task-form"), message="n neither focuses the quick entry nor opens the form")
    if is_visible(page.driver, "dialog#task-form"):
        ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()


def test_j_k_move_the_selection_and_x_completes_e_edits(page):
    task = page.api.add_task(unique("Keyboard target"), priority="critical")
    try:
        page.open("view=all&sort=created")  # newest first: the new task is the first row
        wait_for(page.driver, lambda d: active_ids(d)[:1] == [task["id"]])
        ids = active_ids(page.driver)
        press(page, "j")
        wait_for(page.driver, lambda d: selected_id(d) == ids[0], message="j does not select the first row")
        press(page, "j")
        wait_for(page.driver, lambda d: selected_id(d) == ids[1], message="j does not move to the next row")
        press(page, "k")
        wait_for(page.driver, lambda d: selected_id(d) == ids[0], message="k does not move back")
        press(page, "e")
        # "e" edits the selected task: in the detail pane or in the edit form.
        def editing(d):
            if is_visible(d, "aside#detail"):
                return d.find_element(By.CSS_SELECTOR, "#detail-title").get_attribute("value") == task["title"]
            if is_visible(d, "dialog#task-form"):
                return d.find_element(By.CSS_SELECTOR, "dialog#task-form [name=title]").get_attribute("value") == task["title"]
            return False
        wait_for(page.driver, editing, message="e does not open the selected task for editing")
        page.js("document.activeElement.blur()")
        ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
        wait_for(page.driver, lambda d: not is_visible(d, "aside#detail") and not is_visible(d, "dialog#task-form"),
                 message="Esc does not close the editor")
        wait_for(page.driver, lambda d: selected_id(d) == ids[0] or not d.find_elements(By.CSS_SELECTOR, "li.task-row.selected"))
        if selected_id(page.driver) != ids[0]:
            press(page, "j")
            wait_for(page.driver, lambda d: selected_id(d) == ids[0])
        press(page, "x")
        wait_until(lambda: page.api.task(task["id"])["isCompleted"], message="x does not complete the selected task")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_question_mark_opens_the_help(page):
    press(page, "?")
    dialog = visible(page.driver, "dialog#help-dialog")
    assert dialog.get_attribute("open") is not None
    text = dialog.text
    for key in ["n", "/", "j", "k", "x", "e", "?"]:
        assert key in text
    ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
    wait_for(page.driver, lambda d: not is_visible(d, "dialog#help-dialog"))


def test_drag_a_row_by_its_handle_to_reorder(page):
    made = page.api.add_list(unique("Reorder"))
    tasks = [page.api.add_task(f"Step {n}", listId=made["id"]) for n in ("one", "two", "three")]
    try:
        page.open(f"list={made['id']}&sort=manual")
        api_order = lambda: [t["id"] for t in page.api.tasks(f"list={made['id']}&sort=manual&status=active")]
        start = api_order()
        wait_for(page.driver, lambda d: active_ids(d) == start, message="manual sort does not show the API's order")
        handle = page.css(f'li.task-row[data-id="{start[2]}"] .drag-handle')
        target = page.css(f'li.task-row[data-id="{start[0]}"]')
        height = target.size["height"]
        chain = ActionChains(page.driver, duration=30)
        chain.move_to_element(handle).click_and_hold()
        for step in range(1, 7):  # move in steps, as a hand does, to above the first row's middle
            chain.move_to_element_with_offset(target, 0, int(-height * 0.3 * step / 6))
        chain.release().perform()
        wait_until(lambda: api_order()[0] == start[2], message="dragging the last row to the top did not persist the order")
        assert api_order() == [start[2], start[0], start[1]]
        wait_for(page.driver, lambda d: active_ids(d) == [start[2], start[0], start[1]])
        # A later live change redraws a row; the dropped order stays.
        page.api.patch(f"/tasks/{start[1]}", {"title": "Step two, renamed"})
        wait_for(page.driver, lambda d: d.find_element(
            By.CSS_SELECTOR, f'li.task-row[data-id="{start[1]}"] .task-title').text == "Step two, renamed")
        assert active_ids(page.driver) == [start[2], start[0], start[1]], "a live change put the dragged row back"
        page.open(f"list={made['id']}&sort=manual")
        wait_for(page.driver, lambda d: active_ids(d) == [start[2], start[0], start[1]], message="the order did not survive a reload")
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")
