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
        assert query(page.driver).get("q") == "cafe", f"the search is not in the URL: {page.driver.current_url}"
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
