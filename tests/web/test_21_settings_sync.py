"""Settings: "Sync with your phone" shows the CalDAV address, and a token made in Settings
signs a CalDAV client in with it (HTTP Basic: account name and the token)."""

import base64
import urllib.request

from slate_web import visible, wait_for
from test_20_settings_tokens import open_settings


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
