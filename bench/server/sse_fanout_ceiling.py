"""The same two fan-outs against sse_ceiling.py (a bare send() loop), measured by sse-client.

    python3 sse_fanout_ceiling.py COUNT SSE_CLIENT"""
import os, resource, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench
n, client = int(sys.argv[1]), sys.argv[2]
port = 19555
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4*n+4096), hard))
server = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "sse_ceiling.py"), str(port)],
                          stderr=subprocess.DEVNULL)
try:
    bench.wait_for_port(port, server)
    print("ceiling (sse_ceiling.py):")
    bench.report_sse(bench.sse_fanout_compiled(client, port, "x", n, "/x", {}, {}, 15, server.pid))
finally:
    server.kill()
