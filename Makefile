# alice — terminal-first AI trading agent.
GO      ?= go
BIN     ?= bin/alice
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X github.com/alice-trading/alice/app/cli.version=$(VERSION) -X github.com/alice-trading/alice/app/cli.commit=$(COMMIT) -X github.com/alice-trading/alice/app/cli.date=$(DATE)
# Release builds are stripped and trimmed; DIST_MAX_BYTES is the size budget
# `make dist` enforces so the binary cannot silently grow; lower it when the
# binary shrinks, never raise it silently.
#
# What the binary is made of (linux/amd64, 2026-11-25; measure an unstripped
# build with scripts/size-breakdown.sh): 58.0 MB stripped = .text 22.5 MB of
# code + .gopclntab 20.0 MB (function tables; they grow with the code) +
# .rodata 11.2 MB + data 1.6 MB. Largest code: openai-go 6.7 MB, alice's own
# packages 2.6 MB, anthropic-sdk-go 1.8 MB, goldmark 0.8 MB, protobuf 0.5 MB,
# ibapi 0.5 MB, chroma 0.5 MB, net/http 0.4 MB, mcp-go 0.4 MB.
#
# It was 90.7 MB while the linker's method dead-code elimination was off. Any
# reachable reflect Method/MethodByName call with a non-constant name keeps
# every exported method of every reachable type (openai-go was 11.7 MB of
# code, the Anthropic SDK 5.1 MB). Two paths did it: glamour formats some
# elements with text/template (the TUI now renders Markdown with core/mdterm,
# goldmark + lipgloss), and protobuf < v1.36.12 calls MethodByName("Methods"),
# which keeps Go 1.26's reflect.Value.Methods iterator (now v1.36.12).
# Keep it that way: `go build -ldflags=-dumpdep . 2>&1 | grep ReflectMethod`
# must print nothing.
#
# What would shrink it further: the OpenAI SDK is the largest piece for the
# one streaming chat endpoint alice calls (a small client over core/httpjson
# would save most of ~10 MB with its tables); chroma carries every lexer
# for diff highlighting; goldmark's HTML entity table is 0.5 MB.
RELEASE_FLAGS := -trimpath -ldflags "-s -w $(LDFLAGS)"
DIST_MAX_BYTES ?= 64000000
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64

.PHONY: vet-ccxt build build-ccxt install dist release-check run serve test test-ccxt test-short bench lint fmt blackbox hostile e2e clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

## install: a stripped, trimmed alice into $(go env GOBIN) (or GOPATH/bin)
install:
	$(GO) install $(RELEASE_FLAGS) .

## dist: cross-compile linux/darwin × amd64/arm64 into dist/, print sizes,
## fail if any binary exceeds DIST_MAX_BYTES or method dead-code elimination is off
dist:
	@mkdir -p dist
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; out=dist/alice_$${os}_$${arch}; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build $(RELEASE_FLAGS) -o $$out . ; \
	done
	@bash scripts/dist-size.sh $(DIST_MAX_BYTES) dist/alice_*
	@if CGO_ENABLED=0 $(GO) build -trimpath -ldflags=-dumpdep -o /dev/null . 2>&1 | grep -q ReflectMethod; then \
		echo "dist: a reachable reflect Method/MethodByName call turned off the linker's method dead-code elimination (see the size note in the Makefile)" >&2; exit 1; fi

## release-check: validate .goreleaser.yaml (goreleaser v2: go install github.com/goreleaser/goreleaser/v2@v2.15.1)
GORELEASER ?= goreleaser
release-check:
	$(GORELEASER) check

## run: start the TUI (data under ALICE_HOME or XDG dirs)
run: build
	./$(BIN)

## serve: the same core headless (MCP ports, scheduling, workspaces)
serve: build
	./$(BIN) serve

## test: the whole suite with the race detector (what CI runs), and the
## patched Bubble Tea's and x/vt's own tests (modules of their own under
## third_party)
test:
	$(GO) test -race -count=1 ./...
	cd third_party/bubbletea && $(GO) test -race -count=1 ./...
	cd third_party/vt && $(GO) test -race -count=1 ./...

## test-ccxt: the CCXT broker (okx, bitget, hyperliquid, ccxt-custom) under
## its build tag. CCXT costs ~3 min and ~10 GB of compiler memory per cold
## build (again with -race), so the default build and `make test` never compile it.
test-ccxt:
	$(GO) test -race -count=1 -tags ccxt ./trading/ccxt/ ./trading/uta/

## vet-ccxt: compile and vet the CCXT-tagged packages (no tests)
vet-ccxt:
	$(GO) build -tags ccxt ./trading/ccxt/ ./trading/uta/
	$(GO) vet -tags ccxt ./trading/ccxt/ ./trading/uta/

## build-ccxt: alice with the CCXT presets
build-ccxt:
	$(GO) build -tags ccxt -ldflags "$(LDFLAGS)" -o $(BIN) .

test-short:
	$(GO) test -short ./...

## bench: Go benchmarks plus the scripts under bench/
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@for s in bench/*.sh; do [ -f "$$s" ] && bash "$$s" || true; done

## lint: vet + gofmt, and the CCXT build compiled and vetted under its tag
## so that code cannot rot unseen (vet-ccxt: measured 5 s with a warm build
## cache; cold, CCXT's module costs ~3 min and ~10 GB of compiler memory)
lint: vet-ccxt
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

fmt:
	gofmt -w $$(git ls-files '*.go')

## blackbox: real third-party MCP clients against a running alice (needs npm)
blackbox: build
	bash scripts/mcp/blackbox.sh

## hostile: a hostile agent (TypeScript SDK client) and careless configs
## against the real alice serve, with kill -9 of the core (needs npm)
hostile: build
	ALICE_BIN=$(CURDIR)/$(BIN) bash scripts/mcp/hostile.sh

## e2e: the tmux end-to-end flow through the real binary, the keys an
## attached session gets compared with a bare tmux pane's, and key bursts
## across attach, detach and zoom (~70 s)
e2e: build
	ALICE_BIN=$(CURDIR)/$(BIN) bash scripts/tui/e2e.sh
	ALICE_BIN=$(CURDIR)/$(BIN) bash scripts/tui/settings-e2e.sh
	ALICE_BIN=$(CURDIR)/$(BIN) bash scripts/workspace/keys-diff.sh
	ALICE_BIN=$(CURDIR)/$(BIN) bash scripts/workspace/bursts-e2e.sh

clean:
	rm -rf bin dist
