# alice — terminal-first AI trading agent.
GO      ?= go
BIN     ?= bin/alice
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: build run serve test test-short bench lint fmt blackbox e2e clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

## run: start the TUI (data under ALICE_HOME or XDG dirs)
run: build
	./$(BIN)

## serve: the same core headless (MCP ports, scheduling, workspaces)
serve: build
	./$(BIN) serve

## test: the whole suite with the race detector (what CI runs)
test:
	$(GO) test -race -count=1 ./...

test-short:
	$(GO) test -short ./...

## bench: Go benchmarks plus the scripts under bench/
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@for s in bench/*.sh; do [ -f "$$s" ] && bash "$$s" || true; done

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

fmt:
	gofmt -w $$(git ls-files '*.go')

## blackbox: real third-party MCP clients against a running alice (needs npm)
blackbox: build
	bash scripts/mcp/blackbox.sh

## e2e: the tmux end-to-end flow through the real binary
e2e: build
	bash scripts/tui/e2e.sh
	bash scripts/tui/settings-e2e.sh

clean:
	rm -rf bin
