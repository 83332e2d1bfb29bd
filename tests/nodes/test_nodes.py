"""Several `slate serve` nodes on one PostgreSQL database (run by scripts/pg-test --nodes).

1. A wrong password or URL stops a node at start with a clear message, no stack trace, and
   the password is never printed or logged.
2. A live-event stream on one node gets a change made through another within a second.
3. A sync client that alternates between nodes while both are written to ends with exactly
   the server's state.
4. kill -9 of a node during writes loses nothing it acknowledged.
5. The database restarted under load: the nodes answer 503 (and /readyz says so), then
   recover by themselves, with nothing acknowledged lost, and live events cross nodes again.
6. dist/nginx/slate-nodes.conf in front of three nodes: every node serves, a killed one is
   skipped, live events pass through.
"""
import os
import random
import re
import shutil
import subprocess
import threading
import time
import uuid

from support import (BASE_URL, PASSWORD, EventStream, Folder, Node, all_tasks, account, cluster, database_url,
                     free_port, no_stack_trace, request, slate, wait_for)


def fresh_database():
    return database_url("n_" + uuid.uuid4().hex[:12])


def test_a_wrong_password_or_url_stops_the_start_in_words():
    folder = Folder()
    try:
        port = os.environ["SLATE_TEST_POSTGRES_PORT"]
        server = f"postgresql://slate_password@127.0.0.1:{port}/slate_test"
        secret = "hunter2-secret-password"
        with open(folder("wrong"), "w") as handle:
            handle.write(secret + "\n")
        cases = [
            ([server, "--database-password-file", folder("wrong")], "the password is wrong"),
            ([f"postgresql://slate_password:{secret}@127.0.0.1:{port}/slate_test"], "the password is wrong"),
            ([server], "asks for a password"),
            ([server.replace("slate_test", "slate_test") + "?colour=blue"], "colour"),
            (["postgresql://slate@127.0.0.1:1/slate?connect_timeout=2"], "cannot be reached"),
        ]
        for arguments, said in cases:
            started = subprocess.run([os.path.abspath(".build/debug/slate"), "--database", *arguments, "serve", "--port", "0"],
                                     capture_output=True, text=True, timeout=60)
            output = started.stdout + started.stderr
            assert started.returncode == 1, f"{arguments}: exited {started.returncode}: {output}"
            assert said in output, f"{arguments}: {output}"
            assert output.startswith("error: "), output
            assert secret not in output, output
            assert no_stack_trace(output), output
        # The right password, from the environment, starts it; it is in no output or log line.
        right = server + "?options=" + "-csearch_path%3Dpw_" + uuid.uuid4().hex[:8]
        node = subprocess.Popen([os.path.abspath(".build/debug/slate"), "--database", right, "serve", "--port", "0",
                                 "--log-format", "json"], stdout=open(folder("out"), "w"), stderr=open(folder("log"), "w"),
                                env={**os.environ, "SLATE_DATABASE_PASSWORD": "test-password"})
        folder.processes.append(node)
        wait_for(lambda: '"listening"' in open(folder("log")).read() or node.poll() is not None, "the node to listen")
        assert node.poll() is None, open(folder("log")).read()
        node.terminate()
        node.wait(timeout=30)
        everything = open(folder("out")).read() + open(folder("log")).read()
        assert "test-password" not in everything and "postgresql://slate_password@127.0.0.1" in everything, everything
    finally:
        folder.remove()


def test_a_live_stream_on_one_node_gets_a_change_made_through_another_within_a_second():
    folder = Folder()
    try:
        database = fresh_database()
        first, second = Node(folder, database, "a"), Node(folder, database, "b")
        bearer = account(database)
        for listener, writer in [(first, second), (second, first)]:
            stream = EventStream(listener.url, bearer)
            created = request(writer.url + "/api/v1/tasks", "POST", body={"title": f"Made on {writer.name}"}, headers=bearer)
            assert created.status == 201, created.body
            made = time.monotonic()
            task = created.json()["id"]

            def arrived():
                return [at for at, name, data in stream.named("change") if task in str(data)]
            at = wait_for(arrived, f"node {listener.name} to announce the change made on {writer.name}", timeout=1.0, every=0.005)
            print(f"      {writer.name} → {listener.name}: {1000 * (at[0] - made):.0f} ms after the write was answered")
            stream.close()
    finally:
        folder.remove()


