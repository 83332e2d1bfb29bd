"""slate serve as an administrator runs it: --config with every key (TLS from a systemd
credential, metrics, JSON logs, limits), sd_notify readiness, SIGHUP reload, SIGTERM stop,
/healthz and /readyz (also with the database unreachable), /metrics parsed with
prometheus-client after real traffic, bad configuration files refused, and no secret in
the log."""
import os
import signal
import socket
import threading
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from support import Folder, Server, make_certificate, request, slate, tls_context, wait_for, free_port, SLATE
import subprocess


def metrics(url):
    reply = request(url + "/metrics")
    assert reply.status == 200, reply.status
    assert reply.headers["Content-Type"].startswith("text/plain; version=0.0.4"), reply.headers
    families = {family.name: family for family in text_string_to_metric_families(reply.body.decode())}
    return families


def sample(families, family, name, **labels):
    for metric in families[family].samples:
        if metric.name == name and all(metric.labels.get(key) == value for key, value in labels.items()):
            return metric.value
    return 0


class NotifySocket:
    """The systemd side of sd_notify: an AF_UNIX datagram socket that keeps what it gets."""

    def __init__(self, path):
        self.path = path
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(path)
        self.socket.settimeout(0.05)
        self.messages = []

    def received(self, text):
        try:
            self.messages.append(self.socket.recv(4096).decode())
        except socket.timeout:
            pass
        return any(text in message for message in self.messages)


def test_config_with_every_key_serves_https_metrics_and_json_logs():
    folder = Folder()
    try:
        certificate, key = make_certificate(folder)
        credentials = folder("credentials")
        os.mkdir(credentials)
        os.rename(key, os.path.join(credentials, "tls.key"))
        with open(os.path.join(credentials, "tls.key")) as handle:
            key_line = [line for line in handle.read().splitlines() if "-----" not in line][2]
        port = free_port()
        config = folder.write("slate.conf", f"""# every key
host = 127.0.0.1
port = {port}
database = data/slate.sqlite
web = {os.path.abspath("Web")}
tls_certificate = cert.pem
tls_key = credential:tls.key
behind_proxy = false
trusted_proxies = 127.0.0.1, ::1
log_format = json
log_level = all
max_connections = 50
connections_per_ip = 20
max_body_size = 64KiB
metrics = 127.0.0.1:0
""")
        os.mkdir(folder("data"))
        notify = NotifySocket(folder("notify"))
        server = Server(folder, folder("ignored-by-config.sqlite"), "--config", config,
                        env={"CREDENTIALS_DIRECTORY": credentials, "NOTIFY_SOCKET": folder("notify")})
        # --db on the command line wins over `database`: the server named in the unit wins.
        assert server.listening["database"] == folder("ignored-by-config.sqlite"), server.listening
        assert server.url == f"https://127.0.0.1:{port}", server.url
        wait_for(lambda: notify.received("READY=1"), "READY=1 on the notify socket")
        assert "with the password" not in server.output(), "no password printed under a service manager"

        context = tls_context(certificate)
        base = server.url
        assert request(base + "/healthz", context=context).json() == {"status": "alive"}
        ready = request(base + "/readyz", context=context)
        assert ready.status == 200 and ready.json()["status"] == "ready", ready.body
        index = request(base + "/", context=context)
        with open("Web/index.html", "rb") as handle:
            assert index.body == handle.read(), "the configured web app"
        too_big = request(base + "/api/v1/tasks", "POST", body={"title": "x" * 70000}, context=context)
        assert too_big.status == 413, too_big.status

        # A session (the cookie is Secure: TLS and a trusted proxy) and a bearer token.
        db = folder("ignored-by-config.sqlite")
        password = slate(db, "user", "passwd", "local", "--password-stdin", stdin="correct horse battery staple\n")
        assert password.returncode == 0
        signed_in = request(base + "/api/v1/session", "POST", body={"name": "local", "password": "correct horse battery staple"},
                            context=context)
        assert signed_in.status == 200, signed_in.body
        cookie = signed_in.headers["Set-Cookie"]
        assert "; Secure" in cookie, cookie
        assert signed_in.headers.get("Strict-Transport-Security", "").startswith("max-age="), signed_in.headers
        session_value = cookie.split(";")[0].split("=", 1)[1]
        token = slate(db, "--json", "token", "create", "--user", "local", "--label", "ops").stdout
        token = token.split('"token":"')[1].split('"')[0] if '"token":"' in token else token.split('"token" : "')[1].split('"')[0]
        bearer = {"Authorization": f"Bearer {token}"}

        metrics_url = "http://" + server.listening["metrics"]
        before = metrics(metrics_url)
        for title in ["Mix the trailer", "Storyboard act 2", "Record the score"]:
            created = request(base + "/api/v1/tasks", "POST", body={"title": title}, headers=bearer, context=context)
            assert created.status == 201, created.body
        assert request(base + "/api/v1/tasks?limit=500", headers=bearer, context=context).status == 200
        assert request(base + "/api/v1/tasks/not-a-task", headers=bearer, context=context).status in (400, 404)

        # An open event stream is counted while it is open.
        stream = urllib.request.urlopen(urllib.request.Request(base + "/api/v1/events", headers=bearer), context=context,
                                        timeout=30)
        assert stream.readline().startswith(b"id:")
        wait_for(lambda: sample(metrics(metrics_url), "slate_http_open_event_streams", "slate_http_open_event_streams") == 1,
                 "one open event stream in /metrics")
        # (A client that leaves is noticed at the next heartbeats, 15 s apart: the Swift
        # MetricsTests check that with a short heartbeat.)
        stream.close()

        after = metrics(metrics_url)
        posted = sample(after, "slate_http_requests", "slate_http_requests_total", route="/api/v1/tasks", method="POST", status="201")
        assert posted - sample(before, "slate_http_requests", "slate_http_requests_total", route="/api/v1/tasks", method="POST",
                               status="201") == 3, posted
        assert sample(after, "slate_http_requests", "slate_http_requests_total", route="/healthz", method="GET", status="200") >= 1
        assert sample(after, "slate_http_request_duration_seconds", "slate_http_request_duration_seconds_count",
                      route="/api/v1/tasks", method="POST") >= 3
        assert sample(after, "slate_http_request_duration_seconds", "slate_http_request_duration_seconds_bucket",
                      route="/api/v1/tasks", method="POST", le="+Inf") >= 3
        assert sample(after, "slate_commits", "slate_commits_total") >= 3
        assert sample(after, "slate_database_bytes", "slate_database_bytes") > 0
        assert sample(after, "slate_database_revision", "slate_database_revision") >= 3
        # Only on loopback, and not on the public listener.
        assert request(base + "/metrics", context=context).status == 404

        # The database moved away: not ready, still alive; back: ready.
        os.rename(db, folder("moved.sqlite"))
        unready = request(base + "/readyz", context=context)
        assert unready.status == 503 and unready.json()["database"] == "unreachable", unready.body
        assert folder.path not in unready.body.decode()
        assert request(base + "/healthz", context=context).status == 200
        os.rename(folder("moved.sqlite"), db)
        assert request(base + "/readyz", context=context).status == 200

        # SIGHUP: the file is read again and the log format switches to text at once.
        with open(config) as handle:
            text = handle.read()
        folder.write("slate.conf", text.replace("log_format = json", "log_format = text"))
        server.signal(signal.SIGHUP)
        wait_for(lambda: notify.received("RELOADING=1"), "RELOADING=1")
        wait_for(lambda: "slate: reloaded" in server.log(), "the reloaded event, now in text")
        wait_for(lambda: request(base + "/healthz", context=context) and "GET /healthz 200" in server.log(),
                 "a text request line after the reload")
        # A bad file on reload is refused and the server keeps running.
        folder.write("slate.conf", text + "colour = blue\n")
        server.signal(signal.SIGHUP)
        wait_for(lambda: "reload refused" in server.log(), "the refused reload")
        assert request(base + "/healthz", context=context).status == 200

        # A server keeps a longer write-ahead log than a command, and folds it back into
        # the file when it stops: the next command has no log to read.
        assert os.path.getsize(db + "-wal") > 0
        assert server.stop() == 0
        assert not os.path.exists(db + "-wal") or os.path.getsize(db + "-wal") == 0
        wait_for(lambda: notify.received("STOPPING=1"), "STOPPING=1")
        log = server.log()
        assert '"event":"stopped"' in log or "slate: stopped" in log
        for secret in [token, session_value, "correct horse battery staple", key_line]:
            assert secret not in log, f"a secret in the log: {secret[:6]}…"
            assert secret not in server.output(), f"a secret on standard output: {secret[:6]}…"
    finally:
        folder.remove()


