"""Live updates from a second client (SSE), and the statistics screen."""

import re
import time

from selenium.webdriver.common.by import By

from slate_web import unique, visible, wait_for, wait_row


def number(text):
    found = re.findall(r"\d+", text.replace(",", ""))
    assert found, f"no number in {text!r}"
    return int(found[0])


def test_a_change_from_another_client_appears_within_a_second_without_losing_typing(page):
    entry = visible(page.driver, "input#quick-entry")
    entry.click()
    entry.send_keys("Half-typed idea !lo")
    # The live stream is opened as the app starts; a first change shows it is connected.
    warmup = page.api.add_task(unique("Warm-up"))
    try:
        wait_row(page.driver, warmup["id"], timeout=5)
    finally:
        page.api.delete(f"/tasks/{warmup['id']}")
    wait_for(page.driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'li.task-row[data-id="{warmup["id"]}"]'))
    title = unique("From another device")
    created = page.api.add_task(title)
    created_id = created["id"]
    start = time.monotonic()
    try:
        wait_row(page.driver, created["id"], timeout=5)
        elapsed = time.monotonic() - start
        assert elapsed <= 1.0, f"the new task appeared after {elapsed:.2f}s (over a second)"
        entry = page.css("input#quick-entry")
        assert entry.get_attribute("value") == "Half-typed idea !lo", "the live update lost what was being typed"
        assert page.driver.switch_to.active_element == entry, "the live update took the focus from the quick entry"
        # A change and a delete arrive the same way.
        page.api.patch(f"/tasks/{created['id']}", {"title": title + " (renamed)"})
        start = time.monotonic()
        wait_for(page.driver, lambda d: d.find_element(
            By.CSS_SELECTOR, f'li.task-row[data-id="{created["id"]}"] .task-title').text == title + " (renamed)", timeout=5)
        assert time.monotonic() - start <= 1.0, "the rename took over a second to appear"
        page.api.delete(f"/tasks/{created['id']}")
        created = None
        wait_for(page.driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'li.task-row[data-id="{created_id}"]'), timeout=2)
        assert page.css("input#quick-entry").get_attribute("value") == "Half-typed idea !lo"
    finally:
        if created:
            page.api.delete(f"/tasks/{created['id']}")


def test_statistics_show_totals_breakdowns_and_a_chart(page):
    done = page.api.add_task(unique("Completed for the chart"), priority="high")
    page.api.patch(f"/tasks/{done['id']}", {"isCompleted": True})
    try:
        page.css('a.nav-item[data-view="stats"]').click()
        stats = visible(page.driver, "section#stats")
        expected = page.api.get("/stats")
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "section#stats .stat-total").text.strip())
        assert number(stats.find_element(By.CSS_SELECTOR, ".stat-total").text) == expected["total"]
        assert number(stats.find_element(By.CSS_SELECTOR, ".stat-active").text) == expected["active"]
        assert number(stats.find_element(By.CSS_SELECTOR, ".stat-completed").text) == expected["completed"]
        by_priority = stats.find_element(By.CSS_SELECTOR, "#stats-by-priority").text.lower()
        for priority in ["critical", "high", "medium", "low"]:
            assert priority in by_priority, f"{priority} missing from the priority breakdown"
        by_list = stats.find_element(By.CSS_SELECTOR, "#stats-by-list").text
        for entry in expected["byList"]:
            assert entry["name"] in by_list, f"{entry['name']} missing from the list breakdown"
        chart = stats.find_element(By.CSS_SELECTOR, "svg#completions-chart")
        assert chart.is_displayed()
        marks = chart.find_elements(By.CSS_SELECTOR, "rect, path, line, polyline, circle")
        assert len(marks) >= len(expected["completionsPerDay"]) // 2, "the chart draws almost nothing"
        assert chart.get_attribute("aria-label") or chart.find_elements(By.CSS_SELECTOR, "title, desc"), \
            "the chart has no text alternative"
        # Its days are written as the rest of the app writes them (the last one is today).
        today = page.js("return new Date().toLocaleDateString(undefined, {month: 'short', day: 'numeric'})")
        axis = [label.text for label in chart.find_elements(By.CSS_SELECTOR, "text.axis")]
        assert axis and axis[-1] == today, axis
        assert "view=stats" in page.driver.current_url
    finally:
        page.api.delete(f"/tasks/{done['id']}")


CONTRAST = """
const luminance = (rgb) => {
  const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const firstColour = (text) => (text.match(/rgba?\\(([^)]*)\\)/) || [null, ""])[1].split(",").slice(0, 3).map(Number);
const fill = document.querySelector(arguments[0]);
const style = getComputedStyle(fill);
const ink = style.backgroundImage !== "none" ? firstColour(style.backgroundImage) : firstColour(style.backgroundColor);
const track = firstColour(getComputedStyle(fill.parentElement).backgroundColor);
const [a, b] = [luminance(ink), luminance(track)].sort((x, y) => y - x);
return (a + 0.05) / (b + 0.05);
"""


def test_the_bar_of_tasks_without_priority_stands_out_from_its_track(page):
    page.css('a.nav-item[data-view="stats"]').click()
    wait_for(page.driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#stats-by-priority .bar-fill.priority-none"),
             message="no bar for tasks without priority")
    ratio = page.driver.execute_script(CONTRAST, "#stats-by-priority .bar-fill.priority-none")
    assert ratio >= 3, f"the 'None' bar has a contrast of {ratio:.2f}:1 with its empty track (at least 3:1 needed)"
