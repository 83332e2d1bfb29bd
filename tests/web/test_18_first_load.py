"""The first load (issues 9 and 13): the page evaluates only the modules that draw the first
list — Statistics, Settings and the alerts load when first used — and, signed in last time,
asks for the view's first page beside the session instead of after it."""

import pathlib
import re

from slate_web import By, visible, wait_for

WEB = pathlib.Path(__file__).resolve().parents[2] / "Web"
STATIC_IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w-]+\.js)";', re.M)
LATER = {"settings.js", "alertsettings.js", "stats.js", "alerts.js"}


def static_graph(entry="main.js"):
    """The modules `entry` imports statically, and theirs (what a load evaluates first)."""
    seen, todo = set(), [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += STATIC_IMPORT.findall((WEB / "js" / name).read_text())
    return seen


def test_the_first_load_evaluates_and_preloads_only_what_the_first_list_needs():
    graph = static_graph()
    assert "tasklist.js" in graph and "rows.js" in graph, f"the import graph was not read: {sorted(graph)}"
    assert not graph & LATER, f"loaded before the first list although not needed for it: {sorted(graph & LATER)}"
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/js/([\w-]+\.js)">', (WEB / "index.html").read_text()))
    assert not preloaded & LATER, f"preloaded at load although loaded when first used: {sorted(preloaded & LATER)}"
    assert graph <= preloaded, f"imported at load but not preloaded (found one import at a time): {sorted(graph - preloaded)}"
    shell = (WEB / "sw.js").read_text()
    missing = [name for name in sorted(graph | LATER) if f'"/js/{name}"' not in shell]
    assert not missing, f"not in the service worker's shell (would not open offline): {missing}"


def test_a_signed_in_load_asks_for_the_first_page_beside_the_session(page):
    page.open("view=all")
    page.driver.refresh()
    first_page = "e => new URL(e.name).pathname === '/api/v1/tasks' && new URL(e.name).searchParams.get('status') === 'all'"
    wait_for(page.driver, lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').some(e => new URL(e.name).pathname === '/api/v1/session' && e.responseEnd > 0)"
        f" && performance.getEntriesByType('resource').some(e => ({first_page})(e) && e.responseEnd > 0)"),
        message="the reload did not ask for both the session and the first page")
    session, tasks = page.driver.execute_script(
        "const entries = performance.getEntriesByType('resource');"
        "const session = entries.find(e => new URL(e.name).pathname === '/api/v1/session');"
        f"const tasks = entries.find({first_page});"
        "return [session, tasks].map(e => [e.startTime, e.responseEnd]);")
    assert tasks[0] < session[1], f"the first page was asked for only after the session answered: {session} {tasks}"
    visible(page.driver, "#active-section li.task-row")


def test_settings_and_statistics_open_as_the_first_view_of_a_load(page):
    # Opened straight from the address bar, their modules are loaded on the way.
    page.open("view=all")  # signed in
    page.open("view=settings", wait_ready=False)
    visible(page.driver, "#token-form")
    assert page.css("#view-title").text == "Settings"
    assert not page.css("#task-scroller").is_displayed()
    page.open("view=stats")
    wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "section#stats .stat-total").text.strip(),
             message="Statistics drew no total")
    assert page.css("#view-title").text == "Statistics"


def test_settings_are_fetched_once_the_first_list_is_drawn(page):
    page.open("view=all")
    page.driver.refresh()
    visible(page.driver, "#active-section li.task-row")
    wait_for(page.driver, lambda d: d.execute_script(
        "return ['/js/settings.js', '/js/alertsettings.js', '/js/stats.js'].every(p =>"
        " performance.getEntriesByType('resource').some(e => new URL(e.name).pathname === p && e.responseEnd > 0))"),
        message="Settings and Statistics were not fetched after the first list")