def test_bad_configuration_files_are_refused_with_the_line():
    folder = Folder()
    try:
        cases = [
            ("port = 8080\nprot = 9090\n", "slate.conf:2: unknown key 'prot'"),
            ("# c\nport = 99999\n", "slate.conf:2: invalid value '99999' for port: expected a port number from 0 to 65535"),
            ("log_format = xml\n", "slate.conf:1: invalid value 'xml' for log_format: expected text or json"),
            ("smtp_url = mail.example.org\n", "slate.conf:1: invalid value 'mail.example.org' for smtp_url: expected smtp://host[:port]"),
            ("metrics = 0.0.0.0:9464\n", "slate.conf:1: invalid value '0.0.0.0:9464' for metrics"),
            # Settings that are each valid but wrong together: a usage error (exit 2).
            ("smtp_url = smtp://127.0.0.1:2525\n", "needs --smtp-from ADDRESS (smtp_from)"),
        ]
        for text, message in cases:
            config = folder.write("slate.conf", text)
            result = slate(folder("slate.sqlite"), "serve", "--config", config, check=False)
            assert result.returncode == (2 if "needs" in message else 1), (text, result.returncode, result.stderr)
            assert message in result.stderr, (text, result.stderr)
        assert not os.path.exists(folder("slate.sqlite")), "refused before the database is touched"
    finally:
        folder.remove()


def test_a_first_start_in_a_terminal_prints_the_password_once_and_never_logs_it():
    folder = Folder()
    try:
        server = Server(folder, folder("slate.sqlite"))
        password = server.password()
        reply = request(server.url + "/api/v1/session", "POST", body={"name": "local", "password": password})
        assert reply.status == 200, reply.body
        assert server.stop() == 0
        assert password not in server.log()
        second = Server(folder, folder("slate.sqlite"), name="second")
        assert "with the password" not in second.output()
        assert second.stop() == 0
    finally:
        folder.remove()


def test_a_second_server_on_the_same_database_is_refused():
    folder = Folder()
    try:
        server = Server(folder, folder("slate.sqlite"))
        second = slate(folder("slate.sqlite"), "serve", "--port", "0", check=False)
        assert second.returncode == 1, second.returncode
        assert "Another slate serve is serving" in second.stderr, second.stderr
        assert server.stop() == 0
    finally:
        folder.remove()
