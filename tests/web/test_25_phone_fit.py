"""What a phone user found (2026-12-07): the New Task form fits a 320 px screen with every
priority readable, a toast uses the screen's width instead of half of it, and the pages
without task rows (statistics, settings) offer no Select."""

import pytest

from slate_web import By, set_desktop, set_phone, unique, visible, wait_for, wait_until


@pytest.mark.parametrize("width", [320, 360, 390])
def test_the_new_task_form_fits_a_phone_without_scrolling_sideways(page, width):
    try:
        set_phone(page.driver, width, 700)
        page.driver.get(page.env.base + "/?view=all")
        visible(page.driver, "button#new-task").click()
        dialog = visible(page.driver, "dialog#task-form")
        overflow = page.js("return arguments[0].scrollWidth - arguments[0].clientWidth", dialog)
        assert overflow <= 1, f"the form scrolls sideways by {overflow}px at {width}px"
        right = page.js("return arguments[0].getBoundingClientRect().right - (arguments[0].offsetWidth - arguments[0].clientWidth)", dialog)
        for control in dialog.find_elements(By.CSS_SELECTOR, "input[name=title], select[name=listId], fieldset.radio-segmented label, button[type=submit]"):
            page.js("arguments[0].scrollIntoView({block: 'nearest'})", control)
            end = page.js("return arguments[0].getBoundingClientRect().right", control)
            assert end <= right + 0.5, f"a control ends at {end}px, past the form's {right}px, at {width}px"
        # Every priority's name shows whole (no ellipsis): its text fits its segment.
        for span in dialog.find_elements(By.CSS_SELECTOR, "fieldset.radio-segmented span"):
            cut = page.js("return arguments[0].scrollWidth - arguments[0].clientWidth", span)
            assert cut <= 0, f"'{span.text}' is cut by {cut}px at {width}px"
        page.js("arguments[0].close()", dialog)
    finally:
        set_desktop(page.driver)


def test_a_toast_on_a_phone_uses_the_screens_width(page):
    title = unique("Record foley for the Pizza Planet truck and the claw machine scene")
    try:
        set_phone(page.driver, 390, 844)
        page.driver.get(page.env.base + "/?view=all")
        entry = wait_for(page.driver, lambda d: d.find_element(By.ID, "quick-entry"))
        page.js("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));"
                "document.getElementById('quick-entry-form').requestSubmit()", entry, title)
        toast = visible(page.driver, "#toast")
        wait_until(lambda: title[:20] in toast.text, message="no toast for the added task")
        width = page.js("return arguments[0].getBoundingClientRect().width", toast)
        assert width >= 390 * 0.8, f"the toast is {width}px wide on a 390px screen"
    finally:
        set_desktop(page.driver)
        for task in page.api.get("/tasks?status=all&limit=200")["tasks"]:
            if task["title"] == title:
                page.api.delete(f"/tasks/{task['id']}")


@pytest.mark.parametrize("view", ["stats", "settings"])
def test_pages_without_task_rows_offer_no_select(page, view):
    page.driver.get(page.env.base + "/?view=all")
    select = visible(page.driver, "button#select-mode")
    select.click()
    wait_until(lambda: visible(page.driver, "#batch-bar").is_displayed(), message="Select did not open the batch bar")
    # Within the app, as a person gets there: the sidebar's link.
    page.driver.find_element(By.CSS_SELECTOR, f'a.nav-item[data-view="{view}"]').click()
    wait_until(lambda: page.driver.find_element(By.ID, view).is_displayed(), message=f"{view} did not open")
    assert not page.driver.find_element(By.ID, "select-mode").is_displayed(), f"Select shows on {view}"
    assert not page.driver.find_element(By.ID, "batch-bar").is_displayed(), f"the batch bar stays open on {view}"


@pytest.mark.parametrize("width", [320, 390])
def test_the_chart_labels_are_readable_on_a_phone(page, width):
    try:
        set_phone(page.driver, width, 800)
        page.driver.get(page.env.base + "/?view=stats")
        chart = wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "svg#completions-chart"))
        labels = chart.find_elements(By.CSS_SELECTOR, "text.axis")
        assert labels, "the chart has no axis labels"
        heights = [page.js("return arguments[0].getBoundingClientRect().height", label) for label in labels]
        assert min(heights) >= 9, f"axis labels are {min(heights):.1f}px tall at {width}px"
        right = page.js("return arguments[0].getBoundingClientRect().right", chart)
        assert right <= width, f"the chart ends at {right}px on a {width}px screen"
    finally:
        set_desktop(page.driver)


def test_a_rows_completion_circle_takes_a_thumb_around_it(page):
    task = page.api.add_task(unique("Thumb target"))
    try:
        set_phone(page.driver, 390, 844)
        page.driver.get(page.env.base + "/?view=all")
        toggle = visible(page.driver, f'li.task-row[data-id="{task["id"]}"] .complete-toggle')
        page.js("arguments[0].scrollIntoView({block: 'center'})", toggle)
        hits = page.js("""
            const t = arguments[0], r = t.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
            return [[cx, r.top - 6], [cx, r.bottom + 6], [r.left - 6, cy], [r.right + 6, cy]]
                .map(([x, y]) => { const e = document.elementFromPoint(x, y); return t.contains(e) || (e && e.className); });""", toggle)
        assert all(h is True for h in hits), f"6 px outside the 28 px circle is not the circle: {hits}"
    finally:
        set_desktop(page.driver)
        page.api.delete(f"/tasks/{task['id']}")


def test_the_phone_folds_the_filters_behind_one_button(page):
    try:
        set_phone(page.driver, 390, 844)
        page.open("view=all&priority=high")
        toggle = visible(page.driver, "button#filters-toggle")
        assert not page.css("#status-filter").is_displayed() and not page.css("select#sort").is_displayed()
        assert toggle.get_attribute("aria-label") == "Filters, 1 set", toggle.get_attribute("aria-label")
        first_row = wait_for(page.driver, lambda d: next((r for r in d.find_elements(By.CSS_SELECTOR, "li.task-row") if r.is_displayed()), None)
                             or d.find_element(By.CSS_SELECTOR, ".empty-state"), message="nothing under the tools")
        top = page.js("return document.getElementById('task-scroller').getBoundingClientRect().top")
        assert top < 260, f"the list starts {top}px down a 844px phone"
        toggle.click()
        visible(page.driver, "#status-filter")
        assert toggle.get_attribute("aria-expanded") == "true"
        page.css('#status-filter button[data-status="active"]').click()
        wait_until(lambda: "status=active" in page.driver.current_url, message="the unfolded filter does nothing")
        wait_for(page.driver, lambda d: toggle.get_attribute("aria-label") == "Filters, 2 set", message="the count did not follow")
        assert page.js("return document.documentElement.scrollWidth") <= 390
    finally:
        set_desktop(page.driver)
