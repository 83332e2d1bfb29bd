"""Search as you type, the status / priority / sort controls, and the state in the URL."""

from urllib.parse import parse_qs, urlparse

from selenium.webdriver.support.ui import Select

from slate_web import By, unique, visible, wait_for, wait_row, wait_until


def shown_ids(driver, section="#active-section"):
    return [e.get_attribute("data-id") for e in driver.find_elements(By.CSS_SELECTOR, f"{section} li.task-row")]


def all_shown_ids(driver):
    return shown_ids(driver, "#active-section") + shown_ids(driver, "#completed-section")


def query(driver):
    return {k: v[0] for k, v in parse_qs(urlparse(driver.current_url).query).items()}


def test_search_as_you_type_is_accent_and_case_insensitive(page):
    cafe = page.api.add_task(unique("Café au lait for the crew"))
    notes = page.api.add_task(unique("Catering order"), notes="Ask about the CRÈME brûlée")
    try:
        page.open("view=all")
        search = visible(page.driver, "input#search")
        search.send_keys("cafe")  # no Enter: filters as you type
        wait_for(page.driver, lambda d: set(shown_ids(d)) == {cafe["id"]},
                 message="typing 'cafe' does not show exactly the 'Café…' task")
        # The URL follows the list (written once the rows are drawn and the browser is idle).
        wait_for(page.driver, lambda d: query(d).get("q") == "cafe", message="the search is not in the URL")
        search.clear()
        search.send_keys("creme")
        wait_for(page.driver, lambda d: set(all_shown_ids(d)) == {notes["id"]},
                 message="searching 'creme' does not find the task whose notes say 'CRÈME'")
    finally:
        page.api.delete(f"/tasks/{cafe['id']}")
        page.api.delete(f"/tasks/{notes['id']}")


def test_search_combines_with_the_current_list(page):
    story = next(l for l in page.api.lists() if l["name"] == "Story")
    page.open(f"list={story['id']}")
    visible(page.driver, "input#search").send_keys("woody")
    expected = {t["id"] for t in page.api.tasks(f"list={story['id']}&search=woody&status=active")}
    assert expected, "the sample board has a Story task mentioning Woody"
    everywhere = {t["id"] for t in page.api.tasks("scope=all&search=woody&status=active")}
    assert everywhere - expected, "the sample board has Woody outside Story too"
    wait_for(page.driver, lambda d: set(shown_ids(d)) == expected,
             message="search inside Story does not show exactly Story's matches")


def test_an_empty_search_names_the_term(page):
    term = "zebraquokka"
    visible(page.driver, "input#search").send_keys(term)
    empty = wait_for(page.driver, lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, ".empty-state") if e.is_displayed()), None),
                     message="no visible empty state for a search without results")
    assert term in empty.text, f"the empty state does not name the term: {empty.text!r}"
    assert not all_shown_ids(page.driver)


def test_status_filter(page):
    done = page.api.add_task(unique("Done for the filter"))
    page.api.patch(f"/tasks/{done['id']}", {"isCompleted": True})
    try:
        page.open("view=all")
        buttons = {b.get_attribute("data-status"): b for b in page.all("#status-filter button[data-status]")}
        assert set(buttons) == {"all", "active", "completed"}
        buttons["completed"].click()
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, '#status-filter button[data-status="completed"]').get_attribute("aria-pressed") == "true")
        expected = {t["id"] for t in page.api.tasks("scope=all&status=completed")}
        wait_for(page.driver, lambda d: set(all_shown_ids(d)) == expected, message="Completed does not show only completed tasks")
        assert query(page.driver).get("status") == "completed"
        page.css('#status-filter button[data-status="active"]').click()
        expected = {t["id"] for t in page.api.tasks("scope=all&status=active")}
        wait_for(page.driver, lambda d: set(all_shown_ids(d)) == expected, message="Active does not show only active tasks")
        assert page.css('#status-filter button[data-status="completed"]').get_attribute("aria-pressed") == "false"
    finally:
        page.api.delete(f"/tasks/{done['id']}")


