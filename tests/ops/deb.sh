#!/usr/bin/env bash
# The Debian package: built with dpkg-deb from the release binary, no lintian errors,
# installed with dpkg -i, the installed unit passes systemd-analyze verify, the installed
# `slate --version` and a one-shot `slate serve` on a temporary database answer
# GET /healthz, and dpkg --purge removes it all. Needs root (it installs a package).
set -euo pipefail
cd "$(dirname "$0")/../.."
SLATE=${SLATE_RELEASE:-.build/release/slate}
fail() { echo "deb test: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || { echo "skip  deb: installing a package needs root"; exit 0; }
if dpkg-query -W -f='${Status}' slate 2>/dev/null | grep -q "install ok installed"; then
    fail "a slate package is already installed on this machine; remove it first (dpkg -r slate)"
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    dpkg-query -W slate >/dev/null 2>&1 && dpkg --purge slate >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT

deb=$(scripts/make-deb "$SLATE")
version=$("$SLATE" --version | awk '{print $2}')
[[ "$deb" == "dist/slate_${version}_$(dpkg --print-architecture).deb" ]] || fail "unexpected name $deb"
contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
for path in ./usr/bin/slate ./usr/share/slate/web/index.html ./lib/systemd/system/slate.service \
    ./lib/systemd/system/slate-backup.timer ./etc/slate/slate.conf \
    ./usr/share/man/man1/slate.1.gz ./usr/share/doc/slate/copyright; do
    grep -qx "$path" <<<"$contents" || fail "$path is not in the package"
done
lint=$(lintian --allow-root "$deb" 2>&1 || true)
if grep -q '^E:' <<<"$lint"; then fail "lintian errors:\n$lint"; fi

dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || fail "dpkg -i failed: $(cat "$work/dpkg.log")"
[[ "$(/usr/bin/slate --version)" == "slate $version" ]] || fail "installed slate --version"
for unit in slate.service slate-backup.service slate-backup.timer; do
    cmp -s "dist/$unit" "/lib/systemd/system/$unit" || fail "the installed $unit is not dist/$unit"
done
systemd-analyze verify /lib/systemd/system/slate.service /lib/systemd/system/slate-backup.service \
    /lib/systemd/system/slate-backup.timer 2>"$work/verify.log" || fail "systemd-analyze verify: $(cat "$work/verify.log")"
[[ ! -s "$work/verify.log" ]] || fail "systemd-analyze verify warned: $(cat "$work/verify.log")"

# One-shot serve of the installed binary with the installed configuration (port 8080 in
# it is overridden with a free one), from an empty folder.
mkdir "$work/elsewhere"
(cd "$work/elsewhere" && exec /usr/bin/slate --db "$work/slate.sqlite" serve --config /etc/slate/slate.conf --port 0 \
    >"$work/serve.out" 2>"$work/serve.err") &
server_pid=$!
port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's|^  http://127\.0\.0\.1:\([0-9][0-9]*\)/.*|\1|p' "$work/serve.out" | head -n1)
    [[ -n "$port" ]] && break
    kill -0 "$server_pid" 2>/dev/null || fail "slate serve exited: $(cat "$work/serve.err")"
    sleep 0.1
done
[[ -n "$port" ]] || fail "slate serve did not listen"
[[ "$(curl -sf "http://127.0.0.1:$port/healthz")" == '{"status":"alive"}' ]] || fail "GET /healthz"
curl -sf "http://127.0.0.1:$port/" | cmp -s - Web/index.html || fail "the packaged web app is not served"
kill -TERM "$server_pid"
wait "$server_pid" || fail "slate serve did not stop cleanly"
server_pid=""
grep -q '"event":"listening"' "$work/serve.err" || fail "the installed configuration's JSON log"

dpkg --purge slate >"$work/dpkg.log" 2>&1 || fail "dpkg --purge failed: $(cat "$work/dpkg.log")"
[[ ! -e /usr/bin/slate && ! -e /lib/systemd/system/slate.service && ! -e /usr/share/slate ]] || fail "files left after removal"
echo "ok    deb: $deb builds, lintian has no errors, installs, verifies, serves /healthz, purges"
