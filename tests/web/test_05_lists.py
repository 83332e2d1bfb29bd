"""Lists: add with colour and icon, rename, recolour (palette and custom), reorder, delete
asking whether the tasks go too."""

from selenium.webdriver.common.action_chains import ActionChains

from slate_web import APIError, By, is_visible, unique, visible, wait_for, wait_until


def nav_item(page, list_id):
    return page.css(f'nav#sidebar a.nav-item[data-list-id="{list_id}"]')


def find_list(page, name):
    return next((l for l in page.api.lists() if l["name"] == name), None)


def open_edit(page, list_id):
    item = wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, f'a.nav-item[data-list-id="{list_id}"]'))
    ActionChains(page.driver).move_to_element(item).perform()
    edit = wait_for(page.driver, lambda d: next(
        (e for e in d.find_elements(By.CSS_SELECTOR, f'a.nav-item[data-list-id="{list_id}"] button.list-edit, '
                                                     f'a.nav-item[data-list-id="{list_id}"] ~ button.list-edit, '
                                                     f'li:has(> a.nav-item[data-list-id="{list_id}"]) button.list-edit')
         if e.is_displayed()), None), message="no visible button.list-edit on hover")
    edit.click()
    return visible(page.driver, "dialog#list-form")


def test_add_a_list_with_a_palette_colour_and_an_icon(page):
    name = unique("Editorial")
    visible(page.driver, "button#add-list").click()
    form = visible(page.driver, "dialog#list-form")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys(name)
    swatches = [s for s in form.find_elements(By.CSS_SELECTOR, ".swatch[data-color]") if s.is_displayed()]
    assert len(swatches) >= 6, "fewer than six palette colours"
    swatch = swatches[2]
    colour = swatch.get_attribute("data-color").upper()
    assert swatch.get_attribute("aria-label") or swatch.get_attribute("title") or swatch.text.strip(), "a swatch has no label"
    swatch.click()
    icons = [i for i in form.find_elements(By.CSS_SELECTOR, ".icon-choice[data-icon]") if i.is_displayed()]
    assert len(icons) >= 4, "fewer than four icons to choose from"
    icon = icons[1].get_attribute("data-icon")
    icons[1].click()
    form.find_element(By.CSS_SELECTOR, "button#list-form-save").click()
    created = wait_until(lambda: find_list(page, name), message="Save did not create the list")
    try:
        assert created["color"].upper() == colour
        assert created["icon"] == icon
        item = wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, f'a.nav-item[data-list-id="{created["id"]}"]'))
        assert item.find_element(By.CSS_SELECTOR, ".nav-name").text == name
        assert item.find_element(By.CSS_SELECTOR, ".nav-count").text.strip() == "0"
        wait_for(page.driver, lambda d: not is_visible(d, "dialog#list-form"))
    finally:
        page.api.delete(f"/lists/{created['id']}?tasks=delete")


def test_rename_and_recolour_with_a_custom_colour(page):
    made = page.api.add_list(unique("Rename me"), color="#112233")
    try:
        page.open("view=all")
        form = open_edit(page, made["id"])
        name_field = form.find_element(By.CSS_SELECTOR, "input[name=name]")
        assert name_field.get_attribute("value") == made["name"]
        name_field.clear()
        new_name = unique("Renamed")
        name_field.send_keys(new_name)
        custom = form.find_element(By.CSS_SELECTOR, "input[name=customColor]")
        assert custom.get_attribute("type") == "color"
        page.js("const i = arguments[0]; i.value = '#13579b'; i.dispatchEvent(new Event('input', {bubbles: true})); i.dispatchEvent(new Event('change', {bubbles: true}));", custom)
        form.find_element(By.CSS_SELECTOR, "button#list-form-save").click()
        wait_until(lambda: page.api.get(f"/lists/{made['id']}")["name"] == new_name, message="rename was not saved")
        assert page.api.get(f"/lists/{made['id']}")["color"].upper() == "#13579B"
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, f'a.nav-item[data-list-id="{made["id"]}"] .nav-name').text == new_name)
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_change_a_lists_icon(page):
    made = page.api.add_list(unique("Icon me"))
    try:
        page.open("view=all")
        form = open_edit(page, made["id"])
        choices = [i for i in form.find_elements(By.CSS_SELECTOR, ".icon-choice[data-icon]") if i.is_displayed()]
        target = next(i for i in choices if i.get_attribute("data-icon") != made["icon"])
        icon = target.get_attribute("data-icon")
        target.click()
        assert target.get_attribute("aria-pressed") == "true" or target.get_attribute("aria-checked") == "true" \
            or "selected" in target.get_attribute("class"), "the chosen icon is not marked as chosen"
        form.find_element(By.CSS_SELECTOR, "button#list-form-save").click()
        wait_until(lambda: page.api.get(f"/lists/{made['id']}")["icon"] == icon, message="the icon was not saved")
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