def test_priority_filter(page):
    select = Select(page.css("select#priority-filter"))
    assert {o.get_attribute("value") for o in select.options} == {"", "none", "low", "medium", "high", "critical"}
    select.select_by_value("high")
    expected = {t["id"] for t in page.api.tasks("scope=all&priority=high&status=active")}
    wait_for(page.driver, lambda d: set(shown_ids(d)) == expected, message="the high filter shows other tasks")
    assert query(page.driver).get("priority") == "high"


def test_sort_orders_like_the_api(page):
    select = Select(page.css("select#sort"))
    assert {o.get_attribute("value") for o in select.options} >= {"default", "priority", "due", "created", "title", "manual"}
    for sort in ["title", "due", "created"]:
        Select(page.css("select#sort")).select_by_value(sort)
        expected = [t["id"] for t in page.api.tasks(f"scope=all&status=active&sort={sort}")]
        wait_for(page.driver, lambda d: shown_ids(d) == expected, message=f"sort={sort} does not order rows as the API does")
        assert query(page.driver).get("sort") == sort


def test_default_sort_puts_the_critical_tasks_first(page):
    first_two = lambda d: {e.text for e in d.find_elements(By.CSS_SELECTOR, "#active-section li.task-row .task-title")[:2]}
    wait_for(page.driver, lambda d: first_two(d) == {"Lock final production budget", "Write Act 2 outline"},
             message="the two critical tasks are not first in the default sort")


def test_url_state_restores_a_bookmarked_view(page):
    story = next(l for l in page.api.lists() if l["name"] == "Story")
    page.open(f"list={story['id']}&q=woody&status=active&priority=critical&sort=title")
    assert page.css("input#search").get_attribute("value") == "woody"
    assert Select(page.css("select#priority-filter")).first_selected_option.get_attribute("value") == "critical"
    assert Select(page.css("select#sort")).first_selected_option.get_attribute("value") == "title"
    assert page.css('#status-filter button[data-status="active"]').get_attribute("aria-pressed") == "true"
    expected = [t["id"] for t in page.api.tasks(f"list={story['id']}&search=woody&status=active&priority=critical&sort=title")]
    wait_for(page.driver, lambda d: shown_ids(d) == expected)


def test_back_button_returns_to_the_previous_view(page):
    page.css('a.nav-item[data-view="today"]').click()
    wait_for(page.driver, lambda d: query(d).get("view") == "today", message="Today is not in the URL")
    today_title = wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "h2#view-title").text.strip())
    sound = next(l for l in page.api.lists() if l["name"] == "Sound")
    page.css(f'a.nav-item[data-list-id="{sound["id"]}"]').click()
    wait_for(page.driver, lambda d: query(d).get("list") == sound["id"])
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "h2#view-title").text.strip() == "Sound")
    page.driver.back()
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "h2#view-title").text.strip() == today_title,
             message="Back did not restore the Today view")
    expected = {t["id"] for t in page.api.tasks("scope=today&status=active")}
    wait_for(page.driver, lambda d: set(shown_ids(d)) == expected)
    page.driver.forward()
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "h2#view-title").text.strip() == "Sound",
             message="Forward did not return to Sound")


def test_opening_a_task_is_in_the_url_and_back_closes_it(page):
    task = next(t for t in page.api.tasks("scope=all") if t["title"] == "Lock final production budget")
    wait_row(page.driver, task["id"]).find_element(By.CSS_SELECTOR, ".task-title").click()
    visible(page.driver, "aside#detail")
    wait_for(page.driver, lambda d: query(d).get("task") == task["id"])
    page.driver.back()
    wait_for(page.driver, lambda d: not any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, "aside#detail")),
             message="Back does not close the detail")


def test_filter_by_tag_from_a_rows_tag_and_the_url(page):
    tagged = page.api.add_task(unique("Tagged props"), tags=["props"])
    other = page.api.add_task(unique("Tagged music"), tags=["music"])
    try:
        page.open("view=all&sort=created")
        chip = wait_row(page.driver, tagged["id"]).find_element(By.CSS_SELECTOR, ".task-tag")
        assert "props" in chip.text
        chip.click()
        wait_for(page.driver, lambda d: query(d).get("tag") == "props", message="the tag filter is not in the URL")
        expected = {t["id"] for t in page.api.tasks("scope=all&tag=props&status=all")}
        assert tagged["id"] in expected and other["id"] not in expected
        wait_for(page.driver, lambda d: set(all_shown_ids(d)) == expected, message="the tag filter shows other tasks")
        page.driver.back()
        wait_for(page.driver, lambda d: other["id"] in all_shown_ids(d), message="Back does not clear the tag filter")
    finally:
        page.api.delete(f"/tasks/{tagged['id']}")
        page.api.delete(f"/tasks/{other['id']}")


