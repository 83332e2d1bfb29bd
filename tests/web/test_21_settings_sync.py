"""Settings: "Sync with your phone" shows the CalDAV address, and a token made in Settings
signs a CalDAV client in with it (HTTP Basic: account name and the token)."""

import base64
import urllib.request

from slate_web import By, unique, visible, wait_for
from test_20_settings_tokens import open_settings, token_rows


def test_sync_with_your_phone_shows_the_address_that_works(page, env, api):
    open_settings(page)
    address = visible(page.driver, "#caldav-address").get_attribute("value")
    assert address == env.base.rstrip("/") + "/dav/"
    assert "Sync with your phone" in page.css("#sync-heading").text
    token = api.post("/tokens", {"label": "phone (web test)"})["token"]
    request = urllib.request.Request(address, method="PROPFIND", headers={
        "Depth": "0", "Authorization": "Basic " + base64.b64encode(f"{env.user}:{token}".encode()).decode()})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 207
        assert f"/dav/principals/{env.user}/".encode() in response.read()
    wait_for(page.driver, lambda d: d.find_element("id", "caldav-address").is_displayed(), message="the address stays shown")


def test_a_device_gets_its_own_app_password_shown_once_with_what_to_type(page, env, api):
    open_settings(page)
    form = page.css("#device-form")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = visible(page.driver, "#device-form .form-error")
    assert "Name the device" in error.text, error.text
    assert not page.all("#device-setup"), "nothing is made without a name"

    device = unique("Ana's iPhone")
    form.find_element(By.CSS_SELECTOR, "input[name=device]").send_keys(device)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    password = visible(page.driver, "#device-password").get_attribute("value")
    values = [field.get_attribute("value") for field in page.all("#device-setup input")]
    assert values == [env.base.rstrip("/") + "/dav/", env.user, password], values
    assert device in page.css("#device-setup").text

    made = next(t for t in api.get("/tokens")["tokens"] if t["label"] == device)
    assert made["expires"] is None, "a device's app password does not expire by surprise"
    wait_for(page.driver, lambda d: device in token_rows(page).get(made["id"], ""), message="the device is not listed")
    assert "never used" in token_rows(page)[made["id"]]
    assert password not in page.css("#token-list").text, "the list never shows a password"

    request = urllib.request.Request(values[0], method="PROPFIND", headers={
        "Depth": "0", "Authorization": "Basic " + base64.b64encode(f"{values[1]}:{values[2]}".encode()).decode()})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 207, "the three values shown sign a CalDAV client in"
    page.driver.refresh()
    visible(page.driver, "#device-form")
    wait_for(page.driver, lambda d: "last used" in token_rows(page).get(made["id"], ""),
             message="the device's sync does not show as its last use")
    assert not page.all("#device-setup"), "the password is shown once, not again after a reload"
