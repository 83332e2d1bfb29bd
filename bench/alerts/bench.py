"""bench/alerts: 100,000 tasks with alerts across 100 accounts; 10,000 of them fire in one
minute, through a real `slate serve` (release build), to an SMTP sink (aiosmtpd), a local
push service and one open page (live event stream) per account. Run by bench/alerts/run.

What it measures (targets from issue 12):
  - every alert delivered on each channel, none twice (email by Message-ID and subject, push
    by the decrypted payload's delivery id and task, pages by the event's id);
  - lateness: arrival at the receiver minus the moment the alert was due; p50, p99, max per
    channel and overall (target: p99 under 5 s);
  - the server's CPU (utime + stime from /proc) over an idle minute before the alerts are
    due, with 100,000 cursors waiting and 100 event streams open (target: near zero);
  - its resident memory before the minute and after (target: flat).

The push service answers each message at once and keeps its bytes; after the run every
message's VAPID token is verified (ES256 over the server's public key, audience, expiry)
and every message is decrypted (http_ece, aes128gcm) with its device's key. Decrypting in
the handler would make the receiver's Python, not the server, the thing measured.

Fire moments: the 10,000 are spread evenly over the minute (`--spread 60`, ~167 a second,
accounts interleaved); `--spread 0` puts them all on the minute's first second (as when
every all-day task of a morning gets the default "9:00 on the day"), where a fifth of them
are day rules (`1d@HH:MM`) in the account's own time zone. The other 90,000 fire 1 to 30
days later. Alert forms rotate: `due`, `15m`, `1h`, a moment, `30m` (or the day rule).
"""
import argparse
import base64
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from email import message_from_string
from email.header import decode_header, make_header
from zoneinfo import ZoneInfo

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

HERE = os.path.dirname(os.path.abspath(__file__))
ZONES = ["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles",
         "Asia/Kathmandu", "Europe/London", "America/Sao_Paulo", "Pacific/Auckland"]
PASSWORD = "bench alerts password 1\n"


def say(text):
    print(f"bench/alerts: {text}", file=sys.stderr, flush=True)


def fail(text):
    say("FAIL: " + text)
    sys.exit(1)


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


# --- the server process ----------------------------------------------------------------

