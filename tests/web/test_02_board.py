"""The sidebar, the task rows and the Active / Completed sections."""

import re

from slate_web import By, unique, visible, wait_for, wait_no_row, wait_row, wait_until

SMART_VIEWS = ["all", "today", "scheduled", "flagged", "overdue", "completed", "inbox"]


def test_sidebar_has_every_smart_list_and_the_statistics(page):
    for view in SMART_VIEWS + ["stats"]:
        item = page.css(f'nav#sidebar a.nav-item[data-view="{view}"]')
        assert item.is_displayed(), f"smart list {view} is not shown"
        assert item.text.strip(), f"smart list {view} has no visible name"
    assert page.css("button#add-list").is_displayed()


def test_sidebar_lists_have_names_and_active_counts(page):
    lists = page.api.lists()
    def shown():
        items = page.all("nav#sidebar a.nav-item[data-list-id]")
        return {
            e.get_attribute("data-list-id"): (
                e.find_element(By.CSS_SELECTOR, ".nav-name").text.strip(),
                e.find_element(By.CSS_SELECTOR, ".nav-count").text.strip(),
            )
            for e in items
        }
    items = wait_for(page.driver, lambda d: shown() if len(shown()) == len(lists) else None,
                     message=f"the sidebar does not show the {len(lists)} lists")
    for entry in lists:
        name, count = items[entry["id"]]
        assert name == entry["name"]
        assert count == str(entry["activeCount"]), f"{name}: count {count!r}, API says {entry['activeCount']}"


def test_sidebar_count_follows_a_new_task(page):
    story = next(l for l in page.api.lists() if l["name"] == "Story")
    before = story["activeCount"]
    task = page.api.add_task(unique("Count me"), listId=story["id"])
    try:
        count = lambda d: d.find_element(By.CSS_SELECTOR, f'a.nav-item[data-list-id="{story["id"]}"] .nav-count').text.strip()
        wait_for(page.driver, lambda d: count(d) == str(before + 1),
                 message=f"Story's count did not go from {before} to {before + 1}")
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_row_shows_title_priority_list_due_overdue_and_notes(page):
    task = next(t for t in page.api.tasks("scope=all") if t["title"] == "Write Act 2 outline")
    row = wait_row(page.driver, task["id"])
    assert row.find_element(By.CSS_SELECTOR, ".task-title").text == "Write Act 2 outline"
    badge = row.find_element(By.CSS_SELECTOR, ".priority-badge")
    assert badge.is_displayed()
    label = (badge.text + " " + (badge.get_attribute("aria-label") or "") + " " + (badge.get_attribute("title") or "")
             + " " + badge.get_attribute("class")).lower()
    assert "critical" in label or "!!!" in label, f"critical badge reads {label!r}"
    assert row.find_element(By.CSS_SELECTOR, ".task-list-name").text.strip() == "Story"
    due = row.find_element(By.CSS_SELECTOR, ".task-due")
    assert due.text.strip(), "no friendly due text"
    assert not re.search(r"\d{4}-\d{2}-\d{2}T", due.text), f"due shown raw: {due.text!r}"
    assert "overdue" in due.get_attribute("class").split()
    red, green, blue = [int(x) for x in re.findall(r"\d+", due.value_of_css_property("color"))[:3]]
    assert red > 150 and red > green + 60 and red > blue + 60, f"overdue due date is not red: {due.value_of_css_property('color')}"
    assert "Woody discovers the toy museum subplot." in row.find_element(By.CSS_SELECTOR, ".task-notes").text
    # A task due in the future is not overdue.
    later = next(t for t in page.api.tasks("scope=all") if t["title"] == "Storyboard the inciting incident")
    later_due = wait_row(page.driver, later["id"]).find_element(By.CSS_SELECTOR, ".task-due")
    assert "overdue" not in later_due.get_attribute("class").split()


def test_priority_badges_differ_by_priority(page):
    colours = {}
    for task in page.api.tasks("scope=all&status=active"):
        if task["priority"] in colours or task["priority"] == "none":
            continue
        badge = wait_row(page.driver, task["id"]).find_element(By.CSS_SELECTOR, ".priority-badge")
        colours[task["priority"]] = badge.value_of_css_property("background-color") + badge.value_of_css_property("color")
    assert {"critical", "high", "medium", "low"} <= set(colours)
    assert len(set(colours.values())) == 4, f"priority badges are not colour-coded: {colours}"


