"""bench/scale: the pieces around wrk — `slate serve` nodes, the PostgreSQL server's CPU,
seeding and copying the store. The wrk runs themselves are bench/server/bench.py's
(`run_wrk`, `cpu_seconds`), imported by scale.py."""
import http.client
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse

CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def postgres_cpu_seconds(cluster_dir):
    """CPU of the whole PostgreSQL server: the postmaster (with what its exited children
    left in cutime + cstime) and every live backend and helper it forked (utime + stime)."""
    with open(os.path.join(cluster_dir, "data", "postmaster.pid")) as f:
        postmaster = int(f.readline())
    fields = _stat_fields(postmaster)
    total = sum(int(fields[i]) for i in (11, 12, 13, 14))
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == postmaster:
            continue
        try:
            fields = _stat_fields(name)
        except OSError:  # gone between the listing and the read: its time is in cutime now
            continue
        if int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICK


def schema_url(base_url, schema):
    """The cluster's database with the store's tables in `schema` (the store creates it)."""
    return base_url + "&options=" + urllib.parse.quote("-csearch_path=" + schema)


def timed(command):
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"scale: {' '.join(command[:4])}… exited {result.returncode}: {result.stderr.strip()[:600]}")
    return result.stdout, time.monotonic() - started


def seed(seeder, slate, tasks, path, meta_path):
    """`tasks` tasks in a new SQLite file: one account of `tasks` up to 10,000, else accounts of
    10,000 each (a server's shape: the benchmark's account is one of them); and a token for
    the benchmark's account (the local one), which `slate migrate` copies with the rest."""
    per_account = min(tasks, 10_000)
    accounts = max(1, tasks // per_account)
    _, seconds = timed([seeder, "--count", str(per_account), "--accounts", str(accounts), "--slate", path, "--meta", meta_path])
    out, _ = timed([slate, "--database", path, "--json", "token", "create", "--label", "bench-scale"])
    with open(meta_path) as f:
        meta = json.load(f)
    return json.loads(out)["token"], {"seconds": seconds, "accounts": accounts, "tasks_per_account": per_account, **meta}


def migrate(slate, path, url):
    out, seconds = timed([slate, "--database", path, "--json", "migrate", "--to", url])
    return {"seconds": seconds, **json.loads(out)}


class Node:
    """`slate serve --database DB` on a free port, as bench/server starts it."""

    def __init__(self, slate, database, port, log_path):
        self.port = port
        self.process = subprocess.Popen(
            [slate, "--database", database, "serve", "--port", str(port), "--log-level", "off",
             "--max-connections", "4096", "--connections-per-ip", "0"],
            stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))
        self.pid = self.process.pid

    def settle(self, cpu_seconds, timeout=900):
        """Waits until the node is idle (under 2 % of a core for two 0.5 s samples in a row),
        so that its start-up work (the alert scheduler's first pass over every task) is not
        counted against the requests; returns the seconds that took."""
        started = time.monotonic()
        quiet, last = 0, cpu_seconds(self.pid)
        while quiet < 2:
            if self.process.poll() is not None:
                sys.exit(f"scale: a node exited with {self.process.returncode} while starting")
            if time.monotonic() - started > timeout:
                sys.exit(f"scale: a node was still busy after {timeout} s")
            time.sleep(0.5)
            now = cpu_seconds(self.pid)
            quiet = quiet + 1 if now - last < 0.01 else 0
            last = now
        return time.monotonic() - started

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def write_etags(port, token, ids, path):
    """Reads each task once (one kept-alive connection) and writes "id etag" lines for
    lua/api.lua's patch-if-match mode."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    lines = []
    for task in ids:
        connection.request("GET", f"/api/v1/tasks/{task}", headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        response.read()
        if response.status != 200 or not response.getheader("ETag"):
            sys.exit(f"scale: GET /api/v1/tasks/{task} answered {response.status} without an ETag")
        lines.append(f"{task} {response.getheader('ETag')}")
    connection.close()
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
