"""Settings: the account's API tokens — listed with label, created, last used and expiry;
created (the secret shown once) and revoked from the browser."""

from slate_web import API, APIError, By, unique, visible, wait_for, wait_until


def open_settings(page):
    visible(page.driver, '#sidebar a.nav-item[data-view="settings"]').click()
    wait_for(page.driver, lambda d: "view=settings" in d.current_url, message="the Settings link did not open ?view=settings")
    visible(page.driver, "#token-form")
    assert page.css("#view-title").text == "Settings"
    assert not page.css("#task-scroller").is_displayed(), "the task list is hidden in Settings"


def token_rows(page):
    return {row.get_attribute("data-token-id"): row.text for row in page.all("#token-list li.settings-token")}


def test_tokens_are_listed_created_once_and_revoked(page, env, api):
    api.get("/tasks")  # the run's own token has been used at least once
    open_settings(page)
    wait_for(page.driver, lambda d: token_rows(page), message="the test run's own token is not listed")
    label = unique("Phone")
    form = page.css("#token-form")
    form.find_element(By.CSS_SELECTOR, "input[name=label]").send_keys(label)
    form.find_element(By.CSS_SELECTOR, 'select[name=expiresIn] option[value="30d"]').click()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

    secret_field = visible(page.driver, "#new-token input.settings-token-value")
    secret = secret_field.get_attribute("value")
    assert len(secret) >= 40, "the new token is shown once, in full"
    assert API(env.base, token=secret).get("/tasks") is not None, "the shown token works"
    # Copy puts it on the clipboard (headless: read back through the page).
    page.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
                                                             "origin": env.base})
    copy = visible(page.driver, "#new-token button.settings-copy")
    copy.click()
    wait_for(page.driver, lambda d: copy.text == "Copied", message="Copy did not say it copied")
    assert page.driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))") == secret
    created = next(t for t in api.get("/tokens")["tokens"] if t["label"] == label)
    assert created["expires"], "the chosen expiry was sent"
    wait_for(page.driver, lambda d: label in token_rows(page).get(created["id"], ""), message="the new token is not listed")
    row_text = token_rows(page)[created["id"]]
    assert "expires" in row_text and "Created" in row_text and "never used" in row_text, row_text
    own = [text for text in token_rows(page).values() if "last used" in text]
    assert own, "the run's own token (used by these tests) shows when it was last used"
    assert secret not in page.css("#token-list").text, "the list never shows a secret"

    row = page.css(f'#token-list li[data-token-id="{created["id"]}"]')
    revoke = row.find_element(By.CSS_SELECTOR, "button.settings-revoke")
    revoke.click()
    assert created["id"] in token_rows(page), "one click only asks"
    revoke.click()
    wait_for(page.driver, lambda d: created["id"] not in token_rows(page), message="the revoked token is still listed")

    def refused():
        try:
            API(env.base, token=secret).get("/tasks")
            return False
        except APIError as error:
            return error.status == 401
    wait_until(refused, timeout=3, message="the revoked token still works")


def test_a_label_over_the_limit_is_explained(page):
    open_settings(page)
    page.js("document.querySelector('#token-form input[name=label]').removeAttribute('maxlength')")
    page.css("#token-form input[name=label]").send_keys("x" * 101)
    page.css("#token-form button[type=submit]").click()
    error = visible(page.driver, "#token-form .form-error")
    assert "100" in error.text and error.get_attribute("role") == "alert"
