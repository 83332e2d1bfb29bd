"""The same two fan-outs against sse_ceiling.py."""
import asyncio, os, resource, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench
n = int(sys.argv[1]); port = 19555
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4*n+4096), hard))
server = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "sse_ceiling.py"), str(port)],
                          stderr=subprocess.DEVNULL)
time.sleep(1)
try:
    async def go():
        for ph in ("first", "second"):
            streams, fails, secs = await bench.sse_open(port, "x", n, 15)
            x = await bench.sse_commit_and_time(port, "x", streams, "/x", {}, 15)
            d = x["delay_after_response_ms"]
            print(f"ceiling {ph}: recv {x['received']}/{len(streams)} within200 {x['within_200ms']} min {d['min']:.1f} p50 {d['p50']:.1f} p99 {d['p99']:.1f} max {d['max']:.1f}", flush=True)
            for _, w in streams: w.close()
    asyncio.run(go())
finally:
    server.kill()
