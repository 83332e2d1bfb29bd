"""Titles as text (XSS), the installable app (manifest, service worker), offline, the
accessibility check in light and dark, and no Content-Security-Policy violation all run."""

import json
import urllib.request

from axe_selenium_python import Axe

from slate_web import By, set_color_scheme, set_offline, visible, wait_for, wait_row

XSS = "<img src=x onerror=alert(1)>"


def test_an_html_title_is_shown_as_text_and_runs_nothing(page):
    task = page.api.add_task(XSS, notes="<b>bold?</b><script>alert(2)</script>")
    try:
        page.open("view=all&sort=created")
        row = wait_row(page.driver, task["id"])
        assert row.find_element(By.CSS_SELECTOR, ".task-title").text == XSS
        assert "<script>alert(2)</script>" in row.find_element(By.CSS_SELECTOR, ".task-notes").text
        assert not row.find_elements(By.CSS_SELECTOR, "img[src=x], .task-title img, .task-notes b, script")
        row.find_element(By.CSS_SELECTOR, ".task-title").click()
        visible(page.driver, "aside#detail")
        wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, "#detail-title").get_attribute("value") == XSS)
        assert not page.all("img[src=x]"), "the title became an <img> somewhere"
        assert page.js("return window.__slateTest.alerts") == [], "alert() ran"
    finally:
        page.api.delete(f"/tasks/{task['id']}")


