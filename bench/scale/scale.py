#!/usr/bin/env python3
"""bench/scale: bench/server's three request lines against SQLite (one node), PostgreSQL
(one node) and PostgreSQL (two nodes on one database), at each store size, with requests/s
and the CPU each request cost the node(s) and the PostgreSQL server. Python standard
library only; bench/scale/run builds, starts the cluster and calls this (README.md)."""
import argparse
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
import bench as server_bench  # noqa: E402  (bench/server/bench.py: run_wrk, cpu_seconds, API, …)
import nodes as scale_nodes  # noqa: E402
import report  # noqa: E402
import statements  # noqa: E402

LINES = [("GET /tasks/{id}", "get"), ("GET /tasks?list= (50)", "list"), ("PATCH /tasks/{id} If-Match", "patch-if-match")]
WRITERS = 2000  # tasks the PATCH line writes (ETags read first), split over the wrk processes


def free_port(taken):
    while True:
        port = int(subprocess.run([sys.executable, "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); "
                                   "print(s.getsockname()[1])"], capture_output=True, text=True).stdout)
        if port not in taken:
            taken.add(port)
            return port


def run_line(name, mode, nodes, args, env, pg_dir, seconds):
    """One wrk per node, in parallel, splitting -t/-c between them; CPU of the nodes and of
    the PostgreSQL server across the runs, per request."""
    share = SimpleNamespace(threads=max(1, args.threads // len(nodes)), connections=args.connections // len(nodes))
    if pg_dir and args.statements:
        statements.reset(pg_dir)
    pg_before = scale_nodes.postgres_cpu_seconds(pg_dir) if pg_dir else None
    with ThreadPoolExecutor(len(nodes)) as pool:
        futures = [pool.submit(server_bench.run_wrk, f"{name} @{i}", node.port, mode, seconds, share,
                               dict(env[i], SLATE_THREADS=str(share.threads)), node.pid) for i, node in enumerate(nodes)]
        runs = [future.result() for future in futures]
    pg_after = scale_nodes.postgres_cpu_seconds(pg_dir) if pg_dir else None
    requests = sum(r["requests"] for r in runs)
    node_cpu_us = sum(r["server_cpu_us_per_request"] * r["requests"] for r in runs)
    line = {
        "name": name, "mode": mode, "wrk": [f"-t{share.threads} -c{share.connections}"] * len(nodes),
        "requests": requests, "rps": sum(r["rps"] for r in runs), "errors": sum(r["error_total"] for r in runs),
        "p50_ms": sum(r["latency_us"]["p50"] * r["requests"] for r in runs) / max(1, requests) / 1000,
        "p99_ms": max(r["latency_us"]["p99"] for r in runs) / 1000,
        "node_cpu_us": node_cpu_us / max(1, requests),
        "pg_cpu_us": None if pg_dir is None else (pg_after - pg_before) * 1e6 / max(1, requests),
        "load": runs[0]["load_after"], "runs": runs,
    }
    if mode == "patch-if-match":
        line["if_match"] = {key: sum(r.get("if_match", {}).get(key, 0) for r in runs) for key in ("ok", "stale_412", "other")}
    line["cpu_us"] = line["node_cpu_us"] + (line["pg_cpu_us"] or 0)
    if pg_dir and args.statements:
        line["statements"] = statements.per_request(pg_dir, requests)
    return line


def measure(store, nodes, args, token, ids, list_id, pg_dir, work):
    """Warm-up (2 s of GETs and pages per node, not recorded), then the three lines."""
    ids_path = os.path.join(work, "ids.txt")
    with open(ids_path, "w") as f:
        f.write("\n".join(ids) + "\n")
    writers = random.Random(1).sample(ids, min(WRITERS, len(ids)))
    env = []
    for i in range(len(nodes)):
        etags = os.path.join(work, f"etags-{i}.txt")
        scale_nodes.write_etags(nodes[0].port, token, writers[i::len(nodes)], etags)
        env.append({"SLATE_TOKEN": token, "SLATE_IDS": ids_path, "SLATE_LIST": list_id, "SLATE_ETAGS": etags})
    for mode in ("get", "list"):
        run_line("warm-up", mode, nodes, args, env, pg_dir, 2)
    lines = []
    for name, mode in LINES:
        line = run_line(name, mode, nodes, args, env, pg_dir, args.seconds)
        pg = "" if line["pg_cpu_us"] is None else f" + PostgreSQL {line['pg_cpu_us']:.0f}"
        print(f"  {store:<22} {name:<28} {line['rps']:>8,.0f} req/s  p99 {line['p99_ms']:6.1f} ms  "
              f"CPU/request: node {line['node_cpu_us']:.0f}{pg} µs  errors {line['errors']}  (load {line['load'][0]:.1f})", flush=True)
        lines.append(line)
        if "statements" in line:
            found = line["statements"]
            print(f"    {found['statements_per_request']:.2f} statements and {found['exec_us_per_request']:.0f} µs of execution per request:")
            for statement in found["top"][:6]:
                print(f"      {statement['calls_per_request']:5.2f} × {statement['exec_us_per_request'] / max(statement['calls_per_request'], 1e-9):7.1f} µs"
                      f"  {statement['query'][:150]}")
        for node in nodes:
            if node.process.poll() is not None:
                sys.exit(f"scale: a node exited with {node.process.returncode} during {name}")
    return lines


def one_size(tasks, args, work, taken):
    print(f"\n{tasks:,} tasks", flush=True)
    db = os.path.join(work, f"slate-{tasks}.sqlite")
    token, seeded = scale_nodes.seed(args.seeder, args.slate, tasks, db, os.path.join(work, f"seed-{tasks}.json"))
    print(f"  seeded {tasks:,} tasks ({seeded['accounts']} accounts) into SQLite in {seeded['seconds']:.1f} s", flush=True)
    url = scale_nodes.schema_url(args.pg_url, f"scale_{tasks}")
    migrated = scale_nodes.migrate(args.slate, db, url)
    print(f"  copied to PostgreSQL (slate migrate) in {migrated['seconds']:.1f} s", flush=True)
    result = {"tasks": tasks, "seed": seeded, "migrate": migrated, "stores": {}}

    def start(database, name):
        node = scale_nodes.Node(args.slate, database, free_port(taken), os.path.join(work, f"{name}-{tasks}.log"))
        server_bench.wait_for_port(node.port, node.process, seconds=120)
        settle = node.settle(server_bench.cpu_seconds)
        print(f"  {name}: listening, idle after {settle:.1f} s", flush=True)
        return node, settle

    started = []
    try:
        node, settle = start(db, "sqlite")
        started.append(node)
        api = server_bench.API(node.port, token)
        ids, list_id, list_active = server_bench.account_ids(api)
        result.update(account_tasks=len(ids), list_active_tasks=list_active)
        result["stores"]["sqlite, 1 node"] = {"settle_seconds": [settle],
                                              "lines": measure("SQLite, 1 node", [node], args, token, ids, list_id, None, work)}
        node.stop()
        first, settle = start(url, "pg-a")
        started.append(first)
        result["stores"]["postgresql, 1 node"] = {"settle_seconds": [settle], "lines": measure(
            "PostgreSQL, 1 node", [first], args, token, ids, list_id, args.pg_dir, work)}
        second, settle_b = start(url, "pg-b")
        started.append(second)
        result["stores"]["postgresql, 2 nodes"] = {"settle_seconds": [settle, settle_b], "lines": measure(
            "PostgreSQL, 2 nodes", [first, second], args, token, ids, list_id, args.pg_dir, work)}
    finally:
        for node in started:
            node.stop()
    os.remove(db)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slate", required=True)
    parser.add_argument("--seeder", required=True)
    parser.add_argument("--pg-url", required=True, help="the cluster's database (scripts/pg-cluster start)")
    parser.add_argument("--pg-dir", required=True, help="the cluster's folder (its postmaster.pid)")
    parser.add_argument("--sizes", default="10000 1000000")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--out", required=True)
    parser.add_argument("--statements", action="store_true", help="pg_stat_statements per PostgreSQL line (the cluster preloads it)")
    parser.add_argument("--pg-settings", default="", help="the cluster's settings as the run set them (recorded)")
    parser.add_argument("--work", required=True, help="a folder for the databases (bench/scale/run removes it)")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split()]
    if any(size < 1000 or (size > 10_000 and size % 10_000) for size in sizes):
        sys.exit("scale: --sizes: each at least 1000, and above 10000 a multiple of 10000 (accounts of 10,000)")
    started = time.time()
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"wrk -t{args.threads} -c{args.connections} -d{args.seconds}s per line (two nodes: one wrk each, "
          f"-t{max(1, args.threads // 2)} -c{args.connections // 2}, in parallel); {uptime}", flush=True)
    work = args.work
    taken = set()
    results = []
    for size in sizes:
        results.append(one_size(size, args, work, taken))
        # Written after each size, so that an interrupted run keeps what it measured.
        document = {
            "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime(started)), "wall_seconds": round(time.time() - started, 1),
            "complete": len(results) == len(sizes), "machine": server_bench.machine(), "uptime_start": uptime, "postgresql_settings": args.pg_settings,
            "uptime_end": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
            "wrk": {"threads": args.threads, "connections": args.connections, "seconds": args.seconds,
                    "two_nodes": "one wrk per node in parallel, threads and connections split between them"},
            "sizes": results, "targets": report.targets(results),
        }
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            json.dump(document, f, indent=2)
            f.write("\n")
    report.print_tables(document)
    print(f"\nwrote {args.out}; {document['wall_seconds']} s; {document['uptime_end']}")


if __name__ == "__main__":
    main()