def test_flag_marker_and_done_row_struck_through_in_completed_section(page):
    flagged = page.api.add_task(unique("Flagged for review"), isFlagged=True)
    done = page.api.add_task(unique("Already done"))
    page.api.patch(f"/tasks/{done['id']}", {"isCompleted": True})
    try:
        page.open("view=all&status=all")
        row = wait_row(page.driver, flagged["id"])
        assert row.find_element(By.CSS_SELECTOR, ".flag-marker").is_displayed()
        plain = wait_row(page.driver, next(t["id"] for t in page.api.tasks("scope=all") if t["title"] == "Rig Buzz Lightyear's wings"))
        assert not [e for e in plain.find_elements(By.CSS_SELECTOR, ".flag-marker") if e.is_displayed()]

        done_row = wait_for(page.driver, lambda d: d.find_elements(
            By.CSS_SELECTOR, f'#completed-section li.task-row[data-id="{done["id"]}"]'),
            message="a completed task is not in #completed-section")[0]
        assert "done" in done_row.get_attribute("class").split()
        title = done_row.find_element(By.CSS_SELECTOR, ".task-title")
        assert "line-through" in title.value_of_css_property("text-decoration-line") + title.value_of_css_property("text-decoration")
        assert done_row.find_element(By.CSS_SELECTOR, "button.complete-toggle").get_attribute("aria-pressed") == "true"
        assert not page.all(f'#active-section li.task-row[data-id="{done["id"]}"]')
        assert page.all(f'#active-section li.task-row[data-id="{flagged["id"]}"]')
    finally:
        page.api.delete(f"/tasks/{flagged['id']}")
        page.api.delete(f"/tasks/{done['id']}")


def test_complete_toggle_moves_the_row_between_sections(page):
    task = page.api.add_task(unique("Toggle me"))
    try:
        page.open("view=all&status=all")
        toggle = wait_row(page.driver, task["id"]).find_element(By.CSS_SELECTOR, "button.complete-toggle")
        assert toggle.get_attribute("aria-pressed") == "false"
        assert toggle.get_attribute("aria-label") or toggle.text.strip(), "the completion circle has no label"
        toggle.click()
        wait_until(lambda: page.api.task(task["id"])["isCompleted"], message="clicking the circle did not complete the task")
        wait_for(page.driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#completed-section li.task-row.done[data-id="{task["id"]}"]'),
                 message="the completed row did not move to the Completed section")
        page.css(f'#completed-section li.task-row[data-id="{task["id"]}"] button.complete-toggle').click()
        wait_until(lambda: not page.api.task(task["id"])["isCompleted"], message="clicking again did not reopen the task")
        wait_for(page.driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#active-section li.task-row[data-id="{task["id"]}"]'))
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_smart_lists_show_what_the_api_shows(page):
    for view in ["today", "scheduled", "flagged", "overdue", "inbox"]:
        page.css(f'a.nav-item[data-view="{view}"]').click()
        expected = {t["id"] for t in page.api.tasks(f"scope={view}&status=active")}
        def shown(d):
            ids = {e.get_attribute("data-id") for e in d.find_elements(By.CSS_SELECTOR, "#active-section li.task-row")}
            return ids == expected
        wait_for(page.driver, shown, message=f"view {view} does not show the API's {len(expected)} active tasks")
        if not expected:
            assert page.css(".empty-state").is_displayed()


def test_a_user_list_shows_its_tasks_and_its_name(page):
    sound = next(l for l in page.api.lists() if l["name"] == "Sound")
    page.css(f'a.nav-item[data-list-id="{sound["id"]}"]').click()
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "h2#view-title").text.strip() == "Sound")
    expected = {t["id"] for t in page.api.tasks(f"list={sound['id']}&status=active")}
    wait_for(page.driver, lambda d: {e.get_attribute("data-id") for e in d.find_elements(By.CSS_SELECTOR, "#active-section li.task-row")} == expected,
             message="the Sound list does not show its tasks")
    assert f"list={sound['id']}" in page.driver.current_url
