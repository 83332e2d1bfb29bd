"""Subtasks nested under their parent in every list, foldable (issue 9): no longer a flat
row with a "↳ Subtask" marker."""

from selenium.webdriver.common.by import By

from slate_web import is_visible, row_ids, unique, wait_for, wait_row


def indent(page, task_id):
    return page.js("""const row = document.querySelector(`li.task-row[data-id="${arguments[0]}"]`);
        return row.querySelector('.complete-toggle').getBoundingClientRect().left;""", task_id)


def shown(page, task_id):
    return is_visible(page.driver, f'li.task-row[data-id="{task_id}"]')


def test_subtasks_are_nested_under_their_parent_and_fold_away(page):
    made = page.api.add_list(unique("Nesting"))
    try:
        # Created in an order that a flat, oldest-first list would interleave.
        parent = page.api.add_task("Parent", listId=made["id"], priority="low")
        other = page.api.add_task("Unrelated", listId=made["id"], priority="low")
        first = page.api.post(f"/tasks/{parent['id']}/subtasks", {"title": "First step", "priority": "low"})
        second = page.api.post(f"/tasks/{parent['id']}/subtasks", {"title": "Second step", "priority": "low"})
        deeper = page.api.post(f"/tasks/{first['id']}/subtasks", {"title": "A detail of the first", "priority": "low"})
        page.open(f"list={made['id']}")
        wait_row(page.driver, deeper["id"])
        assert row_ids(page.driver) == [parent["id"], first["id"], deeper["id"], second["id"], other["id"]]
        assert indent(page, first["id"]) > indent(page, parent["id"]) + 10, "a subtask is not indented under its parent"
        assert indent(page, deeper["id"]) > indent(page, first["id"]) + 10, "a sub-subtask is not indented further"
        assert indent(page, other["id"]) == indent(page, parent["id"])
        assert not is_visible(page.driver, f'li.task-row[data-id="{first["id"]}"] .task-subtask'), "the flat ↳ marker still shows"

        fold = page.css(f'li.task-row[data-id="{parent["id"]}"] button.subtask-toggle')
        assert fold.get_attribute("aria-expanded") == "true"
        fold.click()
        wait_for(page.driver, lambda d: not shown(page, first["id"]) and not shown(page, deeper["id"]) and not shown(page, second["id"]),
                 message="folding the parent did not hide its subtasks")
        assert shown(page, other["id"]) and shown(page, parent["id"])
        assert page.css(f'li.task-row[data-id="{parent["id"]}"] button.subtask-toggle').get_attribute("aria-expanded") == "false"

        # Folded stays folded after a reload; unfolding shows them again.
        page.open(f"list={made['id']}")
        wait_row(page.driver, parent["id"])
        wait_for(page.driver, lambda d: not shown(page, first["id"]), message="the fold was forgotten on reload")
        page.css(f'li.task-row[data-id="{parent["id"]}"] button.subtask-toggle').click()
        wait_for(page.driver, lambda d: shown(page, first["id"]) and shown(page, deeper["id"]) and shown(page, second["id"]))

        # The same nesting in All Tasks.
        page.open("view=all&q=" + "step")
        wait_row(page.driver, second["id"])
        ids = row_ids(page.driver)
        assert ids.index(first["id"]) < ids.index(second["id"])
        page.open(f"view=all&status=all")
        wait_row(page.driver, parent["id"])
        ids = row_ids(page.driver)
        position = ids.index(parent["id"])
        assert ids[position:position + 4] == [parent["id"], first["id"], deeper["id"], second["id"]], "not nested in All Tasks"
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_a_subtask_added_in_the_detail_appears_under_its_parent(page):
    made = page.api.add_list(unique("Nest live"))
    try:
        parent = page.api.add_task("Parent here", listId=made["id"])
        later = page.api.add_task("Later task", listId=made["id"])
        page.open(f"list={made['id']}&task={parent['id']}")
        entry = wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "input#subtask-entry"))
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-title").get_attribute("value") == "Parent here")
        entry.send_keys("Added step\n")
        sub = wait_for(page.driver, lambda d: next((t for t in page.api.get(f"/tasks/{parent['id']}/subtasks")["tasks"]
                                                    if t["title"] == "Added step"), None))
        wait_row(page.driver, sub["id"])
        # The parent's own live change (its subtask count) may redraw the list once more.
        expected = [parent["id"], sub["id"], later["id"]]
        wait_for(page.driver, lambda d: row_ids(d) == expected,
                 message="the rows never became parent, subtask, later task")
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")
