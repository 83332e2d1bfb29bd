"""Shared by the ops tests: temporary folders, a `slate serve` child process, HTTP(S)
requests, and waiting for a condition with a deadline (never a bare sleep)."""
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

SLATE = os.environ.get("SLATE_BIN", ".build/release/slate")
DEADLINE = 30.0


def wait_for(condition, what, timeout=DEADLINE):
    """Polls `condition` until it returns something truthy; fails after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Folder:
    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="slate-ops-")
        self.processes = []  # servers started in this folder, stopped by remove()

    def __call__(self, *names):
        return os.path.join(self.path, *names)

    def write(self, name, text):
        with open(self(name), "w") as handle:
            handle.write(text)
        return self(name)

    def remove(self):
        """Stops any server a failed test left running, then deletes the folder."""
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=DEADLINE)
        if not os.environ.get("OPS_TEST_KEEP"):
            shutil.rmtree(self.path, ignore_errors=True)


def slate(db, *args, stdin=None, check=True, env=None):
    """Runs one `slate` command against `db`; returns the CompletedProcess."""
    result = subprocess.run([SLATE, "--db", db, *args], input=stdin, capture_output=True, text=True,
                            env={**os.environ, **(env or {})}, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"slate {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


class Server:
    """`slate serve` as a child process with its output in files, started on a free port
    with --log-format json (unless a --config file says otherwise); `url` is known once the
    `listening` line is logged."""

    def __init__(self, folder, db, *args, env=None, name="serve"):
        self.folder = folder
        self.out_path = folder(f"{name}.out")
        self.log_path = folder(f"{name}.log")
        command = [SLATE, "--db", db, "serve", *args]
        if "--config" not in args:  # a configuration file says these itself
            command += ["--log-format", "json"] + ([] if "--port" in args else ["--port", "0"])
        self.process = subprocess.Popen(command, stdout=open(self.out_path, "w"), stderr=open(self.log_path, "w"),
                                        env={**os.environ, **(env or {})})
        folder.processes.append(self.process)
        self.listening = wait_for(self._listening, "slate serve to listen")
        self.url = self.listening["address"]

    def _listening(self):
        if self.process.poll() is not None:
            raise AssertionError(f"slate serve exited {self.process.returncode}: {self.log()}")
        for event in self.events():
            if event.get("event") == "listening":
                return event
        return None

    def output(self):
        with open(self.out_path) as handle:
            return handle.read()

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

    def password(self):
        """The first-start password printed once on standard output."""
        lines = self.output().splitlines()
        for index, line in enumerate(lines):
            if "with the password" in line:
                return lines[index + 1].strip()
        raise AssertionError("no first-start password printed")

    def signal(self, number):
        self.process.send_signal(number)

    def stop(self):
        """SIGTERM, then waits; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("slate serve did not stop within the deadline after SIGTERM")


class Reply:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def request(url, method="GET", body=None, headers=None, context=None, timeout=DEADLINE):
    data = json.dumps(body).encode() if body is not None else None
    all_headers = {"Content-Type": "application/json"} if body is not None else {}
    all_headers.update(headers or {})
    req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=context) as response:
            return Reply(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Reply(error.code, dict(error.headers), error.read())


def tls_context(certificate):
    context = ssl.create_default_context(cafile=certificate)
    return context


def make_certificate(folder):
    """A self-signed certificate for 127.0.0.1 and localhost, made with openssl req."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", folder("tls.key"), "-out", folder("cert.pem")],
                   check=True, capture_output=True, timeout=120)
    return folder("cert.pem"), folder("tls.key")
