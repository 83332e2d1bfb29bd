"""`slate backup` while `slate serve` takes a stream of writes through the API: the backup
opens, passes PRAGMA integrity_check and holds every write acknowledged before it began;
`slate restore` is refused while the server runs, then brings the backup back."""
import os
import sqlite3
import subprocess
import threading

from support import Folder, Server, request, slate, wait_for, SLATE


def token_for(db):
    import json
    return json.loads(slate(db, "--json", "token", "create", "--user", "local", "--label", "backup").stdout)["token"]


def titles_via_api(server, bearer):
    reply = request(server.url + "/api/v1/tasks?status=all&limit=500", headers=bearer)
    assert reply.status == 200, reply.body
    return {task["title"] for task in reply.json()["tasks"]}


def test_backup_during_a_stream_of_writes_then_restore():
    folder = Folder()
    try:
        db = folder("slate.sqlite")
        slate(db, "sample")
        server = Server(folder, db)
        bearer = {"Authorization": f"Bearer {token_for(db)}"}
        acknowledged = []
        stop = threading.Event()
        failures = []

        def writer():
            number = 0
            while not stop.is_set():
                number += 1
                reply = request(server.url + "/api/v1/tasks", "POST", body={"title": f"ack {number}"}, headers=bearer)
                if reply.status != 201:
                    failures.append(reply.status)
                    return
                acknowledged.append(f"ack {number}")

        thread = threading.Thread(target=writer)
        thread.start()
        wait_for(lambda: len(acknowledged) >= 25 or failures, "25 acknowledged writes")
        before = set(acknowledged)
        backup = subprocess.run([SLATE, "--db", db, "backup", folder("nightly.sqlite")], capture_output=True, text=True,
                                timeout=120)
        during = len(acknowledged)
        wait_for(lambda: len(acknowledged) >= during + 5 or failures, "writes to go on after the backup")
        stop.set()
        thread.join(timeout=60)
        assert not failures, failures
        assert backup.returncode == 0, backup.stderr
        assert "Backed up" in backup.stdout

        copy = sqlite3.connect(f"file:{folder('nightly.sqlite')}?mode=ro", uri=True)
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        saved = {row[0] for row in copy.execute("SELECT title FROM tasks WHERE title LIKE 'ack %'")}
        copy.close()
        assert before <= saved, f"missing from the backup: {sorted(before - saved)[:5]}"
        after_backup = set(acknowledged) - saved
        assert after_backup, "writes after the backup exist (so the restore has something to undo)"

        # A restore while the server holds the database is refused and changes nothing.
        refused = slate(db, "restore", folder("nightly.sqlite"), check=False)
        assert refused.returncode == 1, refused.stdout
        assert "stop it first" in refused.stderr
        assert after_backup <= titles_via_api(server, bearer)

        assert server.stop() == 0
        restored = slate(db, "restore", folder("nightly.sqlite"))
        assert "Restored" in restored.stdout, restored.stdout
        assert any(name.startswith("slate.sqlite.before-restore-") for name in os.listdir(folder.path))

        again = Server(folder, db, name="again")
        titles = titles_via_api(again, bearer)
        assert {t for t in titles if t.startswith("ack ")} == saved
        assert not (after_backup & titles)
        ready = request(again.url + "/readyz")
        assert ready.status == 200, ready.body
        assert again.stop() == 0
    finally:
        folder.remove()


def test_a_forced_restore_under_a_running_server():
    folder = Folder()
    try:
        db = folder("slate.sqlite")
        slate(db, "add", "Before the backup")
        bearer = {"Authorization": f"Bearer {token_for(db)}"}  # in the backup, so it still signs in after
        slate(db, "backup", folder("copy.sqlite"))
        slate(db, "add", "After the backup")
        server = Server(folder, db)
        assert "After the backup" in titles_via_api(server, bearer)
        forced = slate(db, "restore", "--force", folder("copy.sqlite"))
        assert "Restored" in forced.stdout
        titles = titles_via_api(server, bearer)
        assert "Before the backup" in titles and "After the backup" not in titles, titles
        assert server.stop() == 0
    finally:
        folder.remove()


def test_an_upgrade_copies_the_database_first_and_says_so():
    folder = Folder()
    try:
        db = folder("slate.sqlite")
        slate(db, "add", "Written by the old version")

        def as_if_written_by_an_older_build():
            # What an older build leaves: the schema recorded differs from this build's.
            connection = sqlite3.connect(db)
            connection.execute("UPDATE _slate_meta SET value = 0 WHERE key = 'schema_fingerprint'")
            connection.commit()
            connection.close()

        as_if_written_by_an_older_build()
        listed = slate(db, "list")
        assert "note: the database was upgraded" in listed.stderr, listed.stderr
        copies = [name for name in os.listdir(folder.path) if name.startswith("slate.sqlite.before-schema-")]
        assert len(copies) == 1, copies
        copy = sqlite3.connect(f"file:{folder(copies[0])}?mode=ro", uri=True)
        assert copy.execute("SELECT title FROM tasks").fetchall() == [("Written by the old version",)]
        assert copy.execute("SELECT value FROM _slate_meta WHERE key = 'schema_fingerprint'").fetchall() == [(0,)]
        copy.close()
        assert "upgraded" not in slate(db, "list").stderr, "only once"

        as_if_written_by_an_older_build()
        server = Server(folder, db)
        upgraded = [e for e in server.events() if e.get("event") == "database upgraded"]
        assert upgraded and upgraded[0]["copy_before"].startswith(db + ".before-schema-"), server.log()
        assert server.stop() == 0
    finally:
        folder.remove()
