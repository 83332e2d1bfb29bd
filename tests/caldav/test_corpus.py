"""The byte-exact corpus: calendar objects as Apple Reminders, tasks.org, jtx Board,
Thunderbird, Evolution, DAVx5 and todoman write them. Each is PUT, read back byte for byte
with the same ETag, then retitled in Slate: only its SUMMARY line may change."""

import os
import pathlib
import uuid

import pytest
from conftest import api, api_tasks, http

CORPUS = sorted((pathlib.Path(__file__).parent / "corpus").glob("*.ics"))


@pytest.fixture(scope="module")
def collection():
    name = "corpus-" + uuid.uuid4().hex[:8]
    made = http("MKCALENDAR", f"/dav/calendars/ana/{name}/")
    assert made.status == 201
    yield f"/dav/calendars/ana/{name}/"
    http("DELETE", f"/dav/calendars/ana/{name}/")


def test_the_corpus_is_large_enough():
    assert len(CORPUS) >= 12


@pytest.mark.parametrize("path", CORPUS, ids=[path.stem for path in CORPUS])
def test_put_get_byte_exact_then_only_summary_changes(collection, path):
    sent = path.read_bytes()
    href = collection + path.name
    put = http("PUT", href, body=sent, headers={"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"})
    assert put.status == 201, put.text
    etag = put.headers["ETag"]
    assert etag and etag.startswith('"')
    got = http("GET", href)
    assert got.status == 200
    assert got.body == sent
    assert got.headers["ETag"] == etag

    summary_line = next(line for line in unfolded_lines(sent) if line.startswith(b"SUMMARY"))
    title = summary_line.split(b":", 1)[1].decode("utf-8")
    task = the_task(api_tasks(), title)
    api("PATCH", f"/tasks/{task['id']}", {"title": "Retitled in Slate"})
    changed = http("GET", href)
    assert changed.headers["ETag"] != etag
    # The retitled VTODO is dated anew (VersionLineTests checks the values; an override the
    # change did not touch keeps its own).
    dated = {line for line in unfolded_lines(changed.body) if line.startswith(VERSION_LINES)} - set(unfolded_lines(sent))
    assert any(line.startswith(b"LAST-MODIFIED:") for line in dated) and any(line.startswith(b"DTSTAMP:") for line in dated), dated
    before = without_version_lines(unfolded_lines(sent))
    after = without_version_lines(unfolded_lines(changed.body))
    summary = [index for index, line in enumerate(before) if line.startswith(b"SUMMARY")]
    assert after[summary[0]] == b"SUMMARY:Retitled in Slate"
    assert [line for index, line in enumerate(before) if index != summary[0]] == \
        [line for index, line in enumerate(after) if index != summary[0]]
    # Every line other than SUMMARY keeps its exact bytes, folds and line ends included.
    raw_before = [line for line in without_version_lines(physical_lines(sent)) if not line.startswith(b"SUMMARY") and not line.startswith(b" ")]
    raw_after = [line for line in without_version_lines(physical_lines(changed.body)) if not line.startswith(b"SUMMARY") and not line.startswith(b" ")]
    assert raw_before == raw_after


VERSION_LINES = (b"DTSTAMP:", b"LAST-MODIFIED:", b"SEQUENCE:")


def without_version_lines(lines):
    """The lines without those Slate rewrites whenever it rewrites an object (DTSTAMP,
    LAST-MODIFIED, SEQUENCE): what is left must keep its bytes."""
    return [line for line in lines if not line.startswith(VERSION_LINES)]


def physical_lines(data):
    return data.split(b"\n")


def unfolded_lines(data):
    text = data.replace(b"\r\n", b"\n")
    return text.replace(b"\n ", b"").replace(b"\n\t", b"").split(b"\n")


BOB_APP = ("bob", os.environ["BOB_TOKEN"])


@pytest.mark.parametrize("path", CORPUS, ids=[path.stem for path in CORPUS])
def test_alerts_changed_in_slate_rewrite_only_the_alarms(path):
    """In Bob's account (the corpus UIDs are Ana's above): add an alert in Slate, then clear
    them; only VALARM components change, and alarms Slate does not model stay."""
    sent = path.read_bytes()
    href = f"/dav/calendars/bob/inbox/{path.name}"
    assert http("PUT", href, body=sent, headers={"Content-Type": "text/calendar"}, auth=BOB_APP).status == 201
    title = next(line for line in unfolded_lines(sent) if line.startswith(b"SUMMARY")).split(b":", 1)[1].decode()
    task = the_task(api_tasks(token=BOB_APP[1]), title)
    api("PATCH", f"/tasks/{task['id']}", {"alerts": task["alerts"] + ["2026-12-24T09:00:00Z"]}, token=BOB_APP[1])
    added = http("GET", href, auth=BOB_APP).body
    before, after = without_version_lines(physical_lines(sent)), without_version_lines(physical_lines(added))
    new = [line.rstrip(b"\r") for line in leftover(after, before)]
    # One VALARM block, and every line sent still there in order (the block went before END:VTODO).
    assert new[0] == b"BEGIN:VALARM" and new[-1] == b"END:VALARM" and new.count(b"BEGIN:VALARM") == 1
    assert b"TRIGGER;VALUE=DATE-TIME:20261224T090000Z" in new
    start = next(index for index, line in enumerate(after) if index >= len(before) or line != before[index])
    assert after[start + len(new)].startswith(b"END:VTODO")

    api("PATCH", f"/tasks/{task['id']}", {"alerts": []}, token=BOB_APP[1])
    cleared = http("GET", href, auth=BOB_APP).body
    kept_alarms = [block for block in alarm_blocks(cleared)]
    assert all(b"ACKNOWLEDGED" in block or b"X-APPLE-PROXIMITY" in block for block in kept_alarms)
    assert [block for block in alarm_blocks(sent) if b"ACKNOWLEDGED" in block or b"X-APPLE-PROXIMITY" in block] == kept_alarms
    # Outside the alarms, nothing moved.
    assert without_version_lines(without_alarms(cleared)) == without_version_lines(without_alarms(sent))
    http("DELETE", href, auth=BOB_APP)


def alarm_blocks(data):
    blocks, current = [], None
    for line in physical_lines(data):
        if line.startswith(b"BEGIN:VALARM"):
            current = [line]
        elif current is not None:
            current.append(line)
            if line.startswith(b"END:VALARM"):
                blocks.append(b"\n".join(current))
                current = None
    return blocks


def without_alarms(data):
    lines, inside = [], False
    for line in physical_lines(data):
        if line.startswith(b"BEGIN:VALARM"):
            inside = True
        if not inside:
            lines.append(line)
        if line.startswith(b"END:VALARM"):
            inside = False
    return lines


def leftover(after, before):
    """The lines of `after` left once `before`'s are matched in order (all must be)."""
    extra, index = [], 0
    for line in after:
        if index < len(before) and line == before[index]:
            index += 1
        else:
            extra.append(line)
    assert index == len(before), f"a line sent is missing or moved: {before[index] if index < len(before) else ''}"
    return extra


def the_task(tasks, title):
    """The task a corpus object is: with a completed override (09) there are two, and the
    object's main VTODO is the open series."""
    found = [task for task in tasks if task["title"] == title]
    if len(found) > 1:
        found = [task for task in found if not task["isCompleted"]]
    [task] = found
    return task
