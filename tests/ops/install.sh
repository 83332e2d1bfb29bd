#!/usr/bin/env bash
# make install into a DESTDIR: exactly the binary, the web app and the manual; the
# installed `slate serve`, started elsewhere without --web, serves its installed web app;
# make uninstall removes exactly what install put there.
#   tests/ops/install.sh     (run by scripts/ops-test after the release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
stage=$(mktemp -d)
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$stage"
}
trap cleanup EXIT
fail() { echo "install test: $*" >&2; exit 1; }

make --no-print-directory install-files PREFIX=/usr/local DESTDIR="$stage/root" >/dev/null
expected=$( (echo usr/local/bin/slate; echo usr/local/share/man/man1/slate.1.gz;
             cd Web && find . -type f | sed 's|^\./|usr/local/share/slate/web/|') | sort)
actual=$(cd "$stage/root" && find . -type f | sed 's|^\./||' | sort)
[[ "$expected" == "$actual" ]] || fail "installed files differ: $(diff <(echo "$expected") <(echo "$actual") | head)"
[[ -x "$stage/root/usr/local/bin/slate" ]] || fail "slate is not executable"
# Read whole, then searched: under pipefail `zcat | grep -q` fails once the manual is
# longer than a pipe holds (grep stops at the match, zcat then dies of SIGPIPE).
manual=$(zcat "$stage/root/usr/local/share/man/man1/slate.1.gz")
grep -q '^\.SS slate serve' <<<"$manual" || fail "the manual lacks slate serve"
# Linked in, not loaded at every start: the Swift runtime, SQLite and the C++ runtime
# (Package.swift; each shared one cost every command its relocations).
needed=$(readelf -d "$stage/root/usr/local/bin/slate" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
for library in libsqlite3 libstdc++ libswiftCore libFoundation; do
    if grep -q "^$library" <<<"$needed"; then fail "the installed slate loads $library at start (it needs: $(echo $needed))"; fi
done

# Run from an empty folder: no ./Web to fall back on.
mkdir "$stage/elsewhere"
(cd "$stage/elsewhere" && exec "$stage/root/usr/local/bin/slate" --db "$stage/slate.sqlite" serve --port 0 \
    >"$stage/serve.out" 2>"$stage/serve.err") &
server_pid=$!
port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's|^  http://127\.0\.0\.1:\([0-9][0-9]*\)/.*|\1|p' "$stage/serve.out" | head -n1)
    [[ -n "$port" ]] && break
    kill -0 "$server_pid" 2>/dev/null || fail "slate serve exited: $(cat "$stage/serve.err")"
    sleep 0.1
done
[[ -n "$port" ]] || fail "slate serve did not listen"
grep -q "No web app folder" "$stage/serve.out" && fail "the installed binary did not find its web app"
curl -sf "http://127.0.0.1:$port/" -o "$stage/index.html" || fail "GET / failed"
cmp -s "$stage/index.html" Web/index.html || fail "GET / is not the installed index.html"
curl -sf "http://127.0.0.1:$port/manifest.webmanifest" >/dev/null || fail "GET /manifest.webmanifest failed"
kill -TERM "$server_pid"
wait "$server_pid" || fail "slate serve did not stop cleanly"
server_pid=""

make --no-print-directory uninstall PREFIX=/usr/local DESTDIR="$stage/root" >/dev/null
left=$(cd "$stage/root" && find . -type f)
[[ -z "$left" ]] || fail "uninstall left: $left"
[[ ! -e "$stage/root/usr/local/share/slate" ]] || fail "uninstall left share/slate"
echo "ok    install: DESTDIR has exactly bin/slate (runtime, SQLite and C++ runtime linked in), share/slate/web, the manual; serves its web app; uninstall removes them"
