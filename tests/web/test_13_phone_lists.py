"""A phone can edit a list (issue 9): the list's edit button is visible without hovering, and
the Edit List dialog fits the screen from 320 to 390 px, Save included."""

import pytest

from slate_web import By, set_phone, touch_tap, unique, visible, wait_for, wait_until


@pytest.mark.parametrize("width", [320, 360, 390])
def test_a_list_can_be_edited_on_a_phone_and_the_dialog_fits(page, width):
    made = page.api.add_list(unique("Phone edit"), color="#4ECDC4")
    try:
        set_phone(page.driver, width, 740)
        page.driver.get(page.env.base + "/")  # the phone's first screen: the sidebar
        entry = wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, f'li:has(> a.nav-item[data-list-id="{made["id"]}"])'))
        edit = entry.find_element(By.CSS_SELECTOR, "button.list-edit")
        page.js("arguments[0].scrollIntoView({block: 'center'})", edit)
        opacity = page.js("return getComputedStyle(arguments[0]).opacity", edit)
        assert edit.is_displayed() and float(opacity) >= 0.9, f"the edit button is not visible on a phone (opacity {opacity})"
        rect = page.js("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height, r.right];", edit)
        assert rect[0] >= 32 and rect[1] >= 32, f"the edit button is too small to tap: {rect}"
        assert rect[2] <= width, f"the edit button is off-screen: {rect}"
        touch_tap(page.driver, edit)
        dialog = visible(page.driver, "dialog#list-form")
        box = page.js("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right];", dialog)
        assert box[0] >= 0 and box[1] <= width, f"the dialog is {box} at {width}px"
        for control in ("button#list-form-save", "button#list-form-cancel", "button#list-delete", "input[name=name]"):
            node = dialog.find_element(By.CSS_SELECTOR, control)
            page.js("arguments[0].scrollIntoView({block: 'nearest'})", node)
            right = page.js("return arguments[0].getBoundingClientRect().right", node)
            assert node.is_displayed() and right <= width, f"{control} ends at {right}px on a {width}px screen"
        overflow = page.js("return arguments[0].scrollWidth - arguments[0].clientWidth", dialog)
        assert overflow <= 1, f"the dialog scrolls sideways by {overflow}px"
        name = dialog.find_element(By.CSS_SELECTOR, "input[name=name]")
        name.clear()
        renamed = unique("Renamed on phone")
        name.send_keys(renamed)
        touch_tap(page.driver, dialog.find_element(By.CSS_SELECTOR, "button#list-form-save"))
        wait_until(lambda: page.api.get(f"/lists/{made['id']}")["name"] == renamed, message="Save on the phone did not rename the list")
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")
