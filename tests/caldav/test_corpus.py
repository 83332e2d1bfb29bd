"""The byte-exact corpus: calendar objects as Apple Reminders, tasks.org, jtx Board,
Thunderbird, Evolution, DAVx5 and todoman write them. Each is PUT, read back byte for byte
with the same ETag, then retitled in Slate: only its SUMMARY line may change."""

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
    [task] = [task for task in api_tasks() if task["title"] == title]
    api("PATCH", f"/tasks/{task['id']}", {"title": "Retitled in Slate"})
    changed = http("GET", href)
    assert changed.headers["ETag"] != etag
    before = unfolded_lines(sent)
    after = unfolded_lines(changed.body)
    summary = [index for index, line in enumerate(before) if line.startswith(b"SUMMARY")]
    assert after[summary[0]] == b"SUMMARY:Retitled in Slate"
    assert [line for index, line in enumerate(before) if index != summary[0]] == \
        [line for index, line in enumerate(after) if index != summary[0]]
    # Every line other than SUMMARY keeps its exact bytes, folds and line ends included.
    raw_before = [line for line in physical_lines(sent) if not line.startswith(b"SUMMARY") and not line.startswith(b" ")]
    raw_after = [line for line in physical_lines(changed.body) if not line.startswith(b"SUMMARY") and not line.startswith(b" ")]
    assert raw_before == raw_after


def physical_lines(data):
    return data.split(b"\n")


def unfolded_lines(data):
    text = data.replace(b"\r\n", b"\n")
    return text.replace(b"\n ", b"").replace(b"\n\t", b"").split(b"\n")
