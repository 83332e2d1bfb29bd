"""Alerts end to end with a real `slate serve` (run by scripts/alerts-test).

1. Delivery: a task due in a moment alerts once by webhook (HMAC-SHA256 signature checked),
   once by email (multipart text + HTML, the title in the subject, its list, its due time in
   the account's zone, a link) and once by Web Push (VAPID verified, decrypted), and not
   again; a push device whose service answers 410 Gone is removed.
2. Failing channels: a webhook and a push service that answer 503 and an SMTP server that
   answers 451 the first time get the alert again (backoff, the same delivery id), each
   failure is logged, and the server keeps running.
3. kill -9: rounds that kill the server while the webhook request is in flight, or before
   the due time; after each restart the alert arrives, and every alert's delivery id is
   the same on every attempt on every channel: one alert, one delivery per channel.
"""
import hashlib
import hmac
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo
from email import message_from_bytes
from email.header import decode_header, make_header
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import base64

import http_ece
from aiosmtpd.controller import Controller
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

SLATE = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="slate-alerts-")
DB = os.path.join(WORK, "slate.sqlite")
ROUNDS = int(os.environ.get("ALERTS_KILL_ROUNDS", "20"))


def fail(message):
    print(f"alerts-test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def wait_for(condition, what, timeout=20.0):
    """Polls `condition` until true; fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    fail(f"timed out waiting for {what}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- the webhook receiver --------------------------------------------------------------

class Webhook:
    def __init__(self):
        self.lock = threading.Lock()
        self.posts = []          # (delivery id, payload)
        self.acted = []          # delivery ids a receiver that drops known ids acted on
        self.repeats = []        # (delivery id, whether it said X-Slate-Redelivery) of each repeat
        self.secret = b""
        self.fail_next = 0       # answer 503 this many times
        self.kill_on_arrival = None  # a callable run (once) when a request arrives

    def handler(self):
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                expected = "sha256=" + hmac.new(hook.secret, body, hashlib.sha256).hexdigest()
                if not hmac.compare_digest(self.headers.get("X-Slate-Signature", ""), expected):
                    fail(f"webhook signature {self.headers.get('X-Slate-Signature')} != {expected}")
                payload = json.loads(body)
                if payload["id"] != self.headers.get("X-Slate-Delivery"):
                    fail("X-Slate-Delivery differs from the payload's id")
                with hook.lock:
                    known = any(known_id == payload["id"] for known_id, _ in hook.posts)
                    if known:
                        hook.repeats.append((payload["id"], self.headers.get("X-Slate-Redelivery") == "true"))
                    elif self.headers.get("X-Slate-Redelivery") == "true" and payload.get("repeat") is not True:
                        fail("X-Slate-Redelivery without the payload's repeat")
                    if not known:
                        hook.acted.append(payload["id"])
                    hook.posts.append((payload["id"], payload))
                    kill, hook.kill_on_arrival = hook.kill_on_arrival, None
                    failing = hook.fail_next > 0
                    hook.fail_next -= 1 if failing else 0
                if kill:
                    kill()   # the server dies with this request in flight
                    return
                self.send_response(503 if failing else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler

    def for_task(self, task_id):
        with self.lock:
            return [payload for _, payload in self.posts if payload["taskId"] == task_id]


# --- the push service --------------------------------------------------------------------

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """Stands in for a browser's push service: checks the VAPID token (ES256 over the
    server's public key, the audience, the expiry) and decrypts each message as the
    browser would (http_ece, aes128gcm) with the subscription's own keys."""

    def __init__(self):
        self.lock = threading.Lock()
        self.messages = []       # decrypted payloads
        self.gone = set()        # device paths that answer 410
        self.fail_next = 0       # answer 503 this many times
        self.failed = []         # the delivery ids of the messages answered 503
        self.vapid_key = None    # the server's public key (base64url)
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.private_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.p256dh = b64url(point)

    def handler(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path in service.gone:
                    self.send_response(410)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                service.check_vapid(self.headers.get("Authorization", ""), f"http://127.0.0.1:{self.server.server_port}")
                if self.headers.get("Content-Encoding") != "aes128gcm":
                    fail(f"push Content-Encoding {self.headers.get('Content-Encoding')}")
                plain = http_ece.decrypt(body, private_key=service.private_key, auth_secret=service.auth, version="aes128gcm")
                message = json.loads(plain)
                if self.headers.get("Topic") != message["id"].replace("-", ""):
                    fail(f"push Topic {self.headers.get('Topic')} is not the delivery id {message['id']}")
                with service.lock:
                    failing = service.fail_next > 0
                    if failing:
                        service.fail_next -= 1
                        service.failed.append(message["id"])
                    else:
                        service.messages.append(message)
                self.send_response(503 if failing else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler

    def check_vapid(self, header, audience):
        fields = dict(part.strip().split("=", 1) for part in header[len("vapid "):].split(","))
        if not header.startswith("vapid ") or fields.get("k") != self.vapid_key:
            fail(f"push Authorization is not vapid with the server's key: {header[:80]}")
        head, claims, signature = fields["t"].split(".")
        raw = unb64url(signature)
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(self.vapid_key))
        try:
            key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                       f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            fail("the VAPID signature does not verify")
        claims = json.loads(unb64url(claims))
        if json.loads(unb64url(head)).get("alg") != "ES256" or claims["aud"] != audience or claims["exp"] < time.time():
            fail(f"VAPID claims {claims}")

    def for_task(self, task_id):
        with self.lock:
            return [m for m in self.messages if m["taskId"] == task_id]


# --- the SMTP sink ---------------------------------------------------------------------

class Sink:
    def __init__(self):
        self.lock = threading.Lock()
        self.messages = []
        self.refuse_next = 0

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.refuse_next > 0:
                self.refuse_next -= 1
                return "451 4.3.0 Try again later"
            self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content)))
        return "250 OK"

    def with_title(self, title):
        with self.lock:
            return [m for _, m in self.messages if str(make_header(decode_header(m["Subject"]))) == "Reminder: " + title]


