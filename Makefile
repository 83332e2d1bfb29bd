# Slate — the two commands: `make run` and `make test`.
# Both install missing system packages first (scripts/bootstrap, idempotent).

SWIFT ?= swift
DEMO_DB ?= $(CURDIR)/.build/demo/slate.sqlite

.PHONY: run test build bootstrap fuzz bench bench-store bench-cli bench-server bench-scale bench-web screenshots format clean \
	release install install-files uninstall deb ops-test pg-test

SLATE = .build/release/slate --db $(DEMO_DB)
HOST ?= 127.0.0.1
PORT ?= 8080

# Load the sample board into a demo database, show it, then serve it (Ctrl-C stops).
# `make run HOST=0.0.0.0` makes it reachable from a phone on the same network.
run: bootstrap
	$(RELEASE_BUILD)
	mkdir -p $(dir $(DEMO_DB))
	$(SLATE) sample
	$(SLATE) list --status all
	@echo
	$(SLATE) serve --host $(HOST) --port $(PORT) --web $(CURDIR)/Web

test:
	scripts/bootstrap --test
	$(SWIFT) build --build-tests
	scripts/swift-test
	scripts/pg-test
	scripts/fuzz --smoke
	scripts/api-contract-test
	scripts/caldav-test
	scripts/alerts-test
	scripts/web-test
	scripts/ops-test

# --- Installing and packaging -------------------------------------------------------
# `make install PREFIX=/usr/local DESTDIR=/tmp/stage` puts exactly these in place, and
# `make uninstall` (same PREFIX and DESTDIR) removes exactly these:
#   $(PREFIX)/bin/slate                    the release build (Swift's runtime linked in)
#   $(PREFIX)/share/slate/web/             the web app (an installed `slate serve` finds it)
#   $(PREFIX)/share/man/man1/slate.1.gz    the manual, generated from the CLI's own help
PREFIX ?= /usr/local
DESTDIR ?=
RELEASE_SLATE = .build/release/slate
# The one release build of `slate`: `make run`, `make install`, the package and every
# benchmark use this binary. Package.swift links the Swift runtime into every release
# executable (-static-stdlib), so no flag is needed here and no build redoes another's.
RELEASE_BUILD = $(SWIFT) build -c release --product slate
INSTALL_BIN = $(DESTDIR)$(PREFIX)/bin
INSTALL_WEB = $(DESTDIR)$(PREFIX)/share/slate/web
INSTALL_MAN = $(DESTDIR)$(PREFIX)/share/man/man1

# One release build serves `run`, `install`, `deb`, the packaging tests and the benchmarks.
release: bootstrap
	$(RELEASE_BUILD)

install: release install-files

# The copying alone (scripts/make-deb stages the package with it).
install-files:
	install -d $(INSTALL_BIN) $(INSTALL_WEB) $(INSTALL_MAN)
	install -m 0755 $(RELEASE_SLATE) $(INSTALL_BIN)/slate
	cd Web && find . -type d -exec install -d -m 0755 "$(abspath $(INSTALL_WEB))/{}" \; \
		&& find . -type f -exec install -m 0644 "{}" "$(abspath $(INSTALL_WEB))/{}" \;
	scripts/manpage $(RELEASE_SLATE) | gzip -9n > $(INSTALL_MAN)/slate.1.gz

uninstall:
	rm -f $(INSTALL_BIN)/slate $(INSTALL_MAN)/slate.1.gz
	rm -rf $(INSTALL_WEB)
	rmdir $(DESTDIR)$(PREFIX)/share/slate 2>/dev/null || true

# dist/slate_<version>_amd64.deb: binary, web app, unit, configuration example, manual, copyright.
deb: release
	scripts/make-deb $(RELEASE_SLATE)

build: bootstrap
	$(SWIFT) build

bootstrap:
	scripts/bootstrap

# Every parser of outside input under libFuzzer, FUZZ_SECONDS each (FUZZ_TARGETS: a subset,
# e.g. `make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS="ical router"`). See scripts/fuzz.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: bootstrap
	scripts/fuzz --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: bench-store bench-cli bench-server

bench-store: bootstrap
	bench/store/run

# `slate` against Taskwarrior as whole processes; installs Taskwarrior and hyperfine if missing.
bench-cli:
	bench/cli/run

# The REST API under wrk beside the bridge's ceiling, memory over 60 s, 1,000 SSE streams.
bench-server:
	bench/server/run

# bench/server's lines on SQLite, PostgreSQL and two PostgreSQL nodes at 10,000 and 1,000,000
# tasks, with CPU per request (about 20 min; not part of `make bench`).
bench-scale:
	bench/scale/run

# The web app in headless chromium with 10,000 tasks (not part of `make bench` or `make test`).
bench-web:
	bench/web/run

# docs/screenshots/*.png: the web app at phone and desktop sizes, on the sample board.
screenshots:
	scripts/web-test --screenshots

# Operations tests alone (also the last step of `make test`): install, package, service.
ops-test:
	scripts/bootstrap --test
	scripts/ops-test

# The store, core, API and CalDAV suites on a throwaway PostgreSQL cluster, and several
# nodes on one database (also a step of `make test`).
pg-test:
	scripts/bootstrap --test
	scripts/pg-test

format:
	$(SWIFT) format --in-place --recursive Sources Tests bench Package.swift

clean:
	rm -rf .build
