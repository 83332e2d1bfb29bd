"""Sign in, sign out, a session that expires, and one account never seeing another's tasks."""

from conftest import sign_in
from slate_web import API, By, app_ready, is_visible, unique, visible, wait_for, gone


def sign_out_if_signed_in(driver, env):
    driver.get(env.base + "/")
    wait_for(driver, lambda d: app_ready(d) or is_visible(d, "form#login"),
             message="the app showed neither a view nor form#login")
    if app_ready(driver):
        visible(driver, "button#logout").click()
        visible(driver, "form#login")


def session_cookie(driver):
    cookie = driver.get_cookie("slate_session")
    assert cookie and cookie["value"], "no slate_session cookie after signing in"
    return f"slate_session={cookie['value']}"


def test_wrong_password_is_refused_with_a_message(driver, env):
    sign_out_if_signed_in(driver, env)
    form = visible(driver, "form#login")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys(env.user)
    form.find_element(By.CSS_SELECTOR, "input[name=password]").send_keys("not the password")
    form.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
    error = visible(driver, "#login-error")
    assert error.get_attribute("role") == "alert"
    assert error.text.strip(), "#login-error is empty"
    assert not app_ready(driver), "the app opened with a wrong password"
    assert driver.get_cookie("slate_session") is None


def test_sign_in_shows_the_board_and_sign_out_returns_to_the_form(driver, env):
    sign_out_if_signed_in(driver, env)
    sign_in(driver, env.base, env.user, env.password)
    visible(driver, "nav#sidebar")
    visible(driver, "#app")
    titles = wait_for(driver, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "li.task-row .task-title")])
    assert "Write Act 2 outline" in titles
    cookie = session_cookie(driver)
    assert API(env.base, cookie=cookie).get("/session"), "the browser's session is not signed in"

    visible(driver, "button#logout").click()
    visible(driver, "form#login")
    gone(driver, "li.task-row")
    # Signed out is an answer, not an error (no 401 in the console at every load).
    assert API(env.base, cookie=cookie).get("/session") == {"signedIn": False}, \
        "the session still works on the server after signing out"

    # Reload: still signed out.
    driver.get(env.base + "/")
    visible(driver, "form#login")
    sign_in(driver, env.base, env.user, env.password)


def test_a_session_that_expires_says_so(driver, env):
    driver.get(env.base + "/?view=all")
    wait_for(driver, lambda d: app_ready(d) or is_visible(d, "form#login"))
    if not app_ready(driver):
        sign_in(driver, env.base, env.user, env.password)
    cookie = session_cookie(driver)
    # The server ends the session (as when it runs out): the browser still holds the cookie.
    API(env.base, cookie=cookie).delete("/session")
    # The next thing the app asks the server for answers 401 (its live event stream may
    # notice first; otherwise switching views does).
    try:
        message = visible(driver, "#session-expired", timeout=1.5)
    except Exception:
        driver.find_element(By.CSS_SELECTOR, 'a.nav-item[data-view="today"]').click()
        message = visible(driver, "#session-expired")
    assert message.text.strip(), "#session-expired shows no message"
    # It offers to sign in again, and signing in brings the board back.
    driver.get(env.base + "/")
    sign_in(driver, env.base, env.user, env.password)
    assert not is_visible(driver, "#session-expired")


def test_each_account_sees_only_its_own_tasks(driver, env, bob_api, api):
    bobs = bob_api.add_task(unique("Bob's private errand"))
    mine = api.add_task(unique("Local's own task"))
    try:
        sign_out_if_signed_in(driver, env)
        sign_in(driver, env.base, "bob", env.bob_password)
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'li.task-row[data-id="{bobs["id"]}"]'),
                 message="bob's own task is not shown to bob")
        titles = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "li.task-row .task-title")]
        assert "Write Act 2 outline" not in titles
        assert not driver.find_elements(By.CSS_SELECTOR, f'li.task-row[data-id="{mine["id"]}"]')
        names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "a.nav-item[data-list-id] .nav-name")]
        assert "Story" not in names, "bob sees local's lists"
    finally:
        bob_api.delete(f"/tasks/{bobs['id']}")
        api.delete(f"/tasks/{mine['id']}")
        sign_out_if_signed_in(driver, env)
        sign_in(driver, env.base, env.user, env.password)


def test_loading_the_app_signed_out_logs_no_failed_request(driver, env, browser_log):
    sign_out_if_signed_in(driver, env)
    seen = len(browser_log.drain(driver))
    driver.get(env.base + "/")
    visible(driver, "form#login")
    wait_for(driver, lambda d: d.execute_script("return performance.getEntriesByType('resource')"
                                                ".some((e) => e.name.endsWith('/api/v1/session'))"),
             message="the app did not ask whether it is signed in")
    entries = browser_log.drain(driver)[seen:]
    failed = [e["message"] for e in entries if "status of 401" in e["message"] or "/api/v1/session" in e["message"]]
    assert not failed, "the signed-out load logged:\n" + "\n".join(failed)
    sign_in(driver, env.base, env.user, env.password)