class Process:
    """utime + stime (seconds) and resident memory (MiB) of a process, from /proc."""

    def __init__(self, pid):
        self.pid = pid
        self.tick = os.sysconf("SC_CLK_TCK")

    def cpu(self):
        fields = open(f"/proc/{self.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.tick

    def memory(self, key="VmRSS"):
        return int(re.search(rf"{key}:\s+(\d+)", open(f"/proc/{self.pid}/status").read()).group(1)) / 1024


def start_sink(python, kind, work, *extra):
    out = os.path.join(work, f"{kind}.jsonl")
    process = subprocess.Popen([python, os.path.join(HERE, "sinks.py"), kind, out, *extra],
                               stdout=subprocess.PIPE, text=True)
    first = process.stdout.readline().strip()
    if not first:
        fail(f"the {kind} sink did not start")
    return process, out, first


def count_lines(path):
    try:
        with open(path, "rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except FileNotFoundError:
        return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("slate")
    parser.add_argument("--accounts", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=10_000, help="alerts that fire in the measured minute")
    parser.add_argument("--spread", type=float, default=60, help="seconds the due alerts are spread over (0: one moment)")
    parser.add_argument("--idle", type=float, default=60, help="seconds of the idle CPU window")
    parser.add_argument("--lead", type=float, default=420, help="seconds from the end of setup to the minute")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--profile", metavar="FILE",
                        help="sample the server's stacks (perf record, cpu-clock) while the minute's alerts are sent")
    parser.add_argument("--results", default=os.path.join(HERE, "results", "latest.json"))
    options = parser.parse_args()
    if options.tasks % options.accounts or options.due % options.accounts or options.due > options.tasks:
        fail("--tasks and --due must be multiples of --accounts, and --due at most --tasks")

    work = tempfile.mkdtemp(prefix="slate-bench-alerts-")
    database = os.path.join(work, "slate.sqlite")
    python = sys.executable
    children = []
    loads = {"start": os.getloadavg()}

    def slate(*words, stdin=None):
        result = subprocess.run([options.slate, "--db", database, *words], input=stdin, capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"slate {' '.join(words)}: {result.stderr.strip()}")
        return result.stdout

    try:
        # --- accounts, with an email address and a token each ---------------------------
        started = time.monotonic()
        names = [f"b{index:03d}" for index in range(options.accounts)]

        def add_account(name):
            slate("user", "add", name, "--password-stdin", "--email", f"{name}@bench.test", stdin=PASSWORD)
            return name, json.loads(slate("--json", "token", "create", "--user", name, "--label", "bench"))["token"]

        # The first alone (it creates the database), then two at a time: the machine has two
        # cores, and each `user add` hashes a password.
        tokens = dict([add_account(names[0])])
        with ThreadPoolExecutor(2) as pool:
            tokens.update(pool.map(add_account, names[1:]))
        say(f"{options.accounts} accounts in {time.monotonic() - started:.0f} s")
        tokens_path = os.path.join(work, "tokens.json")
        json.dump(tokens, open(tokens_path, "w"))

        smtp, smtp_out, smtp_port = start_sink(python, "smtp", work)
        push, push_out, push_port = start_sink(python, "push", work)
        children += [smtp, push]

        with __import__("socket").socket() as probe:
            probe.bind(("127.0.0.1", 0))
            metrics_port = probe.getsockname()[1]
        serve_out = open(os.path.join(work, "serve.out"), "w")
        serve_err = open(os.path.join(work, "serve.err"), "w")
        server = subprocess.Popen(
            [options.slate, "--db", database, "serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "errors",
             "--smtp-url", f"smtp://127.0.0.1:{smtp_port}", "--smtp-from", "slate@bench.test",
             "--public-url", "http://slate.bench.test", "--metrics", f"127.0.0.1:{metrics_port}",
             # Every client of the benchmark (100 pages, the push and SMTP receivers' peers) is
             # on 127.0.0.1: the per-address cap (64) is for the open internet.
             "--connections-per-ip", "0"],
            stdout=serve_out, stderr=serve_err)
        children.append(server)
        base = None
        deadline = time.monotonic() + 60
        while base is None:
            if server.poll() is not None or time.monotonic() > deadline:
                fail("slate serve did not start: " + open(os.path.join(work, "serve.err")).read())
            for line in open(os.path.join(work, "serve.out")):
                if line.startswith("  http://127.0.0.1:"):
                    base = "http://127.0.0.1:" + line.split(":")[2].split("/")[0]
            time.sleep(0.05)
        served = Process(server.pid)

        def api(name, method, path, body=None, kind="application/json"):
            data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
            request = urllib.request.Request(base + "/api/v1" + path, method=method, data=data,
                                             headers={"Authorization": "Bearer " + tokens[name], "Content-Type": kind})
            try:
                with urllib.request.urlopen(request, timeout=300) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as error:
                fail(f"{method} {path} for {name}: {error.code} {error.read()[:300]!r}")

        # --- a zone and a push device per account ----------------------------------------
        push_keys, zones = {}, {}
        vapid_key = api(names[0], "GET", "/push/key")["publicKey"]
        for index, name in enumerate(names):
            zones[name] = ZONES[index % len(ZONES)]
            api(name, "PATCH", "/account", {"timeZone": zones[name]})
            key = ec.generate_private_key(ec.SECP256R1())
            auth = os.urandom(16)
            point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            push_keys[f"/d/{name}"] = (key, auth)
            api(name, "POST", "/push/devices", {"endpoint": f"http://127.0.0.1:{push_port}/d/{name}", "p256dh": b64url(point),
                                                "auth": b64url(auth), "label": "bench browser"})

        # --- the tasks ---------------------------------------------------------------------
        now = datetime.now(timezone.utc)
        minute = (now + timedelta(seconds=options.lead)).replace(second=0, microsecond=0) + timedelta(minutes=1)
        per_account = options.tasks // options.accounts
        due_per_account = options.due // options.accounts
        expected = {}    # title -> (account, fire moment)
        imported = time.monotonic()
        for account_index, name in enumerate(names):
            zone = ZoneInfo(zones[name])
            tasks = []
            for number in range(per_account):
                title = f"{name} t{number}"
                form = number % 5
                if number < due_per_account:
                    order = number * options.accounts + account_index
                    fire = minute + timedelta(seconds=options.spread * order / options.due)
                    expected[title] = (name, fire)
                else:
                    fire = minute + timedelta(days=1 + (number * 7919 + account_index) % 29, seconds=number)
                if form == 0:
                    alert, due = "due", fire
                elif form == 1:
                    alert, due = "15m", fire + timedelta(minutes=15)
                elif form == 2:
                    alert, due = "1h", fire + timedelta(hours=1)
                elif form == 3:
                    alert, due = iso(fire), fire + timedelta(hours=3)
                elif options.spread == 0 or number >= due_per_account:
                    # A day rule: the day before the due day, at the fire moment's local time.
                    local = fire.astimezone(zone).replace(second=0, microsecond=0)
                    fire = local.astimezone(timezone.utc)
                    if number < due_per_account:
                        expected[title] = (name, fire)
                    alert = f"1d@{local.hour}:{local.minute:02d}"
                    due = (local + timedelta(days=1)).replace(hour=12).astimezone(timezone.utc)
                else:
                    alert, due = "30m", fire + timedelta(minutes=30)
                tasks.append({"title": title, "due": iso(due), "isAllDay": False, "alerts": [alert]})
            body = json.dumps({"format": "slate", "version": 2, "lists": [], "tasks": tasks}).encode()
            api(name, "POST", "/import?format=json", body)
        say(f"{options.tasks:,} tasks imported in {time.monotonic() - imported:.0f} s; the minute starts at {iso(minute)}")

        # --- one open page per account -----------------------------------------------------
        pages, pages_out, opened = start_sink(python, "pages", work, base, tokens_path)
        children.append(pages)
        if opened != "ready":
            fail(f"the open pages: {opened}")

        # --- settle, then the idle window ---------------------------------------------------
        settle_deadline = time.monotonic() + 180
        while True:
            before = served.cpu()
            time.sleep(2)
            if served.cpu() - before < 0.04 or time.monotonic() > settle_deadline:
                break
        idle_start_wall = datetime.now(timezone.utc)
        if idle_start_wall + timedelta(seconds=options.idle + 5) > minute:
            fail(f"setup ended at {iso(idle_start_wall)}, too late for a {options.idle:.0f} s idle window before "
                 f"{iso(minute)}: run with a larger --lead")
        rss_before = served.memory()
        cpu_before = served.cpu()
        loads["idle"] = os.getloadavg()
        time.sleep(options.idle)
        idle_cpu = served.cpu() - cpu_before
        say(f"idle: {idle_cpu:.3f} s of CPU in {options.idle:.0f} s ({100 * idle_cpu / options.idle:.2f} % of a core); "
            f"resident {rss_before:.0f} MiB")

        # --- the minute ----------------------------------------------------------------------
        wait = (minute - datetime.now(timezone.utc)).total_seconds()
        if wait > 0:
            time.sleep(wait)
        cpu_minute = served.cpu()
        # callgrind cannot follow this part: under valgrind the server's threads run one at a
        # time and its network timeouts fire, so the minute is sampled instead.
        sampler = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "499", "-g", "-p", str(server.pid),
                                    "-o", options.profile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) \
            if options.profile else None
        total = len(expected)
        deadline = time.monotonic() + options.spread + 300
        complete_at = None
        while time.monotonic() < deadline:
            counts = [count_lines(smtp_out), count_lines(push_out), count_lines(pages_out)]
            if min(counts) >= total and complete_at is None:
                complete_at = time.monotonic()
            if complete_at is not None and time.monotonic() - complete_at > 5:
                break   # five more seconds to catch a repeat
            time.sleep(0.5)
        burst_cpu = served.cpu() - cpu_minute
        if sampler:
            sampler.send_signal(signal.SIGINT)
            sampler.wait(timeout=60)
        loads["minute"] = os.getloadavg()
        time.sleep(2)
        rss_after = served.memory()
        rss_peak = served.memory("VmHWM")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10) as response:
                metrics = [line for line in response.read().decode().splitlines() if line.startswith("slate_alert_deliveries_total")]
        except OSError as error:
            metrics = [f"unavailable: {error}"]
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        errors = open(os.path.join(work, "serve.err")).read().strip()

        # --- what arrived ---------------------------------------------------------------------
        report = {"email": check_email(smtp_out, expected), "push": check_push(push_out, expected, push_keys, vapid_key, push_port),
                  "page": check_pages(pages_out, expected)}
        every = [value for channel in report.values() for value in channel.pop("lateness")]
        delivered = all(channel["missing"] == 0 and channel["repeated"] == 0 and channel["unexpected"] == 0
                        for channel in report.values())
        overall = {"p50": percentile(every, 0.5), "p99": percentile(every, 0.99), "max": max(every) if every else None}
        summary = {
            "when": iso(datetime.now(timezone.utc)), "accounts": options.accounts, "tasks": options.tasks, "dueInMinute": total,
            "spreadSeconds": options.spread, "channels": report, "latenessSeconds": overall,
            "everyAlertOnceOnEveryChannel": delivered,
            "idle": {"seconds": options.idle, "cpuSeconds": idle_cpu, "percentOfACore": 100 * idle_cpu / options.idle},
            "minuteCPUSeconds": burst_cpu,
            "residentMiB": {"before": rss_before, "after": rss_after, "peak": rss_peak},
            "loadAverage": loads, "metrics": metrics, "serverLog": errors[-2000:],
        }
        print(f"\n{options.tasks:,} tasks across {options.accounts} accounts; {total:,} alerts due in one minute "
              f"(spread over {options.spread:.0f} s), to email, Web Push and an open page each:")
        for name, channel in report.items():
            extra = f" over {channel['connections']} SMTP connections" if "connections" in channel else ""
            print(f"  {name:6} {channel['delivered']:,}/{total:,} delivered{extra}, {channel['repeated']} twice, "
                  f"{channel['missing']} missing; lateness p50 {channel['p50']:.2f} s, p99 {channel['p99']:.2f} s, "
                  f"max {channel['max']:.2f} s")
        print(f"  all    lateness p50 {overall['p50']:.2f} s, p99 {overall['p99']:.2f} s (target < 5 s), max {overall['max']:.2f} s")
        print(f"  idle   {idle_cpu:.3f} s CPU over {options.idle:.0f} s ({summary['idle']['percentOfACore']:.2f} % of a core)")
        print(f"  memory {rss_before:.0f} MiB before the minute, {rss_after:.0f} MiB after (peak {rss_peak:.0f} MiB); "
              f"{burst_cpu:.1f} s CPU for the minute")
        print(f"  load   {loads}")
        if errors:
            print(f"  server log (last lines):\n    " + "\n    ".join(errors.splitlines()[-10:]))
        os.makedirs(os.path.dirname(options.results), exist_ok=True)
        with open(options.results, "w") as handle:
            json.dump(summary, handle, indent=2)
            handle.write("\n")
        if not delivered:
            fail("not every alert arrived exactly once on every channel (see above)")
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
                try:
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()
        if options.keep:
            say(f"kept {work}")
        else:
            subprocess.run(["rm", "-rf", work])


