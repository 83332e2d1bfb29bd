"""Fixtures for the CalDAV tests: a running `slate serve` (started by scripts/caldav-test),
its accounts, a python-caldav client, raw HTTP and Slate's own REST API to check both sides."""

import base64
import json
import os
import urllib.error
import urllib.request
import uuid

import caldav
import pytest

BASE = os.environ["SLATE_URL"]
ANA = ("ana", os.environ["ANA_PASSWORD"])
ANA_APP = ("ana", os.environ["ANA_TOKEN"])
BOB = ("bob", os.environ["BOB_PASSWORD"])


class Reply:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def text(self):
        return self.body.decode("utf-8")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def http(method, path, body=b"", headers=None, auth=ANA_APP):
    """One request to the server; never raises on an HTTP status."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    request = urllib.request.Request(BASE + path, data=data if method not in ("GET", "HEAD") else None, method=method)
    if auth:
        request.add_header("Authorization", "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode())
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with _opener.open(request, timeout=30) as response:
            return Reply(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Reply(error.code, error.headers, error.read())


def api(method, path, payload=None, token=None):
    """Slate's REST API with a bearer token; returns the decoded JSON (or None)."""
    headers = {"Authorization": "Bearer " + (token or os.environ["ANA_TOKEN"])}
    body = b""
    if payload is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(payload).encode()
    request = urllib.request.Request(BASE + "/api/v1" + path, data=body or None, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        raw = response.read()
        return json.loads(raw) if raw else None


def api_tasks(token=None):
    return api("GET", "/tasks?status=all&limit=500", token=token)["tasks"]


@pytest.fixture
def client():
    with caldav.DAVClient(url=BASE + "/dav/", username=ANA_APP[0], password=ANA_APP[1]) as dav:
        yield dav


@pytest.fixture
def calendar(client):
    """A new VTODO list of its own, removed afterwards."""
    name = "test-" + uuid.uuid4().hex[:8]
    made = client.principal().make_calendar(name=name, cal_id=name, supported_calendar_component_set=["VTODO"])
    yield made
    http("DELETE", f"/dav/calendars/ana/{name}/")
