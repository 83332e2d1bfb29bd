"""dist/nginx/slate-proxy.conf, unchanged, in front of `slate serve --trusted-proxy 127.0.0.1`: nginx
from Debian on a loopback port proxies the API, the web app and a live event stream (an
event made through the proxy arrives through the proxy at once: no buffering)."""
import json
import os
import shutil
import subprocess
import urllib.request

from support import Folder, Server, free_port, request, slate, wait_for


def test_nginx_snippet_proxies_api_web_app_and_live_events():
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert os.path.exists(nginx), "nginx is installed by scripts/bootstrap --test"
    folder = Folder()
    os.chmod(folder.path, 0o755)  # nginx's workers read and write their temporary files here
    process = None
    try:
        db = folder("slate.sqlite")
        slate(db, "sample")
        server = Server(folder, db, "--trusted-proxy", "127.0.0.1", "--web", os.path.abspath("Web"))
        port = free_port()
        upstream = server.url.split("://")[1]
        folder.write("nginx.conf", f"""
daemon off;
worker_processes 1;
pid {folder('nginx.pid')};
error_log {folder('nginx-error.log')};
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {folder('client')};
    proxy_temp_path {folder('proxy')};
    fastcgi_temp_path {folder('fastcgi')};
    uwsgi_temp_path {folder('uwsgi')};
    scgi_temp_path {folder('scgi')};
    upstream slate {{ server {upstream}; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{ include {os.path.abspath('dist/nginx/slate-proxy.conf')}; }}
    }}
}}
""")
        process = subprocess.Popen([nginx, "-p", folder.path, "-c", folder("nginx.conf")],
                                   stdout=subprocess.DEVNULL, stderr=open(folder("nginx.out"), "w"))
        proxy = f"http://127.0.0.1:{port}"

        def answers():
            if process.poll() is not None:
                raise AssertionError("nginx exited: " + open(folder("nginx.out")).read() + open(folder("nginx-error.log")).read())
            try:
                return request(proxy + "/healthz", timeout=2).status == 200
            except OSError:
                return False

        wait_for(answers, "nginx to proxy /healthz")
        assert request(proxy + "/readyz").json()["status"] == "ready"
        with open("Web/index.html", "rb") as handle:
            assert request(proxy + "/").body == handle.read()

        token = json.loads(slate(db, "--json", "token", "create", "--user", "local").stdout)["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        stream = urllib.request.urlopen(urllib.request.Request(proxy + "/api/v1/events", headers=bearer), timeout=30)
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        lines = []
        while not lines or lines[-1] != b"\n":
            lines.append(stream.readline())
        assert b"event: hello\n" in lines, lines
        created = request(proxy + "/api/v1/tasks", "POST", body={"title": "Through the proxy"}, headers=bearer)
        assert created.status == 201, created.body
        event = []
        while not event or event[-1] != b"\n":
            event.append(stream.readline())
        assert b"event: change\n" in event, event
        assert created.json()["id"].encode() in b"".join(event)
        stream.close()

        wrong = request(proxy + "/api/v1/session", "POST", body={"name": "local", "password": "wrong password!"})
        assert wrong.status == 401
        signed_in = request(proxy + "/api/v1/session", "POST", body={"name": "local", "password": server.password()})
        assert signed_in.status == 200, signed_in.body
        assert "; Secure" in signed_in.headers["Set-Cookie"], "behind a TLS proxy the cookie is Secure"
        assert server.stop() == 0
    finally:
        if process and process.poll() is None:
            process.terminate()
            process.wait(timeout=30)
        folder.remove()
