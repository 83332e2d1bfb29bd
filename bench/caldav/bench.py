"""CalDAV benchmark: Slate beside Radicale and Xandikos with the same client
and the same VTODOs, in one run. See bench/caldav/run; figures go to BENCHMARKS.md.

Each server gets one task collection of N VTODOs. Slate is seeded through PUT (8 clients);
the peers through their storage (Radicale: .ics files in the collection's folder; Xandikos:
the files committed once into the collection's git repository), because seeding them by PUT
takes minutes per thousand. No server gets a warm-up request: each line's first timed
request is that server's first of its kind after seeding (for Slate, right after the PUTs),
and each line is the median of REPEATS.
The servers take turns line by line: every collection is seeded first, then each line's
REPEATS requests go to Slate, then to Radicale, then to Xandikos, and so on with the next
line, so a change in the machine's load during the run (a build ending, another process)
falls on every server alike. (Until 2026-12-07 each server ran all its lines before the
next began. Taking turns request by request was tried and not kept: then every one of
Slate's requests came after a second or more of idling while a peer worked, which no
client's sync does, and measured waking an idle VM more than serving the request.)
PUT throughput is timed separately on every server with the same 8 clients.
"""

import base64
import concurrent.futures
import http.client
import json
import os
import statistics
import sys
import time
import urllib.parse
import uuid

# Nine requests a line on every server (three until 2026-12-07): a median of three requests
# of half a millisecond moved by half from run to run on a 2-core VM (the incremental sync at
# 10,000 took 0.37-1.04 ms in runs of the same binary, where 2,000 requests in a row cost the
# same at 2,000 and 10,000), more than any change it was meant to show.
REPEATS = 9


def todo(uid, index):
    return (f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Slate bench//EN\r\nBEGIN:VTODO\r\nUID:{uid}\r\n"
            f"DTSTAMP:20261201T090000Z\r\nCREATED:20261201T090000Z\r\nSUMMARY:Bench task {index}\r\n"
            f"DESCRIPTION:Notes for task {index}\r\nPRIORITY:{index % 10}\r\nDUE;VALUE=DATE:2027{1 + index % 12:02d}{1 + index % 28:02d}\r\n"
            f"STATUS:NEEDS-ACTION\r\nCATEGORIES:bench,t{index % 7}\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")


class Client:
    def __init__(self, base, user, password, timeout=300):
        parts = urllib.parse.urlsplit(base)
        self.timeout = timeout
        self.host, self.port = parts.hostname, parts.port
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.connection = None

    def request(self, method, path, body=b"", headers=None):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                # An XML body says so, as clients do (Xandikos refuses a PROPFIND or REPORT
                # body without a Content-Type with 415); a PUT names its own.
                typed = {"Content-Type": "application/xml; charset=utf-8"} if body and method != "PUT" else {}
                self.connection.request(method, path, body=body, headers={"Authorization": self.auth, **typed, **(headers or {})})
                response = self.connection.getresponse()
                return response.status, response.read(), response
            except (ConnectionError, http.client.HTTPException):
                self.connection = None
                if attempt:
                    raise


PROPFIND_ETAGS = b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>'
PROPFIND_CTAG = (b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:prop>'
                 b"<cs:getctag/><d:sync-token/></d:prop></d:propfind>")


def query(data):
    prop = "<d:getetag/>" + ("<c:calendar-data/>" if data else "")
    return (f'<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>{prop}</d:prop>'
            '<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>').encode()


def multiget(hrefs):
    return ('<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>'
            "<c:calendar-data/></d:prop>" + "".join(f"<d:href>{h}</d:href>" for h in hrefs) + "</c:calendar-multiget>").encode()


def sync(token):
    return (f'<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>{token}</d:sync-token>'
            "<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>").encode()


def token_of(body):
    text = body.decode()
    return text.split("sync-token>")[1].split("<")[0] if "sync-token>" in text else ""


