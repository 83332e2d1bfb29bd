# Slate — the two commands: `make run` and `make test`.
# Both install missing system packages first (scripts/bootstrap, idempotent).

SWIFT ?= swift
DEMO_DB ?= $(CURDIR)/.build/demo/slate.sqlite

.PHONY: run test build bootstrap bench bench-store format clean

run: bootstrap
	$(SWIFT) build -c release --product store-demo
	mkdir -p $(dir $(DEMO_DB))
	.build/release/store-demo $(DEMO_DB)

test:
	scripts/bootstrap --test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

build: bootstrap
	$(SWIFT) build

bootstrap:
	scripts/bootstrap

bench: bench-store

bench-store: bootstrap
	bench/store/run

format:
	$(SWIFT) format --in-place --recursive Sources Tests bench Package.swift

clean:
	rm -rf .build
