# Slate — the two commands: `make run` and `make test`.
# Both install missing system packages first (scripts/bootstrap, idempotent).

SWIFT ?= swift
DEMO_DB ?= $(CURDIR)/.build/demo/slate.sqlite

.PHONY: run test build bootstrap bench bench-store bench-cli bench-server bench-web screenshots format clean

SLATE = .build/release/slate --db $(DEMO_DB)
HOST ?= 127.0.0.1
PORT ?= 8080

# Load the sample board into a demo database, show it, then serve it (Ctrl-C stops).
# `make run HOST=0.0.0.0` makes it reachable from a phone on the same network.
run: bootstrap
	$(SWIFT) build -c release --product slate
	mkdir -p $(dir $(DEMO_DB))
	$(SLATE) sample
	$(SLATE) list --status all
	@echo
	$(SLATE) serve --host $(HOST) --port $(PORT) --web $(CURDIR)/Web

test:
	scripts/bootstrap --test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/api-contract-test
	scripts/alerts-test
	scripts/web-test

build: bootstrap
	$(SWIFT) build

bootstrap:
	scripts/bootstrap

bench: bench-store bench-cli bench-server

bench-store: bootstrap
	bench/store/run

# `slate` against Taskwarrior as whole processes; installs Taskwarrior and hyperfine if missing.
# Also times slate built with --static-swift-stdlib (see BENCHMARKS.md).
bench-cli:
	bench/cli/run --static-stdlib

# The REST API under wrk beside the bridge's ceiling, memory over 60 s, 1,000 SSE streams.
bench-server:
	bench/server/run

# The web app in headless chromium with 10,000 tasks (not part of `make bench` or `make test`).
bench-web:
	bench/web/run

# docs/screenshots/*.png: the web app at phone and desktop sizes, on the sample board.
screenshots:
	scripts/web-test --screenshots

format:
	$(SWIFT) format --in-place --recursive Sources Tests bench Package.swift

clean:
	rm -rf .build
