"""bench/scale --statements: what each request asks PostgreSQL, from pg_stat_statements
(the cluster is started with it preloaded). Counts do not depend on the machine's load."""
import os
import subprocess


def _psql(cluster_dir, sql):
    with open(os.path.join(cluster_dir, "port")) as f:
        port = f.read().strip()
    bins = sorted((d for d in os.listdir("/usr/lib/postgresql")), key=lambda v: [int(x) for x in v.split(".") if x.isdigit()])
    command = [f"/usr/lib/postgresql/{bins[-1]}/bin/psql", "-X", "-q", "-tA", "-F", "\t", "-h", os.path.join(cluster_dir, "socket"),
               "-p", port, "-d", "slate_test", "-v", "ON_ERROR_STOP=1", "-c", sql]
    if os.getuid() == 0:
        command = ["runuser", "-u", "postgres", "--"] + command
    return subprocess.run(command, capture_output=True, text=True, check=True, cwd="/").stdout


def reset(cluster_dir):
    _psql(cluster_dir, "SELECT pg_stat_statements_reset()")


def per_request(cluster_dir, requests, top=8):
    """The statements run since the reset: calls and execution time per request, busiest first."""
    rows = _psql(cluster_dir, "SELECT calls, total_exec_time, rows, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements "
                              "WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC")
    statements = []
    for line in rows.splitlines():
        calls, total_ms, returned, query = line.split("\t", 3)
        statements.append({"calls_per_request": int(calls) / max(1, requests), "exec_us_per_request": float(total_ms) * 1000 / max(1, requests),
                           "rows_per_call": int(returned) / max(1, int(calls)), "query": query[:2000]})
    return {"statements_per_request": sum(s["calls_per_request"] for s in statements),
            "exec_us_per_request": sum(s["exec_us_per_request"] for s in statements), "top": statements[:top]}