# --- the server ------------------------------------------------------------------------

class Server:
    def __init__(self, smtp_port):
        self.smtp_port = smtp_port
        self.process = None
        self.base = None

    def start(self):
        out = open(os.path.join(WORK, "serve.out"), "w")
        err = open(os.path.join(WORK, "serve.err"), "a")
        self.process = subprocess.Popen(
            [SLATE, "--db", DB, "serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "errors",
             "--smtp-url", f"smtp://127.0.0.1:{self.smtp_port}", "--smtp-from", "slate@example.test"],
            stdout=out, stderr=err)

        def port():
            if self.process.poll() is not None:
                fail("slate serve exited: " + open(os.path.join(WORK, "serve.err")).read())
            for line in open(os.path.join(WORK, "serve.out")):
                if line.startswith("  http://127.0.0.1:"):
                    return line.split(":")[2].split("/")[0]
            return None

        self.base = f"http://127.0.0.1:{wait_for(port, 'slate serve to listen')}"

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)

    def alive(self):
        return self.process.poll() is None


def slate(*words, stdin=None):
    result = subprocess.run([SLATE, "--db", DB, *words], input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"slate {' '.join(words)}: {result.stderr}")
    return result.stdout


def api(server, token, method, path, body=None):
    request = urllib.request.Request(server.base + "/api/v1" + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def due_in(seconds):
    moment = datetime.now(timezone.utc) + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z", moment


def main():
    hook = Webhook()
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), hook.handler())
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    push = PushService()
    push_server = ThreadingHTTPServer(("127.0.0.1", 0), push.handler())
    threading.Thread(target=push_server.serve_forever, daemon=True).start()
    sink = Sink()
    smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
    smtp.start()

    slate("user", "add", "ana", "--password-stdin", "--email", "ana@example.test", stdin="a long enough password 1\n")
    token = json.loads(slate("--json", "token", "create", "--user", "ana", "--label", "alerts-test"))["token"]
    server = Server(smtp.port)
    server.start()
    try:
        settings = api(server, token, "PATCH", "/alerts/settings", {"webhookURL": f"http://127.0.0.1:{receiver.server_port}/hook"})
        hook.secret = settings["webhookSecret"].encode()
        push.vapid_key = api(server, token, "GET", "/push/key")["publicKey"]
        endpoint = f"http://127.0.0.1:{push_server.server_port}"
        device = api(server, token, "POST", "/push/devices", {"endpoint": endpoint + "/device/1", "p256dh": push.p256dh,
                                                              "auth": b64url(push.auth), "label": "test browser"})

        # 1. Once per channel, the email with the task's list and its due time in the account's zone.
        api(server, token, "PATCH", "/account", {"timeZone": "America/New_York"})
        sound = api(server, token, "POST", "/lists", {"name": "Sound & Music"})
        due, moment = due_in(1.5)
        task = api(server, token, "POST", "/tasks", {"title": "Mix <the> trailer", "due": due, "alerts": ["due"], "listId": sound["id"]})
        wait_for(lambda: hook.for_task(task["id"]) and sink.with_title("Mix <the> trailer"), "the webhook and the email")
        mail = sink.with_title("Mix <the> trailer")[0]
        parts = {part.get_content_type(): part.get_payload(decode=True).decode() for part in mail.walk() if not part.is_multipart()}
        if "Mix <the> trailer" not in parts.get("text/plain", "") or "Mix &lt;the&gt; trailer" not in parts.get("text/html", ""):
            fail(f"the email's text and HTML parts: {parts}")
        if f"?task={task['id']}" not in parts["text/plain"]:
            fail("the email has no link to the task")
        local = moment.astimezone(ZoneInfo("America/New_York"))
        zone = "Eastern Daylight Time" if local.dst() else "Eastern Standard Time"
        expected_due = f"Due: {local.strftime('%A')} {local.day} {local.strftime('%B %Y, %H:%M')} ({zone})"
        if expected_due not in parts["text/plain"] or "List: Sound & Music" not in parts["text/plain"]:
            fail(f"the email's due time in the account's zone ({expected_due!r}) or its list: {parts['text/plain']!r}")
        # Another task's alert later proves the scheduler went on; this one was not sent again.
        due, _ = due_in(1.0)
        marker = api(server, token, "POST", "/tasks", {"title": "Marker", "due": due, "alerts": ["due"]})
        wait_for(lambda: hook.for_task(marker["id"]) and sink.with_title("Marker"), "the marker alert")
        wait_for(lambda: push.for_task(task["id"]) and push.for_task(marker["id"]), "the push messages")
        if len(hook.for_task(task["id"])) != 1 or len(sink.with_title("Mix <the> trailer")) != 1 or len(push.for_task(task["id"])) != 1:
            fail("an alert was delivered more than once")
        if push.for_task(task["id"])[0]["title"] != "Mix <the> trailer":
            fail(f"the push payload: {push.for_task(task['id'])[0]}")
        print("alerts-test: webhook (signed), email (text + HTML, list, due time in the account's zone, link) and "
              "Web Push (VAPID verified, decrypted) each delivered once")

        # A push service that answers 410 Gone: the device is removed, the others still get it.
        gone = api(server, token, "POST", "/push/devices", {"endpoint": endpoint + "/device/gone", "p256dh": push.p256dh,
                                                            "auth": b64url(push.auth), "label": "uninstalled"})
        with push.lock:
            push.gone.add("/device/gone")
        due, _ = due_in(1.0)
        after = api(server, token, "POST", "/tasks", {"title": "After a gone device", "due": due, "alerts": ["due"]})
        wait_for(lambda: push.for_task(after["id"]), "the push to the remaining device")
        wait_for(lambda: gone["id"] not in [d["id"] for d in api(server, token, "GET", "/push/devices")["devices"]],
                 "the gone device to be removed")
        if device["id"] not in [d["id"] for d in api(server, token, "GET", "/push/devices")["devices"]]:
            fail("the working device was removed")
        print("alerts-test: a 410 Gone push device was removed")

        # 2. Failing channels are retried (the first retry comes 30 s later).
        with hook.lock:
            hook.fail_next = 1
        with sink.lock:
            sink.refuse_next = 1
        with push.lock:
            push.fail_next = 1
        due, _ = due_in(1.0)
        flaky = api(server, token, "POST", "/tasks", {"title": "Flaky channels", "due": due, "alerts": ["due"]})
        wait_for(lambda: len(hook.for_task(flaky["id"])) == 1, "the first webhook attempt")
        wait_for(lambda: len(hook.for_task(flaky["id"])) == 2 and sink.with_title("Flaky channels") and push.for_task(flaky["id"]),
                 "the retries", timeout=60)
        if not server.alive():
            fail("the server stopped after a failing channel")
        ids = {payload["id"] for payload in hook.for_task(flaky["id"])}
        if len(ids) != 1:
            fail(f"a retry carried another delivery id: {ids}")
        with push.lock:
            refused = list(push.failed)
        if [m["id"] for m in push.for_task(flaky["id"])] != refused:
            fail(f"the push retry carried another delivery id: {refused} then {push.for_task(flaky['id'])}")
        log = open(os.path.join(WORK, "serve.err")).read()
        for channel in ["webhook", "email", "push:" + device["id"]]:
            if f"through {channel} failed, retrying at" not in log:
                fail(f"the failed {channel} attempt was not logged")
        print("alerts-test: a webhook 503, a push service 503 and an SMTP 451 were retried with the same delivery id, and logged")

        # 3. kill -9 around the due time.
        tasks = []
        for round in range(ROUNDS):
            due, moment = due_in(1.0)
            task = api(server, token, "POST", "/tasks", {"title": f"Round {round}", "due": due, "alerts": ["due"]})
            tasks.append(task)
            if round % 2 == 0:
                # Killed while the webhook request is in flight (sent, not yet recorded).
                with hook.lock:
                    hook.kill_on_arrival = server.kill
                wait_for(lambda: not server.alive(), f"round {round}: the kill during delivery")
            else:
                # Killed before the due time: down while it comes due.
                server.kill()
                wait_for(lambda: datetime.now(timezone.utc) > moment, f"round {round}: the due time")
            server.start()
            wait_for(lambda: hook.for_task(task["id"]) and sink.with_title(f"Round {round}") and push.for_task(task["id"]),
                     f"round {round}: the alert after restart")
        # A final marker after the last restart: everything before it has settled.
        due, _ = due_in(1.0)
        last = api(server, token, "POST", "/tasks", {"title": "Last marker", "due": due, "alerts": ["due"]})
        wait_for(lambda: hook.for_task(last["id"]) and sink.with_title("Last marker"), "the last marker")
        for task in tasks:
            ids = {payload["id"] for payload in hook.for_task(task["id"])}
            mails = {m["Message-ID"] for m in sink.with_title(task["title"])}
            pushes = {m["id"] for m in push.for_task(task["id"])}
            if len(ids) != 1 or len(mails) != 1 or len(pushes) != 1:
                fail(f"{task['title']}: webhook deliveries {ids}, emails {mails}, push messages {pushes}")
            if any(not m["repeat"] for m in push.for_task(task["id"])[1:]):
                fail(f"{task['title']}: a push message sent again was not marked as a possible repeat")
        resent = sum(len(hook.for_task(task["id"])) - 1 for task in tasks)
        with hook.lock:
            unmarked = [delivery for delivery, marked in hook.repeats if not marked]
            acted = list(hook.acted)
        if unmarked:
            fail(f"a delivery sent again after a kill was not marked X-Slate-Redelivery: {unmarked}")
        if len(acted) != len(set(acted)):
            fail("a receiver that drops known delivery ids acted twice")
        print(f"alerts-test: {ROUNDS} kill -9 rounds: every alert delivered, one delivery id per channel "
              f"({resent} webhook request(s) cut off by the kill were sent again with the same id, each marked "
              f"X-Slate-Redelivery; a receiver that drops known ids acted on each alert once)")
    finally:
        server.stop()
        smtp.stop()
        receiver.shutdown()
        push_server.shutdown()


if __name__ == "__main__":
    main()
