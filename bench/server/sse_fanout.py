"""bench/server/sse-fanout's driver: for each slate binary, `count` event streams get one
change, are closed, and `count` fresh ones get a second; prints the delivery delays and the
server's CPU time over each fan-out (from /proc, including 0.5 s of idle before the commit).
Then the same client against sse_ceiling.py, a send loop with nothing else to do."""
import asyncio, os, resource, subprocess, sys, time, signal
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench
slate, db, token, n, perf_out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), "-"
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
port = 18000 + os.getpid() % 1000
server = subprocess.Popen([slate, "serve", "--db", db, "--port", str(port), "--log-level", "off",
    "--max-connections", str(max(4096, 2*n+1024)), "--connections-per-ip", "0", "--streams-per-account", str(max(16, 2*n))],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
try:
    bench.wait_for_port(port, server)
    api = bench.API(port, token)
    ids, list_id, _ = bench.account_ids(api)
    target = ids[len(ids)//3]
    cur = api.call("GET", f"/api/v1/tasks/{target}")
    async def go():
        for ph, body in (("first", {"isCompleted": not cur["isCompleted"]}), ("second", {"isCompleted": cur["isCompleted"]})):
            streams, fails, secs = await bench.sse_open(port, token, n, 15)
            perf = None
            if perf_out != "-" and ph == "first":
                perf = subprocess.Popen(["perf", "record", "-F", "4999", "-g", "-o", perf_out, "-p", str(server.pid)], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
                await asyncio.sleep(1)
            c0 = cpu(server.pid)
            x = await bench.sse_commit_and_time(port, token, streams, f"/api/v1/tasks/{target}", body, 15)
            c1 = cpu(server.pid)
            if perf: perf.send_signal(signal.SIGINT); perf.wait()
            d = x["delay_after_response_ms"]
            print(f"{ph}: recv {x['received']}/{len(streams)} within200 {x['within_200ms']} min {d['min']:.1f} p50 {d['p50']:.1f} p99 {d['p99']:.1f} max {d['max']:.1f}; server CPU {1000*(c1-c0):.0f} ms (incl. 0.5 s idle)", flush=True)
            t = time.monotonic()
            for _, w in streams: w.close()
            await asyncio.sleep(2)
    asyncio.run(go())
finally:
    server.send_signal(signal.SIGTERM); server.wait()