def test_a_sync_client_alternating_between_nodes_ends_at_the_servers_state():
    folder = Folder()
    try:
        database = fresh_database()
        nodes = [Node(folder, database, "a"), Node(folder, database, "b")]
        bearer = account(database)
        stop = threading.Event()
        errors = []

        def write(seed):
            generator = random.Random(seed)
            mine = []
            for step in range(80):
                node = nodes[step % 2]
                roll = generator.random()
                if roll < 0.5 or not mine:
                    reply = request(node.url + "/api/v1/tasks", "POST", body={"title": f"w{seed}-{step}"}, headers=bearer)
                    if reply.status == 201:
                        mine.append(reply.json()["id"])
                elif roll < 0.8:
                    reply = request(node.url + f"/api/v1/tasks/{generator.choice(mine)}", "PATCH",
                                    body={"title": f"w{seed}-{step} edited"}, headers=bearer)
                else:
                    reply = request(node.url + f"/api/v1/tasks/{mine.pop(generator.randrange(len(mine)))}", "DELETE", headers=bearer)
                if reply.status not in (200, 201, 204):
                    errors.append((reply.status, reply.body))

        writers = [threading.Thread(target=write, args=(seed,)) for seed in (1, 2)]
        for writer in writers:
            writer.start()
        local, revision, turn = {}, 0, 0

        def sync():
            nonlocal revision, turn
            node = nodes[turn % 2]
            turn += 1
            reply = request(node.url + f"/api/v1/changes?since={revision}", headers=bearer)
            assert reply.status == 200, reply.body
            changes = reply.json()
            assert changes["revision"] >= revision, "a revision handed out never goes back"
            for task in changes["tasks"]:
                local[task["id"]] = task["title"]
            for gone in changes["deletedTaskIds"]:
                local.pop(gone, None)
            revision = changes["revision"]

        while any(writer.is_alive() for writer in writers):
            sync()
        for writer in writers:
            writer.join()
        assert not errors, errors[:5]
        sync()
        sync()
        assert local == all_tasks(nodes[0].url, bearer) == all_tasks(nodes[1].url, bearer)
        print(f"      {turn} syncs, {len(local)} tasks at revision {revision}")
    finally:
        folder.remove()


class Writer(threading.Thread):
    """Creates tasks through `nodes` in turn until stopped, keeping the ids acknowledged."""

    def __init__(self, nodes, bearer, prefix):
        super().__init__(daemon=True)
        self.nodes, self.bearer, self.prefix = nodes, bearer, prefix
        self.acknowledged, self.refused = [], []
        self.stopping = threading.Event()

    def run(self):
        step = 0
        while not self.stopping.is_set():
            node = self.nodes[step % len(self.nodes)]
            step += 1
            try:
                reply = request(node.url + "/api/v1/tasks", "POST", body={"title": f"{self.prefix} {step}"},
                                headers=self.bearer, timeout=10)
            except OSError:
                continue  # a killed node, or a connection cut
            if reply.status == 201:
                self.acknowledged.append(reply.json()["id"])
            else:
                self.refused.append(reply.status)
                time.sleep(0.05)

    def stop(self):
        self.stopping.set()
        self.join(timeout=60)


def test_kill_minus_nine_of_a_node_during_writes_loses_nothing_acknowledged():
    folder = Folder()
    try:
        database = fresh_database()
        doomed, survivor = Node(folder, database, "a"), Node(folder, database, "b")
        bearer = account(database)
        writers = [Writer([doomed], bearer, "to a"), Writer([doomed, survivor], bearer, "to both")]
        for writer in writers:
            writer.start()
        wait_for(lambda: all(len(writer.acknowledged) >= 15 for writer in writers), "writes to be acknowledged")
        doomed.kill()
        count = len(writers[1].acknowledged)
        wait_for(lambda: len(writers[1].acknowledged) >= count + 10, "writes through the surviving node")
        for writer in writers:
            writer.stop()
        stored = all_tasks(survivor.url, bearer)
        acknowledged = writers[0].acknowledged + writers[1].acknowledged
        missing = [task for task in acknowledged if task not in stored]
        assert not missing, f"{len(missing)} acknowledged writes lost: {missing[:3]}"
        print(f"      {len(acknowledged)} acknowledged writes, all there after kill -9")
    finally:
        folder.remove()