def timed(results, line, function):
    """Times `function` REPEATS times in a row into results[line] (the median, ms), then
    yields: the next server's turn (`in_turns`)."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    results[line] = statistics.median(times)
    yield


def in_turns(runs):
    """Runs the generators of `measure` one line each in turn until all end; returns their
    results in order."""
    results = [None] * len(runs)
    active = list(enumerate(runs))
    while active:
        for entry in list(active):
            index, run = entry
            try:
                next(run)
            except StopIteration as end:
                results[index] = end.value
                active.remove(entry)
    return results


def put_many(base, user, password, collection, items, clients=8):
    def worker(chunk):
        client = Client(base, user, password)
        for uid, index in chunk:
            status, body, _ = client.request("PUT", f"{collection}{uid}.ics", todo(uid, index).encode(),
                                             {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"})
            assert status in (201, 204), (status, body[:300])
    chunks = [items[i::clients] for i in range(clients)]
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        list(pool.map(worker, chunks))
    return len(items) / (time.perf_counter() - start)


def measure(name, base, user, password, collection, hrefs):
    """A generator: one timed line per step (`timed`), the lines' results its return value."""
    client = Client(base, user, password)
    results = {}

    def ok(status, body, expected=207):
        assert status == expected, (name, status, body[:300])
        return body

    yield from timed(results, "PROPFIND Depth 1 (etags)", lambda: ok(*client.request("PROPFIND", collection, PROPFIND_ETAGS, {"Depth": "1"})[:2]))
    yield from timed(results, "calendar-query, full data", lambda: ok(*client.request("REPORT", collection, query(True), {"Depth": "1"})[:2]))
    yield from timed(results, "multiget of 100", lambda: ok(*client.request("REPORT", collection, multiget(hrefs[:100]), {"Depth": "1"})[:2]))
    yield from timed(results, "sync-collection from scratch", lambda: ok(*client.request("REPORT", collection, sync(""))[:2]))
    _, body, _ = client.request("REPORT", collection, sync(""))
    token = token_of(body)
    changed = hrefs[len(hrefs) // 2]
    status, current, _ = client.request("GET", changed)
    assert status == 200, (name, status)
    edited = current.replace(b"SUMMARY:Bench task", b"SUMMARY:Edited bench task", 1)
    assert client.request("PUT", changed, edited, {"Content-Type": "text/calendar"})[0] in (201, 204)

    def incremental():
        body = ok(*client.request("REPORT", collection, sync(token))[:2])
        assert body.count(b"<d:response>") + body.count(b"<response>") + body.count(b":response>") >= 1, body[:500]
    yield from timed(results, "sync-collection after one change", incremental)

    def refresh():
        ok(*client.request("PROPFIND", collection, PROPFIND_CTAG, {"Depth": "0"})[:2])
        ok(*client.request("REPORT", collection, query(False), {"Depth": "1"})[:2])
        ok(*client.request("REPORT", collection, multiget(hrefs[:30]), {"Depth": "1"})[:2])
    yield from timed(results, "DAVx5-style refresh (ctag, query, multiget 30)", refresh)
    return results


def connection_of(server):
    """A server's name, address, account and collection folder, from the run's configuration."""
    return tuple(server[k] for k in ("name", "base", "user", "password", "collection"))


def main():
    config = json.loads(sys.argv[1])
    report = {}
    servers = config["servers"]
    for count in config["counts"]:
        runs = []
        for server in servers:
            name, base, user, password, collection = connection_of(server)
            items = [(f"{server['prefix']}-{count}-{i}", i) for i in range(count)]
            path = f"{collection}{count}/"
            if server.get("seeded"):
                path = server["seeded"][str(count)]
            else:
                client = Client(base, user, password)
                status, body, _ = client.request("MKCALENDAR", path)
                assert status == 201, (status, body[:300])
                put_many(base, user, password, path, items)
            hrefs = [f"{path}{uid}.ics" for uid, _ in items]
            runs.append(measure(name, base, user, password, path, hrefs))
        for server, results in zip(servers, in_turns(runs)):
            report[f"{server['name']} {count}"] = results
            print(f"{server['name']} {count}: " + ", ".join(f"{k} {v:.1f} ms" for k, v in results.items()), flush=True)
    for server in servers:
        name, base, user, password, collection = connection_of(server)
        puts = [(f"{server['prefix']}-put-{uuid.uuid4().hex}", i) for i in range(config["put_count"])]
        put_path = server.get("put_collection") or f"{collection}puts/"
        if not server.get("put_collection"):
            Client(base, user, password).request("MKCALENDAR", put_path)
        report[f"{name} PUT/s"] = put_many(base, user, password, put_path, puts)
        print(f"{name}: PUT {report[f'{name} PUT/s']:.0f}/s with 8 clients", flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
