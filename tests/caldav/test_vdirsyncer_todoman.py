"""vdirsyncer + todoman (pinned) both ways: a task made and completed in todoman reaches
Slate after `vdirsyncer sync`; a change made through Slate's API reaches `todo list`."""

import json
import os
import pathlib
import subprocess
import uuid

import pytest
from conftest import ANA_APP, BASE, api, api_tasks, http


def run(*command, work, stdin=None):
    result = subprocess.run(command, cwd=work, input=stdin, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "HOME": str(work), "XDG_CONFIG_HOME": str(work / "config"),
                                 "XDG_DATA_HOME": str(work / "data"), "XDG_CACHE_HOME": str(work / "cache")})
    assert result.returncode == 0, f"{' '.join(command)}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture
def setup(tmp_path):
    name = "vdir-" + uuid.uuid4().hex[:8]
    assert http("MKCALENDAR", f"/dav/calendars/ana/{name}/").status == 201
    config = tmp_path / "vdirsyncer.conf"
    config.write_text(f"""
[general]
status_path = "{tmp_path}/status/"

[pair slate]
a = "slate_local"
b = "slate_remote"
collections = ["from b"]

[storage slate_local]
type = "filesystem"
path = "{tmp_path}/calendars/"
fileext = ".ics"

[storage slate_remote]
type = "caldav"
url = "{BASE}/dav/"
username = "{ANA_APP[0]}"
password = "{ANA_APP[1]}"
item_types = ["VTODO"]
""")
    todoman = tmp_path / "todoman.py"
    todoman.write_text(f'path = "{tmp_path}/calendars/*"\ndate_format = "%Y-%m-%d"\ntime_format = "%H:%M"\n'
                       f'default_list = "{name}"\n')
    run("vdirsyncer", "-c", str(config), "discover", "slate", work=tmp_path, stdin="y\n" * 20)
    run("vdirsyncer", "-c", str(config), "sync", work=tmp_path)
    yield tmp_path, config, todoman, name
    http("DELETE", f"/dav/calendars/ana/{name}/")


def todo_list(work, todoman):
    return json.loads(run("todo", "-c", str(todoman), "--porcelain", "list", "--status", "ANY", work=work))


def test_todoman_to_slate_and_back(setup):
    work, config, todoman, name = setup
    run("todo", "-c", str(todoman), "new", "-l", name, "Record the foley", work=work)
    run("vdirsyncer", "-c", str(config), "sync", work=work)
    [task] = [task for task in api_tasks() if task["title"] == "Record the foley"]
    assert task["list"] == name and task["isCompleted"] is False

    [local] = [item for item in todo_list(work, todoman) if item["summary"] == "Record the foley"]
    run("todo", "-c", str(todoman), "done", str(local["id"]), work=work)
    run("vdirsyncer", "-c", str(config), "sync", work=work)
    assert api("GET", f"/tasks/{task['id']}")["isCompleted"] is True

    api("PATCH", f"/tasks/{task['id']}", {"title": "Record the foley, take two", "isCompleted": False})
    run("vdirsyncer", "-c", str(config), "sync", work=work)
    summaries = {item["summary"]: item for item in todo_list(work, todoman)}
    assert "Record the foley, take two" in summaries
    assert summaries["Record the foley, take two"]["completed"] is False


def test_slate_task_reaches_todo_list(setup):
    work, config, todoman, name = setup
    list_id = next(item["id"] for item in api("GET", "/lists")["lists"] if item["name"] == name)
    api("POST", "/tasks", {"title": "Check the slate numbers", "listId": list_id, "priority": "high"})
    run("vdirsyncer", "-c", str(config), "sync", work=work)
    items = [item for item in todo_list(work, todoman) if item["summary"] == "Check the slate numbers"]
    assert len(items) == 1
    assert items[0]["priority"] in (1, 2, 3, 4)
    # A second sync with nothing changed moves nothing: vdirsyncer's status matches the ETags.
    before = sorted(path.read_bytes() for path in pathlib.Path(work, "calendars", name).glob("*.ics"))
    run("vdirsyncer", "-c", str(config), "sync", work=work)
    after = sorted(path.read_bytes() for path in pathlib.Path(work, "calendars", name).glob("*.ics"))
    assert before == after