def test_a_database_restart_under_load_is_503_then_recovers_with_nothing_lost():
    folder = Folder()
    try:
        database = fresh_database()
        nodes = [Node(folder, database, "a"), Node(folder, database, "b")]
        bearer = account(database)
        stream = EventStream(nodes[0].url, bearer)
        writer = Writer(nodes, bearer, "through the restart")
        writer.start()
        wait_for(lambda: len(writer.acknowledged) >= 20, "writes before the restart")
        cluster("halt")
        try:
            for node in nodes:
                wait_for(lambda: request(node.url + "/readyz", timeout=5).status == 503, f"node {node.name} to say it is not ready")
                ready = request(node.url + "/readyz").json()
                assert ready["database"] == "unreachable", ready
                refused = request(node.url + "/api/v1/tasks", "POST", body={"title": "while down"}, headers=bearer)
                assert refused.status == 503 and refused.headers.get("Retry-After"), (refused.status, refused.body)
                assert "postgresql" not in refused.body.decode() and "host=" not in refused.body.decode(), refused.body
            before = len(writer.acknowledged)
        finally:
            cluster("resume")
        for node in nodes:
            wait_for(lambda: request(node.url + "/readyz", timeout=5).status == 200, f"node {node.name} to recover")
        wait_for(lambda: len(writer.acknowledged) >= before + 20, "writes after the restart")
        writer.stop()
        stored = all_tasks(nodes[1].url, bearer)
        missing = [task for task in writer.acknowledged if task not in stored]
        assert not missing, f"{len(missing)} acknowledged writes lost: {missing[:3]}"
        assert 503 in writer.refused, "writes during the outage were answered 503"
        # The stream on a survived the outage (or reconnects): a change through b reaches it again.
        created = request(nodes[1].url + "/api/v1/tasks", "POST", body={"title": "after the restart"}, headers=bearer)
        task = created.json()["id"]
        wait_for(lambda: any(task in str(data) for _, _, data in stream.named("change")), "a live event after the restart",
                 timeout=5)
        stream.close()
        print(f"      {len(writer.acknowledged)} acknowledged, {writer.refused.count(503)} answered 503 while the database was down")
    finally:
        folder.remove()


def test_nginx_in_front_of_three_nodes():
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert os.path.exists(nginx), "nginx is installed by scripts/bootstrap --test"
    folder = Folder()
    os.chmod(folder.path, 0o755)  # nginx's workers write their temporary files here
    process = None
    try:
        database = fresh_database()
        nodes = [Node(folder, database, name, "--trusted-proxy", "127.0.0.1") for name in ("a", "b", "c")]
        bearer = account(database)
        port = free_port()
        with open("dist/nginx/slate-nodes.conf") as handle:
            shipped = handle.read()
        # The shipped file, with this test's node ports, a plain loopback listener instead of
        # TLS (no certificate here) and the snippet from the repository.
        servers = iter(node.port for node in nodes)
        site = re.sub(r"server 127\.0\.0\.1:808[123]", lambda _: f"server 127.0.0.1:{next(servers)}", shipped)
        site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port};")
        site = re.sub(r"\n\s*ssl_certificate(_key)? [^\n]*", "", site)
        site = site.replace("/etc/nginx/snippets/slate-proxy.conf", os.path.abspath("dist/nginx/slate-proxy.conf"))
        assert site.count(f"127.0.0.1:{nodes[2].port}") == 1, site
        with open(folder("nginx.conf"), "w") as handle:
            handle.write(f"""
daemon off;
worker_processes 1;
pid {folder('nginx.pid')};
error_log {folder('nginx-error.log')};
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder('client')};
    proxy_temp_path {folder('proxy')};
    fastcgi_temp_path {folder('fastcgi')};
    uwsgi_temp_path {folder('uwsgi')};
    scgi_temp_path {folder('scgi')};
{site}
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
        stream = EventStream(proxy, bearer)
        made = []
        for index in range(30):
            reply = request(proxy + "/api/v1/tasks", "POST", body={"title": f"through nginx {index}"}, headers=bearer)
            assert reply.status == 201, reply.body
            made.append(reply.json()["id"])
        served = [node.requests_served() for node in nodes]
        assert all(count > 0 for count in served), f"requests per node: {served}"
        wait_for(lambda: all(any(task in str(data) for _, _, data in stream.named("change")) for task in made),
                 "every change as a live event through nginx", timeout=10)
        nodes[1].kill()
        for index in range(20):
            reply = request(proxy + "/api/v1/tasks", "POST", body={"title": f"one node down {index}"}, headers=bearer)
            assert reply.status == 201, (reply.status, reply.body)
            made.append(reply.json()["id"])
        stored = all_tasks(proxy, bearer)
        assert all(task in stored for task in made)
        stream.close()
        print(f"      requests per node before the kill: {served}")
    finally:
        if process and process.poll() is None:
            process.terminate()
            process.wait(timeout=30)
        folder.remove()
