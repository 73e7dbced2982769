# OCCFM: make serve (build the page and serve it), make test (all tests).
GO       ?= go
GOROOT   := $(shell $(GO) env GOROOT)
WASMEXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
ADDR     ?= 127.0.0.1:8080
FUZZTIME ?= 30s

.PHONY: all test test-native test-wasm vet dist serve bench fuzz clean

all: dist

## test: go vet (native and js/wasm), go test natively and under wasm.
test: vet test-native test-wasm

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

test-native:
	$(GO) test -count=1 ./...

# Under wasm (node runs the test binary) the tests skip the slow real-data
# passes with -short.
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -short -exec="$(WASMEXEC)" ./core/... ./cmd/...

## dist: the static page in dist/ (git-ignored), servable by any static host.
dist:
	mkdir -p dist
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o dist/occfm.wasm ./wasm
	cp "$(GOROOT)/lib/wasm/wasm_exec.js" dist/
	cp ui/index.html ui/app.js dist/

## serve: build dist/ and serve it on $(ADDR).
serve: dist
	$(GO) run . -addr $(ADDR) -dir dist

## bench: Go benchmarks of the core.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./core/...

## fuzz: run every reader fuzz target for $(FUZZTIME).
fuzz:
	for t in $$($(GO) test -list 'Fuzz.*' ./core | grep ^Fuzz); do \
		$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./core || exit 1; \
	done

clean:
	rm -rf dist