# The API requests the page made after the mark (the app never clears performance entries);
# the event stream is left out.
REQUESTS_SINCE_MARK = """
const since = window.__slateMark || 0;
return performance.getEntriesByType('resource')
  .filter(e => e.name.includes('/api/v1/') && !e.name.includes('/api/v1/events') && e.startTime >= since)
  .map(e => new URL(e.name).pathname + new URL(e.name).search);
"""


def test_a_search_keystroke_makes_one_tasks_request_that_carries_the_active_count(page):
    """More matches than the first page holds, all active ones first: the Active heading's
    count comes with the page (counts=active), not from a second request after it."""
    word = unique("Storyline").split()[1] + "q"
    active = [page.api.add_task(f"{word} scene {index}") for index in range(34)]
    done = [page.api.add_task(f"{word} wrapped {index}") for index in range(2)]
    ids = [task["id"] for task in active + done]
    try:
        for task in done:
            page.api.patch(f"/tasks/{task['id']}", {"isCompleted": True})
        page.open("view=all")
        wait_for(page.driver, lambda d: d.execute_script("return window.slate.live.revision !== null"))
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, 'a.nav-item[data-view="all"] .nav-count').text.strip())
        page.js("performance.setResourceTimingBufferSize(5000); window.__slateMark = performance.now();")
        # One keystroke's input event with the whole word (typing it would make one per letter).
        page.js("const s = document.getElementById('search'); s.value = arguments[0]; s.dispatchEvent(new Event('input', {bubbles: true}));", word)
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#active-section .section-count").text == "34",
                 message="the Active heading does not count the 34 active matches")
        assert page.css("#completed-section .section-count").text == "2"
        assert len(shown_ids(page.driver)) == 30, "the first page holds 30 active rows"
        made = page.js(REQUESTS_SINCE_MARK)
        tasks = [r for r in made if r.startswith("/api/v1/tasks?")]
        assert len(tasks) == 1 and "counts=active" in tasks[0], f"the search made {made}"
    finally:
        page.api.post("/tasks/batch", {"action": "delete", "ids": ids})


def test_the_search_in_the_url_survives_a_reload_and_the_back_button(page):
    """The URL is written after the list is drawn: the back button returns to the view before
    without the search, whether or not its URL was written yet, and a reload keeps it."""
    word = unique("Backtrack").split()[1] + "q"
    task = page.api.add_task(f"{word} scene")
    try:
        page.open("view=all")
        page.driver.find_element(By.CSS_SELECTOR, 'a.nav-item[data-view="flagged"]').click()
        wait_for(page.driver, lambda d: query(d).get("view") == "flagged")
        page.driver.find_element(By.CSS_SELECTOR, 'a.nav-item[data-view="all"]').click()
        wait_for(page.driver, lambda d: query(d).get("view", "all") == "all" and "flagged" not in d.current_url)
        visible(page.driver, "input#search").send_keys(word)
        wait_for(page.driver, lambda d: shown_ids(d) == [task["id"]], message="the search does not show its one match")
        # Back at once, whether or not the browser has had an idle moment to write the URL.
        page.driver.back()
        wait_for(page.driver, lambda d: query(d).get("view") == "flagged" and "q" not in query(d),
                 message=f"back did not return to Flagged without the search: {page.driver.current_url}")
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "input#search").get_attribute("value") == "",
                 message="the search field still holds the search after going back")
        page.open("view=all")
        visible(page.driver, "input#search").send_keys(word)
        wait_for(page.driver, lambda d: query(d).get("q") == word, message="the search is not in the URL")
        page.driver.refresh()
        wait_for(page.driver, lambda d: shown_ids(d) == [task["id"]], message="the reloaded page lost the search")
        assert visible(page.driver, "input#search").get_attribute("value") == word
    finally:
        page.api.delete(f"/tasks/{task['id']}")