def test_manifest_and_service_worker(page):
    href = page.js("const l = document.querySelector('link[rel=manifest]'); return l && l.href")
    assert href, "no <link rel=manifest>"
    with urllib.request.urlopen(href, timeout=5) as response:
        manifest = json.loads(response.read())
    assert manifest.get("name") or manifest.get("short_name")
    assert manifest.get("display") in ("standalone", "fullscreen", "minimal-ui")
    assert manifest.get("start_url")
    sizes = {icon.get("sizes") for icon in manifest.get("icons", [])}
    assert {"192x192", "512x512"} <= sizes, f"manifest icons: {sizes}"
    for icon in manifest["icons"]:
        url = urllib.request.urljoin(href, icon["src"])
        with urllib.request.urlopen(url, timeout=5) as response:
            assert response.status == 200 and response.read(), f"icon {url} is missing"
    state = page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        if (!('serviceWorker' in navigator)) return done('unsupported');
        const timer = setTimeout(() => done('not ready'), 8000);
        navigator.serviceWorker.ready.then(r => { clearTimeout(timer); done(r.active ? r.active.state + ' ' + r.scope : 'no active'); });
    """)
    assert state.startswith("activated") or state.startswith("activating"), f"service worker: {state}"


def test_offline_says_so_and_keeps_the_screen_readable(page):
    titles = lambda: [e.get_attribute("textContent").strip() for e in page.all("#active-section li.task-row .task-title")]
    rows_before = titles()
    assert rows_before
    try:
        set_offline(page.driver, True)
        banner = visible(page.driver, "#offline-banner", timeout=5)
        assert "offline" in banner.text.lower()
        rows_now = titles()
        assert rows_now == rows_before, "going offline changed or emptied the list"
        # A reload while offline is served by the service worker's app shell.
        page.driver.get(page.env.base + "/?view=all")
        visible(page.driver, "#offline-banner", timeout=5)
        assert page.js("return !!document.querySelector('#app, form#login')"), "offline reload shows no app shell"
    finally:
        set_offline(page.driver, False)
    page.open("view=all")
    wait_for(page.driver, lambda d: not any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, "#offline-banner")),
             message="the offline banner stays once back online")


def serious(results):
    return [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]


def describe(violations):
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']} — " +
                     "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:4])
                     for v in violations)


def run_axe(page):
    axe = Axe(page.driver)
    axe.inject()
    return axe.run(options=json.dumps({"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}}))


def test_accessibility_of_the_main_screen_light(page):
    set_color_scheme(page.driver, "light")
    page.open("view=all")
    assert page.js("return matchMedia('(prefers-color-scheme: light)').matches")
    problems = serious(run_axe(page))
    assert not problems, describe(problems)


def test_accessibility_of_the_main_screen_dark(page):
    set_color_scheme(page.driver, "dark")
    page.open("view=all")
    assert page.js("return matchMedia('(prefers-color-scheme: dark)').matches")
    background = page.js("return getComputedStyle(document.body).backgroundColor")
    channels = [int(c) for c in background[background.index("(") + 1:background.index(")")].split(",")[:3]]
    assert sum(channels) / 3 < 100, f"dark scheme: the page background is {background}"
    problems = serious(run_axe(page))
    assert not problems, describe(problems)


def test_accessibility_of_the_detail_and_the_form(page):
    task = next(t for t in page.api.tasks("scope=all") if t["title"] == "Write Act 2 outline")
    page.open(f"view=all&task={task['id']}")
    visible(page.driver, "aside#detail")
    problems = serious(run_axe(page))
    assert not problems, describe(problems)


def test_no_content_security_policy_violation_in_the_whole_run(page, browser_log):
    # Visit the remaining screens once more, then read every console message of the run.
    page.open("view=stats")
    visible(page.driver, "section#stats")
    page.open("view=all")
    visible(page.driver, "button#new-task").click()
    visible(page.driver, "dialog#task-form")
    recorded = page.js("return window.__slateTest.csp")
    entries = browser_log.drain(page.driver)
    csp = [e["message"] for e in entries if "Content Security Policy" in e["message"] or "Content-Security-Policy" in e["message"]]
    assert not recorded and not csp, "CSP violations:\n" + "\n".join(recorded + csp[:10])


def test_no_script_errors_in_the_whole_run(page, browser_log):
    entries = browser_log.drain(page.driver)
    errors = [e["message"] for e in entries if e["level"] == "SEVERE" and "Uncaught" in e["message"]]
    assert not errors, "uncaught script errors:\n" + "\n".join(errors[:10])


def test_an_html_list_name_is_shown_as_text(page):
    made = page.api.add_list(XSS)
    try:
        page.open("view=all")
        name = wait_for(page.driver, lambda d: d.find_element(By.CSS_SELECTOR, f'a.nav-item[data-list-id="{made["id"]}"] .nav-name'))
        assert name.text == XSS
        assert not page.all("nav#sidebar img[src=x]")
        assert page.js("return window.__slateTest.alerts") == []
    finally:
        page.api.delete(f"/lists/{made['id']}?tasks=delete")


def test_keyboard_focus_is_visible(page):
    page.js("document.activeElement && document.activeElement.blur && document.activeElement.blur(); document.body.focus();")
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    seen = []
    for _ in range(6):
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        style = page.js("""
            const e = document.activeElement; if (!e || e === document.body) return null;
            const s = getComputedStyle(e);
            return [e.tagName + (e.id ? '#' + e.id : ''), s.outlineStyle, s.outlineWidth, s.boxShadow];""")
        if style:
            seen.append(style)
    assert seen, "Tab moves the focus nowhere"
    invisible = [s[0] for s in seen if (s[1] == "none" or s[2] == "0px") and s[3] == "none"]
    assert not invisible, f"focused without a visible outline or ring: {invisible}"


def test_reduced_motion_is_respected(page):
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"media": "", "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        page.open("view=all")
        assert page.js("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        slow = page.js("""
            const out = [];
            for (const e of document.querySelectorAll('li.task-row, li.task-row *, #toast, aside#detail, dialog, .nav-item')) {
              const s = getComputedStyle(e);
              const longest = (list) => Math.max(...list.split(',').map(v => parseFloat(v) * (v.trim().endsWith('ms') ? 1 : 1000)));
              const t = longest(s.transitionDuration), a = s.animationName !== 'none' ? longest(s.animationDuration) : 0;
              if (t > 10 || a > 10) out.push((e.id || e.className || e.tagName) + ' ' + Math.max(t, a) + 'ms');
            }
            return [...new Set(out)].slice(0, 8);""")
        assert not slow, f"animations or transitions with reduced motion: {slow}"
    finally:
        set_color_scheme(page.driver, None)
