"""The receivers bench/alerts delivers to, each in a process of its own so that one's work
does not delay another's arrival times:

    sinks.py smtp OUT            an SMTP sink (aiosmtpd): one JSON line per message taken
    sinks.py push OUT            a push service: one JSON line per message, answered 201 at once
    sinks.py pages OUT BASE TOKENS_FILE
                                 one live event stream per account (GET /api/v1/events):
                                 one JSON line per `alert` event

Each prints its port (or "ready") on its first line of standard output, records the arrival
time (time.time(), the same clock the benchmark computes lateness with) with each record,
and writes every record as it comes (line-buffered), so the benchmark can count them while
they arrive. The push sink keeps the body and headers as they came: the benchmark verifies
the VAPID signatures and decrypts every message after the run (bench.py says why).
"""
import base64
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def smtp(out_path):
    from aiosmtpd.controller import Controller

    out = open(out_path, "w", buffering=1)

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            out.write(json.dumps({"t": time.time(), "rcpt": envelope.rcpt_tos, "peer": list(session.peer),
                                  "data": envelope.content.decode("utf-8", "replace")}) + "\n")
            return "250 OK"

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    print(port, flush=True)
    threading.Event().wait()


def push(out_path):
    out = open(out_path, "w", buffering=1)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"   # keep-alive, as a push service speaks

        def log_message(self, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            arrived = time.time()
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()
            record = {"t": arrived, "path": self.path, "authorization": self.headers.get("Authorization", ""),
                      "topic": self.headers.get("Topic"), "encoding": self.headers.get("Content-Encoding"),
                      "body": base64.b64encode(body).decode()}
            with lock:
                out.write(json.dumps(record) + "\n")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_port, flush=True)
    server.serve_forever()


def pages(out_path, base, tokens_path):
    import http.client
    from urllib.parse import urlparse

    out = open(out_path, "w", buffering=1)
    lock = threading.Lock()
    tokens = json.load(open(tokens_path))
    address = urlparse(base)
    opened = threading.Semaphore(0)

    failures = []

    def listen(account, token):
        said_hello = False
        try:
            connection = http.client.HTTPConnection(address.hostname, address.port, timeout=None)
            connection.request("GET", "/api/v1/events", headers={"Authorization": "Bearer " + token, "Accept": "text/event-stream"})
            response = connection.getresponse()
            if response.status != 200:
                raise RuntimeError(f"events answered {response.status}")
            event, data = None, []
            while True:
                line = response.readline()
                if not line:
                    raise RuntimeError("the stream ended")
                line = line.decode().rstrip("\r\n")
                if line == "":
                    if event == "hello" and not said_hello:
                        said_hello = True
                        opened.release()
                    elif event == "alert":
                        with lock:
                            out.write(json.dumps({"t": time.time(), "account": account, "alert": json.loads("\n".join(data))}) + "\n")
                    event, data = None, []
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())
        except Exception as error:   # reported on standard error; the benchmark then finds alerts missing
            if not said_hello:
                print(f"pages: account {account}: {error}", file=sys.stderr, flush=True)
                failures.append(account)
                opened.release()

    for account, token in tokens.items():
        threading.Thread(target=listen, args=(account, token), daemon=True).start()
    for _ in tokens:
        opened.acquire()
    if failures:
        print(f"failed: {len(failures)} streams did not open", flush=True)
        sys.exit(1)
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "smtp":
        smtp(sys.argv[2])
    elif kind == "push":
        push(sys.argv[2])
    elif kind == "pages":
        pages(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"sinks.py: unknown sink {kind}")
