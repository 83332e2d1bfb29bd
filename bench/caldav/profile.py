"""Instruction counts of Slate's CalDAV requests at two collection sizes, under callgrind
(load-independent, unlike wall-clock times on a shared machine).

    python3 bench/caldav/profile.py [SLATE_BINARY] [COUNTS]     e.g. .build/release/slate 2000,10000

Seeds one collection per count by PUT (the server running normally), then restarts the
server under `valgrind --tool=callgrind --instr-atstart=no` and, for each request of
bench/caldav/bench.py, switches collection on, sends it (after one warm-up), switches it
off and dumps: one callgrind file per request and count in the work folder it prints,
for callgrind_annotate. Prints each request's instructions per count and their growth.
"""

import concurrent.futures
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from bench import PROPFIND_ETAGS, Client, multiget, query, sync, todo, token_of  # noqa: E402

SLATE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/slate")
COUNTS = [int(n) for n in (sys.argv[2] if len(sys.argv) > 2 else "2000,10000").split(",")]
PASSWORD = "profile-password-1234"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(port, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the server did not listen on {port}")


def serve(db, port, work, under_valgrind):
    command = [SLATE, "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "off"]
    if under_valgrind:
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={work}/callgrind.%p"] + command
    process = subprocess.Popen(command, stdout=open(f"{work}/serve.out", "a"), stderr=subprocess.STDOUT)
    wait_for(port, 600 if under_valgrind else 60)
    return process


def wait_idle(pid, quiet=0.05, seconds=600):
    """Until the server spends less than `quiet` CPU seconds in 2 s: under callgrind its
    background work (the alert scheduler reading the seeded bodies) would count as the
    request's."""
    def cpu():
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    deadline = time.time() + seconds
    last = cpu()
    while time.time() < deadline:
        time.sleep(2)
        now = cpu()
        if now - last < quiet:
            return
        last = now


def main():
    # PROFILE_WORK=<folder of an earlier run> reuses its seeded database.
    work = os.environ.get("PROFILE_WORK") or tempfile.mkdtemp(prefix="caldav-profile-")
    db = f"{work}/slate.sqlite"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    if not os.environ.get("PROFILE_WORK"):
        seed(db, port, work, base)
    profile(db, port, work, base)


def seed(db, port, work, base):
    subprocess.run([SLATE, "--db", db, "user", "add", "bench", "--password-stdin"], input=PASSWORD.encode(), check=True,
                   stdout=subprocess.DEVNULL)
    server = serve(db, port, work, False)
    for count in COUNTS:
        path = f"/dav/calendars/bench/p{count}/"
        assert Client(base, "bench", PASSWORD).request("MKCALENDAR", path)[0] == 201

        def put(chunk):
            client = Client(base, "bench", PASSWORD)
            for index in chunk:
                status = client.request("PUT", f"{path}p-{count}-{index}.ics", todo(f"p-{count}-{index}", index).encode(),
                                        {"Content-Type": "text/calendar"})[0]
                assert status in (201, 204), status
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(put, [range(i, count, 8) for i in range(8)]))
    server.terminate()
    server.wait()


def profile(db, port, work, base):
    server = serve(db, port, work, True)
    wait_idle(server.pid)
    client = Client(base, "bench", PASSWORD, timeout=3600)
    results = {}
    for count in COUNTS:
        path = f"/dav/calendars/bench/p{count}/"
        hrefs = [f"{path}p-{count}-{index}.ics" for index in range(count)]
        token = token_of(client.request("REPORT", path, sync(""))[1])
        changed = hrefs[count // 2]
        current = client.request("GET", changed)[1]
        client.request("PUT", changed, current.replace(b"SUMMARY:Bench task", b"SUMMARY:Edited bench task", 1),
                       {"Content-Type": "text/calendar"})
        wait_idle(server.pid)
        calendar = {"Content-Type": "text/calendar"}
        requests = {
            "sync-collection after one change": ("REPORT", path, sync(token), {}, 207),
            "PROPFIND Depth 1 (etags)": ("PROPFIND", path, PROPFIND_ETAGS, {"Depth": "1"}, 207),
            "multiget of 100": ("REPORT", path, multiget(hrefs[:100]), {"Depth": "1"}, 207),
            "sync-collection from scratch": ("REPORT", path, sync(""), {}, 207),
            "calendar-query, full data": ("REPORT", path, query(True), {"Depth": "1"}, 207),
            # A new resource each time (the warm-up stores one of its own), as bench.py's PUT line.
            "PUT of a new resource": ("PUT", lambda n: f"{path}new-{count}-{n}.ics",
                                      lambda n: todo(f"new-{count}-{n}", n).encode(), calendar, 201),
        }
        for label, (method, target, body, headers, expected) in requests.items():
            for attempt in (1_000_000, 1_000_001):   # the first is the warm-up
                where = target(attempt) if callable(target) else target
                content = body(attempt) if callable(body) else body
                if attempt == 1_000_000:
                    client.request(method, where, content, headers)
                    wait_idle(server.pid)
                    continue
                subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], check=True, stdout=subprocess.DEVNULL)
                status = client.request(method, where, content, headers)[0]
                subprocess.run(["callgrind_control", "-i", "off", str(server.pid)], check=True, stdout=subprocess.DEVNULL)
            assert status == expected, (label, status)
            name = re.sub(r"[^A-Za-z0-9]+", "-", label.split(",")[0]) + f"-{count}"
            subprocess.run(["callgrind_control", "-d", name, str(server.pid)], check=True, stdout=subprocess.DEVNULL)
            results[(label, count)] = latest_total(work, server.pid)
            print(f"{label} at {count}: {results[(label, count)]:,} instructions", flush=True)
    server.terminate()
    server.wait()
    print(f"\ncallgrind files in {work}")
    for label in dict.fromkeys(label for label, _ in results):
        counts = [results[(label, count)] for count in COUNTS]
        growth = f"  ({counts[-1] / counts[0]:.2f}× from {COUNTS[0]:,} to {COUNTS[-1]:,})" if len(counts) > 1 else ""
        print(f"{label}: " + ", ".join(f"{c:,}" for c in counts) + growth)


def latest_total(work, pid):
    """The instruction total of the newest dump of `pid`."""
    dumps = sorted((f for f in os.listdir(work) if f.startswith(f"callgrind.{pid}.")), key=lambda f: int(f.rsplit(".", 1)[1]))
    with open(os.path.join(work, dumps[-1])) as handle:
        values = {line.split(":")[0]: int(line.split()[1]) for line in handle if line.startswith(("summary:", "totals:"))}
    return values.get("totals") or values.get("summary", 0)


if __name__ == "__main__":
    main()
