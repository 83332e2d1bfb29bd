"""The fan-out ceiling for bench/server/sse-fanout: accepts event streams, answers each with a
hello, and on any other request sends one change frame to every stream in a plain loop of
send() calls (blocking sockets, one thread). What is left of the delay is the kernel and the
client."""
import resource
resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
# A fan-out ceiling: blocking sockets, one thread, sends the frame to every stream in a loop.
import socket, sys, threading, time
port = int(sys.argv[1])
streams = []
lock = threading.Lock()
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port)); srv.listen(4096)
hello = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
def chunk(b): return b"%x\r\n%s\r\n" % (len(b), b)
frame = chunk(b'id: 5\nevent: change\ndata: {"revision":5,"origin":"save","tasks":{"inserted":[],"updated":["0f6a1ad2-2f1c-4a3b-9c55-8a1e3d2b7c10"],"deleted":[]}}\n\n')
while True:
    c, _ = srv.accept()
    data = b""
    while b"\r\n\r\n" not in data:
        d = c.recv(65536)
        if not d: break
        data += d
    if not data:  # a probe that only connected
        c.close()
        continue
    if data.startswith(b"GET"):
        c.sendall(hello + chunk(b"id: 4\nevent: hello\nretry: 2000\ndata: {\"revision\":4}\n\n"))
        streams.append(c)
    else:
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"); c.close()
        t = time.monotonic()
        alive = []
        for s in streams:
            try: s.send(frame); alive.append(s)
            except OSError: s.close()
        done, streams = alive, []
        threading.Timer(2.0, lambda: [x.close() for x in done]).start()
        print(f"sent to {len(streams)} in {(time.monotonic()-t)*1000:.1f} ms", file=sys.stderr, flush=True)