def tally(arrivals, expected, channel):
    """arrivals: (title, arrival time, delivery id) of one channel."""
    seen, repeated, unexpected, lateness = {}, 0, 0, []
    for title, arrived, delivery in arrivals:
        if title not in expected:
            unexpected += 1
            continue
        if title in seen:
            repeated += 1
            continue
        seen[title] = delivery
        lateness.append(arrived - expected[title][1].timestamp())
    missing = len(expected) - len(seen)
    result = {"delivered": len(seen), "repeated": repeated, "missing": missing, "unexpected": unexpected,
              "p50": percentile(lateness, 0.5), "p99": percentile(lateness, 0.99),
              "max": max(lateness) if lateness else float("nan"), "lateness": lateness}
    if missing or repeated or unexpected:
        say(f"{channel}: {missing} missing, {repeated} twice, {unexpected} unexpected")
    return result


def check_email(path, expected):
    arrivals, peers = [], set()
    for line in open(path):
        record = json.loads(line)
        peers.add(tuple(record["peer"]))
        message = message_from_string(record["data"])
        subject = str(make_header(decode_header(message["Subject"])))
        kinds = {part.get_content_type() for part in message.walk() if not part.is_multipart()}
        if kinds != {"text/plain", "text/html"}:
            fail(f"an email without its text and HTML parts: {kinds}")
        title = subject.removeprefix("Reminder: ")
        if expected.get(title) and record["rcpt"] != [f"{expected[title][0]}@bench.test"]:
            fail(f"{title} was mailed to {record['rcpt']}")
        arrivals.append((title, record["t"], message["Message-ID"]))
    result = tally(arrivals, expected, "email")
    result["connections"] = len(peers)
    return result


