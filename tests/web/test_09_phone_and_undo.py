"""A phone (390×844, touch): swipe right completes, swipe left reveals Flag and Delete,
a full left swipe never deletes; Undo after a delete; 320 px wide without sideways scroll."""

import time

from selenium.webdriver.common.action_chains import ActionChains

from slate_web import (By, PHONE, is_visible, set_phone, touch_drag, touch_swipe, touch_tap, unique, visible, wait_for,
                       wait_no_row, wait_row, wait_until)


def phone_list(page, tasks):
    made = page.api.add_list(unique("Phone"))
    created = [page.api.add_task(unique(title), listId=made["id"]) for title in tasks]
    set_phone(page.driver)
    page.open(f"list={made['id']}")
    for task in created:
        wait_for(page.driver, lambda d, t=task: next((e for e in d.find_elements(By.CSS_SELECTOR, f'li.task-row[data-id="{t["id"]}"]')
                                                    if e.is_displayed()), None),
                 message="the list's rows are not visible on the phone")
    return made, created


def test_phone_shows_the_list_full_width_with_touch(page):
    made, (task,) = phone_list(page, ["Phone row"])
    try:
        assert page.js("return window.innerWidth") == PHONE[0]
        assert page.js("return navigator.maxTouchPoints") > 0
        row = wait_row(page.driver, task["id"])
        assert row.size["width"] >= PHONE[0] * 0.85, f"the row is {row.size['width']}px wide on a {PHONE[0]}px phone"
        assert page.js("return document.documentElement.scrollWidth") <= PHONE[0]
        # Tap targets are finger-sized.
        toggle = row.find_element(By.CSS_SELECTOR, "button.complete-toggle")
        assert toggle.size["height"] >= 24 and toggle.size["width"] >= 24, f"the completion circle is {toggle.size}"
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_swipe_right_completes_and_swipe_right_again_reopens(page):
    made, (task,) = phone_list(page, ["Swipe me right"])
    try:
        page.open(f"list={made['id']}&status=all")
        row = wait_row(page.driver, task["id"])
        touch_swipe(page.driver, row, 260, start_fraction=0.2)
        wait_until(lambda: page.api.task(task["id"])["isCompleted"], message="swiping right did not complete the task")
        def swipe_done_row(d):
            # The row is redrawn once the server answers: swipe it once it has stayed put for
            # a moment, as a person looking at it would (a stale row raises and retries).
            rows = d.find_elements(By.CSS_SELECTOR, f'li.task-row.done[data-id="{task["id"]}"]')
            if not rows:
                return False
            time.sleep(0.3)
            rows[0].is_displayed()
            touch_swipe(d, rows[0], 260, start_fraction=0.2)
            return True
        wait_for(page.driver, swipe_done_row, message="the swiped row is not shown as done")
        wait_until(lambda: not page.api.task(task["id"])["isCompleted"], message="swiping right again did not reopen it")
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_swipe_left_reveals_flag_and_delete_and_a_full_swipe_never_deletes(page):
    made, (first, second) = phone_list(page, ["Swipe me left", "Full swipe"])
    try:
        row = wait_row(page.driver, first["id"])
        touch_swipe(page.driver, row, -120, start_fraction=0.8)
        wait_for(page.driver, lambda d: "swiped" in row.get_attribute("class").split(), message="swiping left did not reveal the actions")
        flag = wait_for(page.driver, lambda d: next((e for e in row.find_elements(By.CSS_SELECTOR, "button.action-flag") if e.is_displayed()), None),
                        message="Flag is not visible after the swipe")
        assert next((e for e in row.find_elements(By.CSS_SELECTOR, "button.action-delete") if e.is_displayed()), None), \
            "Delete is not visible after the swipe"
        assert page.api.task_or_none(first["id"]) is not None
        touch_tap(page.driver, flag)
        wait_until(lambda: page.api.task(first["id"])["isFlagged"], message="tapping Flag did not flag the task")

        full = wait_row(page.driver, second["id"])
        touch_swipe(page.driver, full, -370, steps=10, start_fraction=0.95)
        wait_for(page.driver, lambda d: "swiped" in full.get_attribute("class").split(), message="a full left swipe did not reveal the actions")
        assert page.api.task_or_none(second["id"]) is not None, "a full left swipe deleted the task"
        assert not page.api.task(second["id"])["isCompleted"]
        delete = next(e for e in full.find_elements(By.CSS_SELECTOR, "button.action-delete") if e.is_displayed())
        touch_tap(page.driver, delete)
        wait_until(lambda: page.api.task_or_none(second["id"]) is None, message="tapping Delete did not delete the task")
        wait_no_row(page.driver, second["id"])
        toast = visible(page.driver, "#toast")
        touch_tap(page.driver, toast.find_element(By.CSS_SELECTOR, "button.toast-undo"))
        wait_until(lambda: page.api.task_or_none(second["id"]) is not None, message="Undo on the phone did not restore the task")
        wait_row(page.driver, second["id"])
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_delete_with_the_mouse_offers_undo(page):
    task = page.api.add_task(unique("Delete and undo"), notes="keep these notes")
    try:
        page.open("view=all&sort=created")
        row = wait_row(page.driver, task["id"])
        ActionChains(page.driver).move_to_element(row).perform()
        delete = wait_for(page.driver, lambda d: next((e for e in row.find_elements(By.CSS_SELECTOR, "button.action-delete") if e.is_displayed()), None),
                          message="no visible Delete button on hover")
        assert delete.get_attribute("aria-label") or delete.text.strip()
        delete.click()
        wait_until(lambda: page.api.task_or_none(task["id"]) is None, message="Delete did not delete")
        wait_no_row(page.driver, task["id"])
        toast = visible(page.driver, "#toast")
        assert toast.text.strip()
        toast.find_element(By.CSS_SELECTOR, "button.toast-undo").click()
        restored = wait_until(lambda: page.api.task_or_none(task["id"]), message="Undo did not bring the task back")
        assert restored["notes"] == "keep these notes"
        wait_row(page.driver, task["id"])
    finally:
        if page.api.task_or_none(task["id"]):
            page.api.delete(f"/tasks/{task['id']}")


