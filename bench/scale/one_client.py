#!/usr/bin/env python3
"""One client, one request at a time: what a single edit or read costs a node (bench/scale/one-client).

For each `slate` binary given (alternately, `--rounds` times), starts `slate serve` on the
store (a PostgreSQL URL or a SQLite file), then sends `--count` PATCHes with If-Match over one
keep-alive connection, each waiting for the last: no group commit, no concurrency, the
latency a person editing sees (with `--request get`, GETs of the same task instead). Reports the node's CPU per PATCH (utime + stime from
/proc/PID/stat), the wall time per PATCH, and with --strace the node's system calls per PATCH
(counted by `strace -f -c`, which slows the node: those rounds are not timed). System calls
do not depend on load, so they compare two binaries on a busy machine.
"""
import argparse, http.client, json, os, socket, statistics, subprocess, sys, tempfile, time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self, port, token, task):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": "Bearer " + token}
        self.task = task
        self.connection.request("GET", f"/api/v1/tasks/{task}", headers=self.headers)
        response = self.connection.getresponse()
        response.read()
        self.etag = response.getheader("ETag")

    def get(self, count):
        for _ in range(count):
            self.connection.request("GET", f"/api/v1/tasks/{self.task}", headers=self.headers)
            response = self.connection.getresponse()
            response.read()
            if response.status != 200:
                sys.exit(f"one-client: GET answered {response.status}")

    def patch(self, count):
        for i in range(count):
            body = json.dumps({"title": f"Storyboard pass {i}"})
            headers = {**self.headers, "If-Match": self.etag, "Content-Type": "application/json"}
            self.connection.request("PATCH", f"/api/v1/tasks/{self.task}", body=body, headers=headers)
            response = self.connection.getresponse()
            response.read()
            if response.status != 200:
                sys.exit(f"one-client: PATCH answered {response.status}")
            self.etag = response.getheader("ETag")


def serve(binary, store_args):
    port = free_port()
    node = subprocess.Popen([binary, *store_args, "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return node, port
        except OSError:
            time.sleep(0.05)
    node.kill()
    sys.exit(f"one-client: {binary} did not listen within 30 s")


def measure(binary, store_args, token, task, count, strace, request):
    node, port = serve(binary, store_args)
    try:
        client = Client(port, token, task)
        send = client.get if request == "get" else client.patch
        send(50)  # warm: statements prepared, caches filled, the start-up pass over
        time.sleep(0.5)
        if strace:
            out = tempfile.mktemp(prefix="one-client-strace.")
            tracer = subprocess.Popen(["strace", "-f", "-c", "-p", str(node.pid), "-o", out], stderr=subprocess.DEVNULL)
            time.sleep(1)
            send(count)
            time.sleep(0.5)
            tracer.send_signal(2)
            tracer.wait()
            calls = {}
            for line in open(out):
                parts = line.split()
                if len(parts) >= 5 and parts[0][0].isdigit() and parts[-1] != "total":
                    calls[parts[-1]] = int(parts[3]) / count
            os.unlink(out)
            return {"syscalls_per_request": round(sum(calls.values()), 1),
                    "by_call": {k: round(v, 1) for k, v in sorted(calls.items(), key=lambda kv: -kv[1])[:8]}}
        before, start = cpu_seconds(node.pid), time.time()
        send(count)
        wall = (time.time() - start) / count
        time.sleep(0.6)  # what the request started (an alert pass) is the request's cost too
        return {"node_cpu_us": (cpu_seconds(node.pid) - before) / count * 1e6, "wall_ms": wall * 1e3}
    finally:
        node.terminate()
        node.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", action="append", required=True, help="a slate binary (repeat to compare)")
    parser.add_argument("--store", required=True, help="postgresql://… URL or a SQLite file")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--strace", action="store_true")
    parser.add_argument("--request", choices=["patch", "get"], default="patch")
    parser.add_argument("--out")
    args = parser.parse_args()
    store_args = ["--database", args.store] if args.store.startswith("postgresql:") else ["--db", args.store]
    first = args.bin[0]
    subprocess.run([first, *store_args, "sample"], check=True, stdout=subprocess.DEVNULL)
    token = json.loads(subprocess.run([first, *store_args, "--json", "token", "create", "--label", "one-client"],
                                      check=True, capture_output=True, text=True).stdout)["token"]
    listed = json.loads(subprocess.run([first, *store_args, "--json", "list"], check=True, capture_output=True, text=True).stdout)
    task = (listed["tasks"] if isinstance(listed, dict) else listed)[0]["id"]
    results = {binary: [] for binary in args.bin}
    for _ in range(args.rounds):
        for binary in args.bin:
            results[binary].append(measure(binary, store_args, token, task, args.count, strace=False, request=args.request))
    traced = {binary: measure(binary, store_args, token, task, args.count, strace=True, request=args.request) for binary in args.bin} if args.strace else {}
    report = {"store": "postgresql" if store_args[0] == "--database" else "sqlite", "request": args.request, "count": args.count,
              "uptime": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(), "binaries": {}}
    for binary, runs in results.items():
        cpu = [r["node_cpu_us"] for r in runs]
        wall = [r["wall_ms"] for r in runs]
        entry = {"node_cpu_us_median": round(statistics.median(cpu)), "node_cpu_us": [round(c) for c in cpu],
                 "wall_ms_median": round(statistics.median(wall), 2), "wall_ms": [round(w, 2) for w in wall], **traced.get(binary, {})}
        report["binaries"][binary] = entry
        calls = f", {entry['syscalls_per_request']} system calls/{args.request.upper()}" if "syscalls_per_request" in entry else ""
        print(f"{report['store']:10} {binary}: node {entry['node_cpu_us_median']} µs/{args.request.upper()} (runs {entry['node_cpu_us']}), "
              f"wall {entry['wall_ms_median']} ms{calls}")
    if args.out:
        json.dump(report, open(args.out, "w"), indent=2)


if __name__ == "__main__":
    main()
