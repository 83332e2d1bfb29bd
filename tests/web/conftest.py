"""Fixtures of the browser tests: one headless chromium for the whole run, the server that
scripts/web-test started (SLATE_WEB_* variables), and a signed-in app page per test."""

from __future__ import annotations

import os
import re
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from slate_web import (  # noqa: E402
    API,
    By,
    app_ready,
    is_visible,
    make_driver,
    set_color_scheme,
    set_desktop,
    set_offline,
    visible,
    wait_for,
)

FAILURES = pathlib.Path(__file__).resolve().parents[2] / ".build" / "web-test-failures"


class Env:
    def __init__(self):
        try:
            self.base = os.environ["SLATE_WEB_BASE"].rstrip("/")
        except KeyError:
            raise pytest.UsageError("run the browser tests through scripts/web-test (SLATE_WEB_BASE is not set)")
        self.user = os.environ.get("SLATE_WEB_USER", "local")
        self.password = os.environ["SLATE_WEB_PASSWORD"]
        self.token = os.environ["SLATE_WEB_TOKEN"]
        self.bob_password = os.environ["SLATE_WEB_BOB_PASSWORD"]
        self.bob_token = os.environ["SLATE_WEB_BOB_TOKEN"]


@pytest.fixture(scope="session")
def env():
    return Env()


@pytest.fixture(scope="session")
def api(env):
    return API(env.base, token=env.token)


@pytest.fixture(scope="session")
def bob_api(env):
    return API(env.base, token=env.bob_token)


class BrowserLog:
    """Every console message of the run (chromium hands each one out once)."""

    def __init__(self):
        self.entries = []

    def drain(self, driver):
        try:
            self.entries += driver.get_log("browser")
        except Exception:
            pass
        return self.entries


@pytest.fixture(scope="session")
def browser_log():
    return BrowserLog()


class Browser:
    """The run's chromium, replaceable: a renderer that stops answering (a page stuck in a
    loop) is restarted so that one broken screen does not fail every later test.
    Attribute access goes to the current selenium driver."""

    def __init__(self, log):
        self._log = log
        self._driver = make_driver()
        self.restarts = 0

    def __getattr__(self, name):
        return getattr(self._driver, name)

    def responsive(self):
        try:
            self._driver.set_script_timeout(3)
            return self._driver.execute_script("return 1") == 1
        except Exception:
            return False
        finally:
            try:
                self._driver.set_script_timeout(20)
            except Exception:
                pass

    def restart(self):
        self._log.drain(self._driver)
        try:
            self._driver.quit()
        except Exception:
            pass
        self._driver = make_driver()
        self.restarts += 1

    def quit(self):
        self._log.drain(self._driver)
        self._driver.quit()


@pytest.fixture(scope="session")
def driver(browser_log):
    browser = Browser(browser_log)
    yield browser
    browser.quit()


def sign_in(driver, base, name, password):
    """Signs in through form#login (the page must be on the app). Waits for #app."""
    form = visible(driver, "form#login")
    name_field = form.find_element(By.CSS_SELECTOR, "input[name=name]")
    password_field = form.find_element(By.CSS_SELECTOR, "input[name=password]")
    name_field.clear()
    name_field.send_keys(name)
    password_field.clear()
    password_field.send_keys(password)
    form.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit]").click()
    wait_for(driver, lambda d: app_ready(d), message="the app did not show a view after signing in")


_login_failure = []


class Page:
    """The app in the shared browser, signed in as `local`."""

    def __init__(self, driver, env, api):
        self.driver = driver
        self.env = env
        self.api = api

    def open(self, query="", wait_ready=True):
        """Loads /?query (a full navigation), signing in if the app asks."""
        url = self.env.base + "/" + (("?" + query.lstrip("?")) if query else "")
        self.driver.get(url)
        if not wait_ready:
            return
        def ready_or_login(d):
            return app_ready(d) or is_visible(d, "form#login")
        wait_for(self.driver, ready_or_login, message=f"the app did not show a view or the sign-in form at {url}")
        if not app_ready(self.driver):
            sign_in(self.driver, self.env.base, self.env.user, self.env.password)
            if self.driver.current_url.rstrip("/") != url.rstrip("/"):
                self.driver.get(url)
                wait_for(self.driver, app_ready, message=f"the app did not show a view at {url}")

    def css(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)


@pytest.fixture
def page(driver, env, api):
    """A desktop-sized, light, online, signed-in app on All Tasks."""
    if len(_login_failure) >= 3:
        pytest.fail("the app did not open three times in a row; last: " + _login_failure[-1])
    set_desktop(driver)
    set_color_scheme(driver, None)
    set_offline(driver, False)
    page = Page(driver, env, api)
    try:
        try:
            page.open("view=all")
        except Exception as error:
            if driver.responsive():
                raise
            driver.restart()  # frozen by an earlier test: start afresh once
            page.open("view=all")
    except Exception as error:  # an app that never opens fails the rest fast
        _login_failure.append(f"{type(error).__name__}: {error}".splitlines()[0])
        raise
    _login_failure.clear()
    yield page
    # A test that left the page frozen fails here, and the next test gets a new browser.
    if not driver.responsive():
        driver.restart()
        pytest.fail("the page stopped responding (its renderer did not answer a script within 3 s); browser restarted")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.longrepr is not None:
        # chromedriver's native stack (#0 0x… <unknown>) says nothing; keep the message.
        text = str(report.longrepr)
        lines = [l for l in text.splitlines() if not re.match(r"^E\s+(#\d+ 0x[0-9a-f]+ <unknown>|Stacktrace:)$", l)]
        if len(lines) != len(text.splitlines()):
            report.longrepr = "\n".join(lines)
    if report.when == "call" and report.failed and "driver" in item.fixturenames:
        driver = item.funcargs.get("driver")
        if driver is not None:
            try:
                FAILURES.mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(FAILURES / f"{item.name}.png"))
            except Exception:
                pass
