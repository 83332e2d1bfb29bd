# Slate — the two commands: `make run` and `make test`.
# Both install missing system packages first (scripts/bootstrap, idempotent).

SWIFT ?= swift
DEMO_DB ?= $(CURDIR)/.build/demo/slate.sqlite

.PHONY: run test build bootstrap bench bench-store bench-cli bench-server format clean

SLATE = .build/release/slate --db $(DEMO_DB)

# Until `slate serve` exists: load the sample board into a demo database and show it.
run: bootstrap
	$(SWIFT) build -c release --product slate
	mkdir -p $(dir $(DEMO_DB))
	$(SLATE) sample
	$(SLATE) lists
	$(SLATE) list --status all
	@echo
	@echo "Try it: export SLATE_DB=$(DEMO_DB); .build/release/slate add Record the score tomorrow 5pm !high #Sound"

test:
	scripts/bootstrap --test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

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

format:
	$(SWIFT) format --in-place --recursive Sources Tests bench Package.swift

clean:
	rm -rf .build
