"""Saves screenshots of the web app's main screens into docs/screenshots/ (run through
`scripts/web-test --screenshots`, which starts the server on a temporary sample board).

  board.png         desktop 1280×800: All Tasks
  detail.png        desktop: a task open in the detail pane
  stats.png         desktop: statistics with the completions chart
  dark.png          desktop, dark scheme
  phone-list.png    phone 390×844: a list
  phone-swipe.png   phone: a row swiped left (Flag, Delete)
  phone-dark.png    phone, dark scheme: the sidebar
"""

import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from conftest import sign_in  # noqa: E402
from slate_web import (  # noqa: E402
    API, By, app_ready, make_driver, set_color_scheme, touch_swipe, visible, wait_for, wait_row,
)

OUT = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def main():
    base = os.environ["SLATE_WEB_BASE"]
    api = API(base, token=os.environ["SLATE_WEB_TOKEN"])
    tasks = {t["title"]: t for t in api.tasks("scope=all&status=all")}
    # A lived-in board: one task done, one flagged, one with subtasks, a completion to chart.
    api.patch(f"/tasks/{tasks['Record foley for Pizza Planet truck']['id']}", {"isCompleted": True})
    api.patch(f"/tasks/{tasks['Compose Woody' + chr(39) + 's theme variation']['id']}", {"isFlagged": True})
    outline = tasks["Write Act 2 outline"]
    for step in ["Museum act beats", "Gabby Gabby cameo", "Review with story team"]:
        api.post(f"/tasks/{outline['id']}/subtasks", {"title": step})
    story = next(l for l in api.lists() if l["name"] == "Story")

    OUT.mkdir(parents=True, exist_ok=True)
    driver = make_driver()
    saved = []

    def shot(name):
        time.sleep(0.4)  # let transitions finish: this is a picture, not a test
        path = OUT / f"{name}.png"
        driver.save_screenshot(str(path))
        saved.append(path)

    def desktop():
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})

    def phone():
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    def go(query, ready=app_ready):
        driver.get(f"{base}/?{query}")
        wait_for(driver, ready, timeout=10)

    try:
        desktop()
        set_color_scheme(driver, "light")
        driver.get(base + "/")
        sign_in(driver, base, os.environ.get("SLATE_WEB_USER", "local"), os.environ["SLATE_WEB_PASSWORD"])
        go("view=all&status=all")
        shot("board")
        go(f"view=all&task={outline['id']}")
        visible(driver, "aside#detail")
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#subtasks li.subtask")) >= 3)
        shot("detail")
        go("view=stats")
        visible(driver, "svg#completions-chart")
        shot("stats")
        set_color_scheme(driver, "dark")
        go("view=all&status=all")
        shot("dark")

        phone()
        set_color_scheme(driver, "light")
        go(f"list={story['id']}")
        shot("phone-list")
        row = wait_row(driver, next(t for t in api.tasks(f"list={story['id']}&status=active"))["id"])
        touch_swipe(driver, row, -120, start_fraction=0.8)
        wait_for(driver, lambda d: "swiped" in row.get_attribute("class").split())
        shot("phone-swipe")
        set_color_scheme(driver, "dark")
        go("", ready=lambda d: visible(d, "nav#sidebar a.nav-item[data-list-id]"))
        shot("phone-dark")
    finally:
        driver.quit()
    for path in saved:
        print(f"saved {path.relative_to(OUT.parents[1])} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
