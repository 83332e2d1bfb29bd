"""bench/server/sse-fanout's driver: for one slate binary, `count` event streams get one
change, are closed, and `count` fresh ones get a second, measured by sse-client (the
compiled client bench/server/run uses); prints the delivery delays and the server's CPU time
over each fan-out (from /proc, including 0.5 s of idle before the commit).

    python3 sse_fanout.py SLATE DB TOKEN COUNT SSE_CLIENT"""
import os, resource, signal, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench
slate, db, token, n, client = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
port = 18000 + os.getpid() % 1000
server = subprocess.Popen([slate, "serve", "--db", db, "--port", str(port), "--log-level", "off",
    "--max-connections", str(max(4096, 2*n+1024)), "--connections-per-ip", "0", "--streams-per-account", str(max(16, 2*n))],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    bench.wait_for_port(port, server)
    api = bench.API(port, token)
    ids, list_id, _ = bench.account_ids(api)
    target = ids[len(ids)//3]
    cur = api.call("GET", f"/api/v1/tasks/{target}")
    sse = bench.sse_fanout_compiled(client, port, token, n, f"/api/v1/tasks/{target}",
                                    {"isCompleted": not cur["isCompleted"]}, {"isCompleted": cur["isCompleted"]}, 15, server.pid)
    bench.report_sse(sse)
finally:
    server.send_signal(signal.SIGTERM); server.wait()