HTML5_DRAG = """
const [source, target] = arguments;
const data = new DataTransfer();
const box = target.getBoundingClientRect();
const at = {bubbles: true, cancelable: true, dataTransfer: data,
            clientX: box.left + box.width / 2, clientY: box.top + box.height / 4};
const from = source.getBoundingClientRect();
source.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: data,
                                                 clientX: from.left + 5, clientY: from.top + 5}));
target.dispatchEvent(new DragEvent('dragenter', at));
target.dispatchEvent(new DragEvent('dragover', at));
target.dispatchEvent(new DragEvent('drop', at));
source.dispatchEvent(new DragEvent('dragend', {bubbles: true, cancelable: true, dataTransfer: data}));
"""


def drag(page, source, target):
    """Drags source onto the upper half of target. Lists reorder with HTML5 drag and drop,
    which chromedriver's mouse actions do not start (a WebDriver limitation), so the drag
    events a mouse drag produces are dispatched with the DataTransfer the page reads."""
    page.js(HTML5_DRAG, source, target)


def test_reorder_lists_by_dragging(page):
    first = page.api.add_list(unique("Order A"))
    second = page.api.add_list(unique("Order B"))
    try:
        page.open("view=all")
        ids = lambda: [l["id"] for l in page.api.lists()]
        assert ids().index(first["id"]) < ids().index(second["id"])
        drag(page, nav_item(page, second["id"]), nav_item(page, first["id"]))
        wait_until(lambda: ids().index(second["id"]) < ids().index(first["id"]),
                   message="dragging a list above another did not reorder the lists")
        def sidebar_order(d):
            shown = [e.get_attribute("data-list-id") for e in d.find_elements(By.CSS_SELECTOR, "nav#sidebar a.nav-item[data-list-id]")]
            return second["id"] in shown and first["id"] in shown and shown.index(second["id"]) < shown.index(first["id"])
        wait_for(page.driver, sidebar_order, message="the sidebar does not show the new order")
    finally:
        page.api.delete(f"/lists/{first['id']}?tasks=delete")
        page.api.delete(f"/lists/{second['id']}?tasks=delete")


def delete_through_form(page, list_id, choice):
    form = open_edit(page, list_id)
    form.find_element(By.CSS_SELECTOR, "button#list-delete").click()
    dialog = visible(page.driver, "dialog#list-delete-dialog")
    dialog.find_element(By.CSS_SELECTOR, choice).click()
    wait_until(lambda: find_list_id(page, list_id) is None, message="the list was not deleted")
    wait_for(page.driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'a.nav-item[data-list-id="{list_id}"]'))


def find_list_id(page, list_id):
    try:
        return page.api.get(f"/lists/{list_id}")
    except APIError as error:
        if error.status == 404:
            return None
        raise


def test_delete_a_list_keeping_its_tasks(page):
    made = page.api.add_list(unique("Keep tasks"))
    task = page.api.add_task(unique("Survivor"), listId=made["id"])
    try:
        page.open("view=all")
        delete_through_form(page, made["id"], "#delete-list-keep-tasks")
        kept = page.api.task_or_none(task["id"])
        assert kept is not None, "keep-tasks deleted the task"
        assert kept["listId"] is None
    finally:
        if find_list_id(page, made["id"]):
            page.api.delete(f"/lists/{made['id']}?tasks=delete")
        if page.api.task_or_none(task["id"]):
            page.api.delete(f"/tasks/{task['id']}")


def test_delete_a_list_with_its_tasks(page):
    made = page.api.add_list(unique("Drop tasks"))
    task = page.api.add_task(unique("Goes too"), listId=made["id"])
    try:
        page.open("view=all")
        delete_through_form(page, made["id"], "#delete-list-with-tasks")
        assert page.api.task_or_none(task["id"]) is None, "delete-with-tasks kept the task"
    finally:
        if find_list_id(page, made["id"]):
            page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_the_palette_swatches_are_named_for_people_who_hear_them(page):
    page.open("view=all")
    visible(page.driver, "#add-list").click()
    dialog = visible(page.driver, "dialog#list-form")
    labels = [b.get_attribute("aria-label") for b in dialog.find_elements(By.CSS_SELECTOR, "button.swatch")]
    assert labels and labels[0] == "Colour: red" and all("#" not in label for label in labels), labels
    page.js("arguments[0].close()", dialog)
