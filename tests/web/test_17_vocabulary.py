"""The web app's names come from the server (GET /api/v1/vocabulary, issue 9): smart lists,
sorts, priorities, palette and icons are what the server says, not copies in Web/js. The
test changes the server's answer on its way into the page and looks for the change."""

from slate_web import By, visible, wait_for

# Rewrites the vocabulary answer in the page before the app reads it.
ALTERED = """
const original = window.fetch;
window.fetch = async function (url, options) {
  const response = await original(url, options);
  if (!String(url).startsWith('/api/v1/vocabulary')) return response;
  const vocabulary = await response.json();
  vocabulary.smartLists.find(s => s.name === 'today').title = 'Today (from the server)';
  vocabulary.sorts.find(s => s.name === 'due').title = 'When due';
  vocabulary.priorities.find(p => p.name === 'high').title = 'Urgent';
  vocabulary.palette.push('#123456');
  vocabulary.icons.push({name: 'test.tube', glyph: '🧪'});
  return new Response(JSON.stringify(vocabulary), {status: 200, headers: {'Content-Type': 'application/json'}});
};
"""


def test_the_app_offers_what_the_server_names(page):
    script = page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ALTERED})
    try:
        page.open("view=all")
        vocabulary = page.api.get("/vocabulary")
        smart = [e.text for e in page.all("#smart-lists .nav-name")]
        assert smart == [s["title"] if s["name"] != "today" else "Today (from the server)" for s in vocabulary["smartLists"]]
        sorts = [o.get_attribute("value") for o in page.all("select#sort option")]
        assert sorts == [s["name"] for s in vocabulary["sorts"]]
        assert "Sort: When due" in [o.text for o in page.all("select#sort option")]
        filters = [o.get_attribute("value") for o in page.all("select#priority-filter option")][1:]
        assert filters == [p["name"] for p in vocabulary["priorities"]]
        assert "Urgent" in [o.text for o in page.all("select#priority-filter option")]
        visible(page.driver, "button#add-list").click()
        form = visible(page.driver, "dialog#list-form")
        colours = [s.get_attribute("data-color") for s in form.find_elements(By.CSS_SELECTOR, ".swatch")]
        assert colours == vocabulary["palette"] + ["#123456"]
        icons = [i.get_attribute("data-icon") for i in form.find_elements(By.CSS_SELECTOR, ".icon-choice")]
        assert icons == [i["name"] for i in vocabulary["icons"]] + ["test.tube"]
        form.find_element(By.CSS_SELECTOR, "#list-form-cancel").click()
        assert page.css("#detail-title").get_attribute("maxlength") == str(vocabulary["limits"]["title"])
    finally:
        page.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
        page.js("localStorage.removeItem('slate.vocabulary')")


def test_a_signed_in_load_asks_for_the_vocabulary_beside_the_session(page):
    # Signed in last time, the app does not wait for the session's answer before asking for
    # the vocabulary: both are on their way before either has answered (one round trip, not two).
    page.open("view=all")
    page.driver.refresh()
    wait_for(page.driver, lambda d: d.execute_script(
        "return ['/api/v1/session', '/api/v1/vocabulary'].every((p) => performance.getEntriesByType('resource')"
        ".some((e) => new URL(e.name).pathname === p && e.responseEnd > 0))"),
        message="the reload did not ask for both the session and the vocabulary")
    session, vocabulary = page.driver.execute_script(
        "const find = (p) => performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === p);"
        "return [find('/api/v1/session'), find('/api/v1/vocabulary')].map((e) => [e.startTime, e.responseEnd]);")
    assert vocabulary[0] < session[1], f"the vocabulary was asked for only after the session answered: {session} {vocabulary}"