def check_push(path, expected, keys, vapid_key, port):
    verified = set()
    server_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(vapid_key))
    arrivals = []
    for line in open(path):
        record = json.loads(line)
        header = record["authorization"]
        fields = dict(part.strip().split("=", 1) for part in header[len("vapid "):].split(","))
        if not header.startswith("vapid ") or fields.get("k") != vapid_key:
            fail(f"a push without the server's VAPID key: {header[:80]}")
        token = fields["t"]
        if token not in verified:
            head, claims, signature = token.split(".")
            raw = unb64url(signature)
            try:
                server_key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                                  f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
            except InvalidSignature:
                fail("a VAPID signature does not verify")
            claims = json.loads(unb64url(claims))
            if claims["aud"] != f"http://127.0.0.1:{port}" or claims["exp"] < record["t"]:
                fail(f"VAPID claims {claims}")
            verified.add(token)
        if record["encoding"] != "aes128gcm":
            fail(f"push Content-Encoding {record['encoding']}")
        key, auth = keys[record["path"]]
        payload = json.loads(http_ece.decrypt(base64.b64decode(record["body"]), private_key=key, auth_secret=auth,
                                              version="aes128gcm"))
        if record["topic"] != payload["id"].replace("-", ""):
            fail(f"push Topic {record['topic']} is not the delivery id {payload['id']}")
        title = payload["title"]
        if title in expected and (f"/d/{expected[title][0]}" != record["path"]
                                  or payload["fireAt"] != iso(expected[title][1])):
            fail(f"push for {title}: device {record['path']}, fireAt {payload['fireAt']}")
        arrivals.append((title, record["t"], payload["id"]))
    result = tally(arrivals, expected, "push")
    result["vapidTokensVerified"] = len(verified)
    return result


def check_pages(path, expected):
    arrivals = []
    for line in open(path):
        record = json.loads(line)
        alert = record["alert"]
        if alert["title"] in expected and expected[alert["title"]][0] != record["account"]:
            fail(f"{alert['title']} reached the page of {record['account']}")
        arrivals.append((alert["title"], record["t"], alert["id"]))
    return tally(arrivals, expected, "page")


if __name__ == "__main__":
    main()
