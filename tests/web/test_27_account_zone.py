"""The account's time zone: taken from the browser when the account has none, shown and
changed in Settings (alerts at a time of day and calendar sync use it)."""

from slate_web import visible, wait_for, wait_until
from test_20_settings_tokens import open_settings


def test_an_account_without_a_zone_takes_the_browsers_and_settings_changes_it(page):
    page.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    try:
        # A page loaded before (in another zone) may still give the account its zone when
        # idle: it is left first, then the zone is cleared and the app loaded in Tokyo.
        page.open("view=all")
        page.api.patch("/account", {"timeZone": None})
        page.open("view=all")
        wait_until(lambda: page.api.get("/account")["timeZone"] == "Asia/Tokyo",
                   message="the account did not take the browser's zone")
        open_settings(page)
        select = visible(page.driver, "select#account-zone")
        assert select.get_attribute("value") == "Asia/Tokyo"
        server = page.api.get("/account")["serverTimeZone"]
        assert page.js("return arguments[0].options[0].textContent", select) == f"The server's ({server.replace('_', ' ')})"
        page.js("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));",
                select, "Europe/Berlin")
        wait_until(lambda: page.api.get("/account")["timeZone"] == "Europe/Berlin", message="Settings did not change the zone")
        # A zone the account has is never replaced by a browser elsewhere.
        page.open("view=all")
        open_settings(page)
        wait_for(page.driver, lambda d: page.css("select#account-zone").get_attribute("value") == "Europe/Berlin",
                 message="Settings does not show the account's zone")
        assert page.api.get("/account")["timeZone"] == "Europe/Berlin"
        # This device (Tokyo) is not on the account's clock: Settings says so and offers it.
        notice = visible(page.driver, "p.zone-mismatch")
        assert "Europe/Berlin" in notice.text and "Asia/Tokyo" in notice.text, notice.text
        notice.find_element("css selector", "button").click()
        wait_until(lambda: page.api.get("/account")["timeZone"] == "Asia/Tokyo", message="Use this device's zone did nothing")
        wait_for(page.driver, lambda d: not notice.is_displayed(), message="the notice stays once the zones agree")
    finally:
        page.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
        page.api.patch("/account", {"timeZone": None})
