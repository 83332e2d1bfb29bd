"""Shared by the node tests: `slate serve` nodes on one PostgreSQL database (the cluster
scripts/pg-cluster made, from SLATE_TEST_POSTGRES_URL / _DIR), the `slate` command,
HTTP requests, a live-event reader, and waiting for a condition with a deadline."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

SLATE = os.path.abspath(os.environ.get("SLATE_BIN", ".build/debug/slate"))
DEADLINE = 30.0
CLUSTER = os.environ["SLATE_TEST_POSTGRES_DIR"]
BASE_URL = os.environ["SLATE_TEST_POSTGRES_URL"]
PASSWORD = "a long enough password 1"


def wait_for(condition, what, timeout=DEADLINE, every=0.02):
    """Polls `condition` until it returns something truthy; fails after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url(schema):
    """The test cluster's database, with the store's tables in `schema` (made by the store)."""
    return BASE_URL + "&options=" + urllib.parse.quote("-csearch_path=" + schema)


def cluster(command):
    """`scripts/pg-cluster COMMAND` on the test cluster (halt, resume)."""
    subprocess.run(["scripts/pg-cluster", command, CLUSTER], check=True, timeout=120)


class Folder:
    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="slate-nodes-")
        self.processes = []

    def __call__(self, *names):
        return os.path.join(self.path, *names)

    def remove(self):
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=DEADLINE)
        if not os.environ.get("NODES_TEST_KEEP"):
            shutil.rmtree(self.path, ignore_errors=True)


def slate(database, *args, stdin=None, check=True, env=None):
    """One `slate` command against `database` (a URL)."""
    result = subprocess.run([SLATE, "--database", database, *args], input=stdin, capture_output=True, text=True,
                            env={**os.environ, **(env or {})}, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"slate {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


def account(database, name="ana"):
    """Adds the account `name` and returns a bearer header for it (made on the database:
    every node accepts it)."""
    slate(database, "user", "add", name, "--password-stdin", stdin=PASSWORD + "\n")
    token = json.loads(slate(database, "--json", "token", "create", "--user", name).stdout)["token"]
    return {"Authorization": f"Bearer {token}"}


class Node:
    """`slate serve --database URL` as a child process on a free port, logging JSON."""

    def __init__(self, folder, database, name, *args, port=None):
        self.folder, self.database, self.name = folder, database, name
        self.log_path = folder(f"{name}.log")
        self.out_path = folder(f"{name}.out")
        self.port = port or free_port()
        self.process = subprocess.Popen(
            [SLATE, "--database", database, "serve", "--port", str(self.port), "--log-format", "json", *args],
            stdout=open(self.out_path, "w"), stderr=open(self.log_path, "w"))
        folder.processes.append(self.process)
        wait_for(self._listening, f"node {name} to listen")
        self.url = f"http://127.0.0.1:{self.port}"

    def _listening(self):
        if self.process.poll() is not None:
            raise AssertionError(f"node {self.name} exited {self.process.returncode}: {self.log()}")
        return any(event.get("event") == "listening" for event in self.events())

    def log(self):
        with open(self.log_path) as handle:
            return handle.read()

    def events(self):
        events = []
        for line in self.log().splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                pass
        return events

    def requests_served(self):
        return sum(1 for event in self.events() if "status" in event and event.get("path", "").startswith("/api/"))

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=DEADLINE)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=DEADLINE)


class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def request(url, method="GET", body=None, headers=None, timeout=DEADLINE):
    data = json.dumps(body).encode() if body is not None else None
    all_headers = {"Content-Type": "application/json"} if body is not None else {}
    all_headers.update(headers or {})
    req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return Reply(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Reply(error.code, dict(error.headers), error.read())


class EventStream:
    """`GET /api/v1/events` read on a thread of its own; `events` holds (time, name, data)."""

    def __init__(self, url, headers):
        self.events = []
        self.lock = threading.Lock()
        self.response = urllib.request.urlopen(urllib.request.Request(url + "/api/v1/events", headers=headers), timeout=60)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        wait_for(lambda: self.named("hello"), "the stream's hello")

    def _read(self):
        name, data = None, []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "":
                    if name:
                        with self.lock:
                            self.events.append((time.monotonic(), name, json.loads("\n".join(data)) if data else None))
                    name, data = None, []
        except Exception:  # closed under the reader (close()), or the node went away
            pass

    def named(self, name):
        with self.lock:
            return [event for event in self.events if event[1] == name]

    def close(self):
        # Shut the socket down first: closing the response alone waits for the reader.
        try:
            self.response.fp.raw._sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):
            pass
        self.response.close()


def all_tasks(url, headers):
    """Every task of the account, as id → title, read page by page from one node."""
    tasks, cursor = {}, None
    while True:
        query = "/api/v1/tasks?status=all&limit=200" + (f"&cursor={cursor}" if cursor else "")
        reply = request(url + query, headers=headers)
        assert reply.status == 200, reply.body
        page = reply.json()
        for task in page["tasks"]:
            tasks[task["id"]] = task["title"]
        cursor = page["nextCursor"]
        if not cursor:
            return tasks


def no_stack_trace(text):
    return not re.search(r"Stack dump|Fatal error|Backtrace|#\d+ 0x[0-9a-f]+", text)
