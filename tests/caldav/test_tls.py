"""CalDAV over HTTPS, as iOS requires: a `slate serve --tls-cert --tls-key` of its own (on a
database of its own) with a certificate this test makes, and python-caldav trusting it."""

import os
import socket
import subprocess
import time

import caldav
import pytest

SLATE = os.environ["SLATE_BIN"]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def tls_server(tmp_path):
    key, cert = tmp_path / "tls.key", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=120)
    db = tmp_path / "tls.sqlite"
    subprocess.run([SLATE, "--db", str(db), "user", "add", "tina", "--password-stdin"], input=b"tina-password-123",
                   check=True, capture_output=True, timeout=60)
    port = free_port()
    server = subprocess.Popen([SLATE, "--db", str(db), "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--tls-cert", str(cert), "--tls-key", str(key), "--log-level", "errors"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            break
        except OSError:
            assert server.poll() is None, server.stderr.read().decode()
            time.sleep(0.1)
    yield f"https://127.0.0.1:{port}", str(cert)
    server.terminate()
    server.wait(timeout=30)


def test_caldav_over_https_with_a_generated_certificate(tls_server):
    base, cert = tls_server
    with caldav.DAVClient(url=base + "/dav/", username="tina", password="tina-password-123", ssl_verify_cert=cert) as client:
        principal = client.principal()
        [inbox] = [cal for cal in principal.calendars() if cal.get_display_name() == "Inbox"]
        inbox.add_todo(summary="Over TLS")
        assert [str(todo.icalendar_component["SUMMARY"]) for todo in inbox.todos()] == ["Over TLS"]
    # A client that does not trust the certificate stops at the handshake, before any password is sent.
    with caldav.DAVClient(url=base + "/dav/", username="tina", password="tina-password-123") as untrusting:
        with pytest.raises(Exception):
            untrusting.principal()