def test_320_pixels_wide_has_no_sideways_scroll(page):
    set_phone(page.driver, 320, 640)
    story = next(l for l in page.api.lists() if l["name"] == "Story")
    for query in ["view=all", f"list={story['id']}", "view=stats"]:
        page.open(query)
        width = page.js("return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        assert width <= 320, f"{query}: the page is {width}px wide at 320px"
    page.open(f"list={story['id']}")
    rows = [r for r in page.all("li.task-row") if r.is_displayed()]
    assert rows, "no task rows visible at 320px"
    for row in rows:
        rect = page.js("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right];", row)
        assert rect[0] >= -1 and rect[1] <= 321, f"a row sticks out at 320px: {rect}"
    assert visible(page.driver, "input#quick-entry").size["width"] <= 320


def test_drag_a_row_by_its_handle_with_a_finger(page):
    made, created = phone_list(page, ["First", "Second", "Third"])
    try:
        page.open(f"list={made['id']}&sort=manual")
        order = lambda: [t["id"] for t in page.api.tasks(f"list={made['id']}&sort=manual&status=active")]
        start = order()
        wait_for(page.driver, lambda d: [e.get_attribute("data-id") for e in d.find_elements(By.CSS_SELECTOR, "#active-section li.task-row")] == start)
        handle = page.css(f'li.task-row[data-id="{start[2]}"] .drag-handle')
        touch_drag(page.driver, handle, page.css(f'li.task-row[data-id="{start[0]}"]'), hold=0.3)
        wait_until(lambda: order()[0] == start[2], message="dragging the last row's handle to the top with a finger did not reorder")
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_reorder_lists_with_a_finger(page):
    first = page.api.add_list(unique("Finger A"))
    second = page.api.add_list(unique("Finger B"))
    try:
        set_phone(page.driver)
        page.driver.get(page.env.base + "/")  # on a phone the first screen is the sidebar
        ids = lambda: [l["id"] for l in page.api.lists()]
        assert ids().index(first["id"]) < ids().index(second["id"])
        source = visible(page.driver, f'nav#sidebar a.nav-item[data-list-id="{second["id"]}"]')
        target = visible(page.driver, f'nav#sidebar a.nav-item[data-list-id="{first["id"]}"]')
        touch_drag(page.driver, source, target)
        wait_until(lambda: ids().index(second["id"]) < ids().index(first["id"]),
                   message="a long press and drag of a list in the phone's sidebar did not reorder the lists")
    finally:
        page.api.delete(f"/lists/{first['id']}?tasks=delete")
        page.api.delete(f"/lists/{second['id']}?tasks=delete")
