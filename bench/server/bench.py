#!/usr/bin/env python3
"""bench/server: the REST API under wrk beside the bridge's ceiling, memory over a long run,
and Server-Sent Events fan-out. Python standard library only; bench/server/run starts it
after building and seeding (see bench/server/README.md)."""
import argparse
import asyncio
import http.client
import json
import os
import platform
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def rss_kib(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:", "Threads:")):
                key, value = line.split(":", 1)
                values[key] = int(value.split()[0])
    return values


def wait_for_port(port, process, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"bench: the server exited with {process.returncode} before listening on {port}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"bench: nothing listens on {port} after {seconds} s")


class API:
    def __init__(self, port, token):
        self.port, self.token = port, token

    def call(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        if response.status >= 300:
            sys.exit(f"bench: {method} {path} answered {response.status}: {payload[:300]!r}")
        return json.loads(payload) if payload else None


def cpu_seconds(pid):
    """utime + stime of a process (all its threads), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_wrk(name, port, mode, seconds, args, env_extra, pid=None, wrk_cpu=None):
    env = dict(os.environ, SLATE_MODE=mode, **env_extra)
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--latency",
               "-s", os.path.join(HERE, "lua", "api.lua"), f"http://127.0.0.1:{port}/"]
    if wrk_cpu is not None:
        command = ["taskset", "-c", str(wrk_cpu)] + command
    before = loadavg()
    cpu_before = cpu_seconds(pid) if pid else None
    output = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    cpu_after = cpu_seconds(pid) if pid else None
    after = loadavg()
    match = re.search(r"^WRK_JSON (.*)$", output, re.M)
    if not match:
        sys.exit(f"bench: no WRK_JSON line from wrk for {name}:\n{output}")
    result = json.loads(match.group(1))
    if_match = re.search(r"^WRK_IF_MATCH (.*)$", output, re.M)  # mode patch-if-match (bench/scale)
    if if_match:
        result["if_match"] = json.loads(if_match.group(1))
    result["name"], result["mode"], result["seconds"] = name, mode, seconds
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    result["error_total"] = sum(result["errors"].values())
    result["load_before"], result["load_after"] = before, after
    if pid:
        result["server_cpu_us_per_request"] = (cpu_after - cpu_before) * 1e6 / max(1, result["requests"])
    return result


def describe(result):
    lat = result["latency_us"]
    cpu = result.get("server_cpu_us_per_request")
    return (f"{result['rps']:>10,.0f} req/s  p50 {lat['p50'] / 1000:7.2f} ms  p99 {lat['p99'] / 1000:7.2f} ms  "
            f"errors {result['error_total']}  " + (f"server CPU {cpu:.0f} µs/request  " if cpu else "") +
            f"(load {result['load_after'][0]:.1f})")


# --- Server-Sent Events fan-out ------------------------------------------------------

async def sse_open(port, token, count, timeout):
    """Opens `count` event streams and waits for each one's hello; returns (streams, failures, seconds)."""
    request = (f"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
               f"Authorization: Bearer {token}\r\n\r\n").encode()
    streams = []
    failures = []

    async def open_one():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            await writer.drain()
            buffer = b""
            # The stream is chunked: wait for the hello event's blank line, not the chunk's end.
            while b"event: hello" not in buffer or b"\n\n" not in buffer[buffer.index(b"event: hello"):]:
                chunk = await asyncio.wait_for(reader.read(4096), timeout)
                if not chunk:
                    raise ConnectionError(f"closed before hello: {buffer[:200]!r}")
                buffer += chunk
            if b" 200 " not in buffer.split(b"\r\n", 1)[0]:
                raise ConnectionError(buffer.split(b"\r\n", 1)[0].decode())
            streams.append((reader, writer))
        except Exception as error:  # noqa: BLE001 - counted and reported
            failures.append(f"{type(error).__name__}: {error}")

    opened_at = time.monotonic()
    batch = 100  # stay well inside the listen backlog
    for start in range(0, count, batch):
        await asyncio.gather(*(open_one() for _ in range(start, min(count, start + batch))))
    return streams, failures, time.monotonic() - opened_at


def pct(values, p):
    if not values:
        return None
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def sse_commit_and_time(port, token, streams, commit_path, commit_body, timeout):
    """One PATCH; per stream, the delay from the end of its response to the stream's `change` event."""
    arrivals = [None] * len(streams)

    async def watch(index, reader):
        buffer = b""
        try:
            while b"event: change" not in buffer:
                chunk = await reader.read(4096)
                if not chunk:
                    return
                buffer += chunk
            arrivals[index] = time.monotonic()
        except Exception:  # noqa: BLE001
            return

    watchers = [asyncio.ensure_future(watch(i, reader)) for i, (reader, _) in enumerate(streams)]
    await asyncio.sleep(0.5)  # let every watcher sit in read()

    # The commit, on a raw connection so the timestamp is the arrival of the response's end.
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = json.dumps(commit_body).encode()
    sent = time.monotonic()
    writer.write((f"PATCH {commit_path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body)
    await writer.drain()
    response = await reader.read()  # Connection: close: until the end
    answered = time.monotonic()
    writer.close()
    status = response.split(b"\r\n", 1)[0].decode(errors="replace")

    if watchers:
        _, pending = await asyncio.wait(watchers, timeout=timeout)
        for task in pending:
            task.cancel()
    delays = sorted((a - answered) * 1000 for a in arrivals if a is not None)
    from_sent = sorted((a - sent) * 1000 for a in arrivals if a is not None)
    return {
        "streams": len(streams), "commit_status": status, "commit_round_trip_ms": (answered - sent) * 1000,
        "received": len(delays), "within_100ms": sum(1 for d in delays if d <= 100),
        "within_200ms": sum(1 for d in delays if d <= 200),
        "delay_after_response_ms": {"min": pct(delays, 0), "p50": pct(delays, 50), "p99": pct(delays, 99), "max": pct(delays, 100)},
        "delay_after_send_ms": {"p50": pct(from_sent, 50), "p99": pct(from_sent, 99), "max": pct(from_sent, 100)},
    }


def open_descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


async def sse_fanout(port, token, count, commit_path, first_body, second_body, timeout, server_pid):
    """Two fan-outs: `count` streams get one change; then every one of them is closed by the
    client and `count` new ones opened, and a second change goes out at once. Between the
    two, how long the server took to let go of the closed streams (its open descriptors)."""
    streams, failures, open_seconds = await sse_open(port, token, count, timeout)
    first = await sse_commit_and_time(port, token, streams, commit_path, first_body, timeout)
    first.update({"requested": count, "opened": len(streams), "open_failures": len(failures),
                  "failure_examples": failures[:5], "open_seconds": open_seconds})
    descriptors_open = open_descriptors(server_pid)
    closed_at = time.monotonic()
    for _, writer in streams:
        writer.close()
    # How long until the server's descriptors show the closed streams gone (5 s at most).
    released_after = None
    while time.monotonic() - closed_at < 5:
        if open_descriptors(server_pid) <= descriptors_open - int(0.99 * len(streams)):
            released_after = (time.monotonic() - closed_at) * 1000
            break
        await asyncio.sleep(0.005)
    fresh, failures, open_seconds = await sse_open(port, token, count, timeout)
    second = await sse_commit_and_time(port, token, fresh, commit_path, second_body, timeout)
    second.update({"requested": count, "opened": len(fresh), "open_failures": len(failures),
                   "failure_examples": failures[:5], "open_seconds": open_seconds})
    for _, writer in fresh:
        writer.close()
    return {"first": first, "second": second, "closed_streams_released_ms": released_after}


def sse_fanout_compiled(client, port, token, count, commit_path, first_body, second_body, timeout, server_pid):
    """The same two fan-outs measured by `sse-client` (bench/server/SSEClient: one thread,
    epoll), which stamps a stream's change when it reads it. The asyncio client above spends
    tens of microseconds of Python per stream on the same two cores as the server, so with
    10,000 streams its own work was most of the delay it measured (see BENCHMARKS.md)."""
    answer = subprocess.run([client, "--port", str(port), "--token", token, "--streams", str(count),
                             "--path", commit_path, "--first", json.dumps(first_body), "--second", json.dumps(second_body),
                             "--server-pid", str(server_pid), "--timeout", str(timeout)],
                            capture_output=True, text=True, timeout=20 * timeout + 120)
    if answer.returncode != 0:
        raise RuntimeError(f"sse-client failed ({answer.returncode}): {answer.stderr.strip()}")
    return json.loads(answer.stdout)


# --- Lost updates: concurrent If-Match writers ------------------------------------------

async def if_match_counter(port, token, task_ids, writers, total):
    """`writers` clients increment a counter kept in each task's notes, read-modify-write
    with If-Match, retrying on 412, until `total` increments succeeded. No lost update:
    every task's final count equals the increments acknowledged for it."""
    acknowledged = {task: 0 for task in task_ids}
    refused = 0
    done = 0

    async def call(reader, writer, method, path, body=None, etag=None):
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        if etag:
            head += f"If-Match: {etag}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        writer.write((head + "\r\n").encode() + data)
        await writer.drain()
        status_line = await reader.readline()
        headers = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        payload = await reader.readexactly(length) if length else b""
        return int(status_line.split()[1]), headers, payload

    async def worker(index):
        nonlocal refused, done
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        task = task_ids[index % len(task_ids)]
        while done < total:
            status, headers, payload = await call(reader, writer, "GET", f"/api/v1/tasks/{task}")
            current = json.loads(payload)
            count = int(current["notes"] or "0")
            status, headers, payload = await call(reader, writer, "PATCH", f"/api/v1/tasks/{task}",
                                                  {"notes": str(count + 1)}, headers["etag"])
            if status == 200:
                acknowledged[task] += 1
                done += 1
            elif status == 412:
                refused += 1
            else:
                raise RuntimeError(f"PATCH answered {status}: {payload[:200]!r}")
        writer.close()

    started = time.monotonic()
    await asyncio.gather(*(worker(i) for i in range(writers)))
    seconds = time.monotonic() - started
    finals = {}
    for task in task_ids:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        _, _, payload = await call(reader, writer, "GET", f"/api/v1/tasks/{task}")
        finals[task] = int(json.loads(payload)["notes"] or "0")
        writer.close()
    return {"writers": writers, "tasks": len(task_ids), "acknowledged": sum(acknowledged.values()), "refused_412": refused,
            "seconds": seconds, "final_counts_match": all(finals[t] == acknowledged[t] for t in task_ids),
            "finals": finals, "acknowledged_per_task": acknowledged}


# --- main ------------------------------------------------------------------------------

def machine():
    info = {"nproc": os.cpu_count(), "kernel": platform.release(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
        with open("/proc/meminfo") as f:
            info["mem_kib"] = int(f.readline().split()[1])
        info["wrk"] = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("\n")[0].strip()
        info["swift"] = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.split("\n")[0].strip()
    except Exception:  # noqa: BLE001
        pass
    return info


def account_ids(api):
    """Every task id of the benchmark's account, and the list with the most active tasks
    (the list page: a full page of 50 and a count behind it) with that count."""
    ids, cursor = [], None
    while True:
        page = api.call("GET", "/api/v1/tasks?status=all&limit=500" + (f"&cursor={cursor}" if cursor else ""))
        ids += [task["id"] for task in page["tasks"]]
        cursor = page["nextCursor"]
        if not cursor:
            break
    lists = api.call("GET", "/api/v1/lists")["lists"]
    sizes = {lst["id"]: api.call("GET", f"/api/v1/tasks?list={lst['id']}&limit=1")["total"] for lst in lists}
    list_id = max(sizes, key=sizes.get)
    return ids, list_id, sizes[list_id]


def report_sse(sse):
    fmt = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
    for phase in ("first", "second"):
        run = sse[phase]
        d = run["delay_after_response_ms"]
        cpu = f"; server CPU {run['server_cpu_ms']:.0f} ms" if run.get("server_cpu_ms") is not None else ""
        print(f"  {phase}: opened {run['opened']}/{run['requested']} in {run['open_seconds']:.1f} s; commit {run['commit_status']!r} "
              f"in {run['commit_round_trip_ms']:.1f} ms; change received by {run['received']}, within 200 ms: {run['within_200ms']}; "
              f"delay after the response p50 {fmt(d['p50'])} ms, p99 {fmt(d['p99'])} ms, max {fmt(d['max'])} ms{cpu}", flush=True)
        if run["failure_examples"]:
            print(f"  open failures, e.g. {run['failure_examples']}")
    print(f"  closed streams released by the server after {fmt(sse['closed_streams_released_ms'])} ms", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slate", required=True)
    parser.add_argument("--ceiling", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ceiling-port", type=int, required=True)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--memory-seconds", type=int, default=60)
    parser.add_argument("--sample-every", type=int, default=5)
    parser.add_argument("--sse", type=int, default=10000)
    parser.add_argument("--sse-client", help="bench/server's compiled fan-out client (sse-client); without it, the asyncio one")
    parser.add_argument("--sse-asyncio", action="store_true", help="also measure the fan-out with the asyncio client, after the compiled one")
    parser.add_argument("--if-match-writes", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seed-meta")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    # Thousands of event streams from this one client process.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.sse + 4096)), hard))
    started = time.time()
    load_start = loadavg()

    work = tempfile.mkdtemp(prefix="slate-bench-server-")
    # Streams: the per-account cap (16 by default) raised for this one benchmark account, and
    # room for two sets of them while the first set is being closed.
    server = subprocess.Popen([args.slate, "serve", "--db", args.db, "--port", str(args.port), "--log-level", "off",
                               "--max-connections", str(max(4096, 2 * args.sse + 1024)), "--connections-per-ip", "0",
                               "--streams-per-account", str(max(16, 2 * args.sse))],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "serve.err"), "w"))
    ceiling = subprocess.Popen([args.ceiling, str(args.ceiling_port)], stdout=subprocess.DEVNULL)
    try:
        wait_for_port(args.port, server)
        wait_for_port(args.ceiling_port, ceiling)
        api = API(args.port, args.token)

        ids, list_id, list_size = account_ids(api)
        if len(ids) < 1000:
            sys.exit(f"bench: only {len(ids)} tasks in the store")
        page = api.call("GET", f"/api/v1/tasks?list={list_id}&limit=50")
        ids_path = os.path.join(work, "ids.txt")
        with open(ids_path, "w") as f:
            f.write("\n".join(ids) + "\n")
        env = {"SLATE_TOKEN": args.token, "SLATE_IDS": ids_path, "SLATE_LIST": list_id}
        print(f"{len(ids)} tasks; list page: list {list_id} with {list_size} active tasks, page of {len(page['tasks'])}")
        print(f"wrk -t{args.threads} -c{args.connections} -d{args.seconds}s --latency; load average at start {load_start}")

        # Warm-up: both servers, 2 s each (not recorded).
        run_wrk("warm-up ceiling", args.ceiling_port, "get", 2, args, env)
        run_wrk("warm-up api", args.port, "mixed", 2, args, env)

        runs = []
        plan = [("ceiling", args.ceiling_port, "get"), ("GET /tasks/{id}", args.port, "get"),
                ("GET /tasks?list= (50)", args.port, "list"), ("PATCH /tasks/{id}", args.port, "patch"),
                ("ceiling (again)", args.ceiling_port, "get")]
        for name, port, mode in plan:
            result = run_wrk(name, port, mode, args.seconds, args, env, pid=server.pid if port == args.port else ceiling.pid)
            print(f"  {name:<24} {describe(result)}", flush=True)
            runs.append(result)
            if server.poll() is not None:
                sys.exit(f"bench: slate serve exited with {server.returncode} during {name}")
        ceiling_rps = statistics.mean(r["rps"] for r in runs if r["name"].startswith("ceiling"))
        for r in runs:
            r["ratio_to_ceiling"] = r["rps"] / ceiling_rps

        # The list page again with wrk alone on core 1 and the server alone on core 0, so that
        # the latency is the server's and not the queue behind wrk on the same core.
        pinned = None
        if (os.cpu_count() or 1) >= 2:
            subprocess.run(["taskset", "-a", "-p", "-c", "0", str(server.pid)], check=True, capture_output=True)
            try:
                pinned = run_wrk("GET /tasks?list= (50), pinned", args.port, "list", args.seconds, args, env,
                                 pid=server.pid, wrk_cpu=1)
            finally:
                subprocess.run(["taskset", "-a", "-p", "-c", f"0-{(os.cpu_count() or 2) - 1}", str(server.pid)],
                               check=True, capture_output=True)
            pinned["ratio_to_ceiling"] = pinned["rps"] / ceiling_rps
            print(f"  {'list page, server on core 0, wrk on core 1':<24} {describe(pinned)}", flush=True)
            runs.append(pinned)

        # Lost updates: 32 writers incrementing counters with If-Match (group commit must
        # honour each one's revision).
        counted = ids[:4]
        for task in counted:
            api.call("PATCH", f"/api/v1/tasks/{task}", {"notes": "0"})
        lost = asyncio.run(if_match_counter(args.port, args.token, counted, args.connections, args.if_match_writes))
        print(f"  If-Match counters: {lost['acknowledged']} increments acknowledged ({lost['acknowledged'] / lost['seconds']:,.0f}/s), "
              f"{lost['refused_412']} refused with 412, final counts match: {lost['final_counts_match']}", flush=True)

        # Memory: a mixed load (8 get : 1 list : 1 patch) for --memory-seconds, RSS sampled.
        print(f"memory: mixed load for {args.memory_seconds} s, VmRSS every {args.sample_every} s", flush=True)
        samples = [{"t": 0.0, **rss_kib(server.pid)}]
        env_mem = dict(os.environ, SLATE_MODE="mixed", **env)
        wrk = subprocess.Popen(["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.memory_seconds}s", "--latency",
                                "-s", os.path.join(HERE, "lua", "api.lua"), f"http://127.0.0.1:{args.port}/"],
                               env=env_mem, stdout=subprocess.PIPE, text=True)
        t0 = time.monotonic()
        while wrk.poll() is None:
            time.sleep(args.sample_every)
            samples.append({"t": round(time.monotonic() - t0, 1), **rss_kib(server.pid)})
        output = wrk.stdout.read()
        samples.append({"t": round(time.monotonic() - t0, 1), "after": True, **rss_kib(server.pid)})
        mixed = json.loads(re.search(r"^WRK_JSON (.*)$", output, re.M).group(1))
        mixed["rps"] = mixed["requests"] / (mixed["duration_us"] / 1e6)
        mixed["error_total"] = sum(mixed["errors"].values())
        loaded = [s["VmRSS"] for s in samples if 0 < s["t"] and not s.get("after")]
        first_half = loaded[: len(loaded) // 2]
        second_half = loaded[len(loaded) // 2:]
        memory = {
            "seconds": args.memory_seconds, "samples": samples, "wrk": mixed,
            "rss_idle_kib": samples[0]["VmRSS"], "rss_first_loaded_kib": loaded[0], "rss_last_loaded_kib": loaded[-1],
            "rss_max_kib": max(loaded), "hwm_kib": samples[-1]["VmHWM"],
            "growth_first_to_last_kib": loaded[-1] - loaded[0],
            "growth_half_means_kib": statistics.mean(second_half) - statistics.mean(first_half),
        }
        print(f"  mixed {mixed['rps']:,.0f} req/s, errors {mixed['error_total']}; VmRSS idle {memory['rss_idle_kib'] / 1024:.1f} MiB, "
              f"loaded {loaded[0] / 1024:.1f} → {loaded[-1] / 1024:.1f} MiB (max {max(loaded) / 1024:.1f})", flush=True)

        # SSE fan-out, twice: the second to fresh streams right after the first set was closed.
        print(f"SSE: opening {args.sse} streams", flush=True)
        target = ids[len(ids) // 3]
        current = api.call("GET", f"/api/v1/tasks/{target}")
        bodies = ({"isCompleted": not current["isCompleted"]}, {"isCompleted": current["isCompleted"]})
        if args.sse_client:
            sse = sse_fanout_compiled(args.sse_client, args.port, args.token, args.sse, f"/api/v1/tasks/{target}",
                                      *bodies, timeout=15, server_pid=server.pid)
        else:
            sse = asyncio.run(sse_fanout(args.port, args.token, args.sse, f"/api/v1/tasks/{target}", *bodies,
                                         timeout=15, server_pid=server.pid))
            sse["client"] = "asyncio (one Python process)"
        sse["rss_with_streams_kib"] = rss_kib(server.pid)["VmRSS"]
        report_sse(sse)
        if args.sse_client and args.sse_asyncio:
            print("SSE again, measured by the asyncio client", flush=True)
            sse["asyncio"] = asyncio.run(sse_fanout(args.port, args.token, args.sse, f"/api/v1/tasks/{target}",
                                                    *bodies, timeout=15, server_pid=server.pid))
            report_sse(sse["asyncio"])
        server_alive = server.poll() is None
    finally:
        for process in (server, ceiling):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in (server, ceiling):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()

    seed_meta = None
    if args.seed_meta and os.path.exists(args.seed_meta):
        with open(args.seed_meta) as f:
            seed_meta = json.load(f)
    by_name = {r["name"]: r for r in runs}
    list_pinned = by_name.get("GET /tasks?list= (50), pinned")
    targets = {
        "single GET >= 0.6 of the ceiling": by_name["GET /tasks/{id}"]["ratio_to_ceiling"] >= 0.6,
        "list page <= 0.3 ms of server CPU": (list_pinned or by_name["GET /tasks?list= (50)"])["server_cpu_us_per_request"] <= 300,
        "list page p99 < 10 ms (pinned)": list_pinned is not None and list_pinned["latency_us"]["p99"] < 10_000,
        "durable PATCH >= 2,000/s": by_name["PATCH /tasks/{id}"]["rps"] >= 2000,
        "no lost update (If-Match)": lost["final_counts_match"],
        "no errors": all(r["error_total"] == 0 for r in runs) and mixed["error_total"] == 0,
        f"{args.sse} SSE streams within 200 ms, twice": all(
            sse[p]["opened"] == args.sse and sse[p]["within_200ms"] == args.sse for p in ("first", "second")),
    }
    results = {
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime(started)),
        "wall_seconds": round(time.time() - started, 1), "machine": machine(),
        "load_start": load_start, "load_end": loadavg(),
        "wrk": {"threads": args.threads, "connections": args.connections, "seconds": args.seconds},
        "store": {"tasks": len(ids), "list_id": list_id, "list_active_tasks": list_size, "seed": seed_meta},
        "ceiling_rps_mean": ceiling_rps, "runs": runs, "memory": memory, "sse": sse, "if_match": lost,
        "server_alive_at_end": server_alive, "targets": targets,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")

    print()
    print(f"| line | req/s | p50 | p99 | errors | ratio to ceiling |")
    print(f"| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in runs:
        lat = r["latency_us"]
        print(f"| {r['name']} | {r['rps']:,.0f} | {lat['p50'] / 1000:.2f} ms | {lat['p99'] / 1000:.2f} ms | "
              f"{r['error_total']} | {r['ratio_to_ceiling']:.2f} |")
    lat = mixed["latency_us"]
    print(f"| mixed {args.memory_seconds} s (8 get : 1 list : 1 patch) | {mixed['rps']:,.0f} | {lat['p50'] / 1000:.2f} ms | "
          f"{lat['p99'] / 1000:.2f} ms | {mixed['error_total']} | {mixed['rps'] / ceiling_rps:.2f} |")
    print()
    for name, ok in targets.items():
        print(f"  {'met ' if ok else 'MISS'}  {name}")
    print(f"\nwrote {args.out}; {results['wall_seconds']} s; load average {load_start} → {results['load_end']}")


if __name__ == "__main__":
    main()
