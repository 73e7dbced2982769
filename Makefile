# OCCFM: make serve (build the page and serve it), make test (all tests).
GO       ?= go
GOROOT   := $(shell $(GO) env GOROOT)
WASMEXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
ADDR     ?= 127.0.0.1:8080
# Fuzz budgets are input counts, not durations: with a duration, Go 1.26's
# fuzz coordinator can fail a target with a bare "context deadline exceeded"
# as the time runs out (golang/go#75804, fixed in Go 1.27). A count has no
# deadline to race. make test: 20000x each, about 50 s for all eight targets
# on 2 cores, half of it building the instrumented binaries (1x: 27 s).
FUZZTIME ?= 400000x
FUZZTIME_SHORT ?= 20000x

.PHONY: all test lint test-busy test-go test-native test-wasm test-fuzz test-e2e test-js vet dist lib-pack serve bench bench-load stress fuzz paper clean

all: dist

## test: go vet and staticcheck (native and js/wasm), the page's JS checked and unit-tested
## in node, go test natively and under wasm, each fuzz target for
## $(FUZZTIME_SHORT) inputs, and the page end to end in headless Chromium.
test: vet lint test-js test-go test-fuzz test-e2e

## test-go: test-native and test-wasm at once. Each leaves a core of a
## 2-core machine idle for long stretches (core's native tests run after
## the other packages', core's wasm binaries wait on the slower one), and
## together they keep both busy: about a minute and a half less than one
## after the other.
test-go:
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-native test-wasm

## test-busy: make test while BUSY_LOOPS busy loops (default 2, one per core
## of a 2-core machine) compete with it for the CPU at the same priority:
## the proof that no test depends on a quiet machine. The tests bound work
## (operations, allocations, bytes), not seconds; the deadlines left are
## hang guards of minutes. The loops stop when make test ends, pass or fail.
BUSY_LOOPS ?= 2
test-busy:
	@pids=; for i in $$(seq $(BUSY_LOOPS)); do sh -c 'while :; do :; done' & pids="$$pids $$!"; done; \
		trap 'kill $$pids 2>/dev/null' EXIT INT TERM; \
		echo "test-busy: $(BUSY_LOOPS) busy loops ($$pids) running beside make test"; \
		$(MAKE) test

## test-js: node --check on every module of the page and of the library,
## the node:test unit tests of the page's pure modules (ui/test/),
## tsc --noEmit --strict on a file that makes every call of lib/occfm.js
## against its types (ui/lib/test/uses.ts; --ignoreConfig: its own options,
## not ui/tsconfig.json's), and tsc over the page's own JS (ui/tsconfig.json:
## app.js and ui/js/, checkJs with JSDoc types, the DOM's, uPlot's and the
## core's types; a second of CPU).
test-js: ui/node_modules
	for f in ui/app.js ui/sw.js ui/start-check.js ui/wasm-start.js $$(find ui/js -name '*.js' | LC_ALL=C sort) ui/lib/*.js ui/test/*.js; do node --check "$$f" || exit 1; done
	node --test ui/test/
	cd ui && node_modules/.bin/tsc --ignoreConfig --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext lib/test/uses.ts
	cd ui && node_modules/.bin/tsc -p tsconfig.json

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

## lint: staticcheck (honnef.co/go/tools, a tool of go.mod) on every
## package natively, under js/wasm and with the e2e tag. Under js/wasm the
## tool runs as built for this machine ($(GO) tool -n gives its path): go
## tool would build it for wasm. Each build is checked alone, so a name used
## only under one (a js-only helper) must live in a file of that build.
lint:
	$(GO) tool staticcheck ./...
	GOOS=js GOARCH=wasm "$$($(GO) tool -n staticcheck)" ./...
	$(GO) tool staticcheck -tags e2e ./e2e

# The -timeout of test-native and test-wasm is a hang guard, not a budget:
# go test's default of 10 minutes a package ended a run on a loaded 2-core
# machine with no failing test named (cmd/occfm takes about a minute quiet).
test-native:
	$(GO) test -count=1 -timeout 40m ./...

# Under wasm (node runs the test binary) the tests skip the slow real-data
# passes with -short. A wasm test binary runs on one thread, and core's alone
# takes longer than all the other packages': its tests run as two binaries,
# split by name (WASM_CORE_A and the rest), beside the other packages, three
# go test runs at once.
WASM_TEST   = GOOS=js GOARCH=wasm $(GO) test -count=1 -short -timeout 40m -exec="$(WASMEXEC)"
WASM_CORE_A = ^(Test[A-Q]|Example|Fuzz)
test-wasm:
	@$(WASM_TEST) -run '$(WASM_CORE_A)' ./core & a=$$!; \
	$(WASM_TEST) -skip '$(WASM_CORE_A)' ./core & b=$$!; \
	$(WASM_TEST) $$(GOOS=js GOARCH=wasm $(GO) list ./core/... ./cmd/... ./wasm/... | grep -vx 'github.com/occfm/occfm/core'); c=$$?; \
	wait $$a; a=$$?; wait $$b; b=$$?; \
	echo "test-wasm: core's tests $(WASM_CORE_A): exit $$a; core's others: exit $$b; the other packages: exit $$c"; \
	[ $$a = 0 ] && [ $$b = 0 ] && [ $$c = 0 ]

## test-e2e: the page built by `make dist`, driven in headless Chromium by
## chromedp (e2e/, build tag e2e). Installs Debian's chromium when it
## is missing (apt-get: needs root, as in CI). E2E_SHOTS=dir keeps the
## screenshots. Each test has its own browser and server, and E2E_PARALLEL
## (default 2) of them run at once: much of a page test is waiting on the
## browser. About 8 minutes on a quiet 2-core machine; the 40-minute
## -timeout only stops a run that would never end (see e2eHang).
E2E_PARALLEL ?= 2
test-e2e: dist lib-pack
	command -v chromium >/dev/null || { apt-get update && apt-get install -y chromium; }
	$(GO) vet -tags e2e ./e2e
	$(GO) test -tags e2e -count=1 -v -parallel $(E2E_PARALLEL) -timeout 40m -run E2E ./e2e

## dist: the static page in dist/ (git-ignored), servable by any static host,
## with the library (dist/lib/: occfm.js, its types, its Worker, the wasm
## and wasm_exec.js, a folder to copy whole; the wasm a hard link of the
## page's) and its example (dist/examples/recommender/, on the shop
## occfm gen -demo shop writes). The service worker keeps the page's files
## offline, not the library's or the example's. dist/occfm.html is the whole
## page in one file, to hand out: it opens from the disk (file://), where
## index.html cannot (internal/onefile writes it; the service worker leaves
## it out). The wasm and each of the page's text files (HTML, scripts, style
## sheets, the icon) get two compressed copies beside them, f.gz (gzip -9)
## and f.br (Brotli at quality 11, internal/brotli: about 15 s of a core for
## the wasm): make serve sends a browser the copy its Accept-Encoding allows,
## br first (internal/server). The wasm's are 27 % (gzip) and 20 % (br) of
## its bytes, the text's about a third.
## uPlot comes from npm (ui/package.json); only dist/ gets a copy of it.
## Last, the service worker (ui/sw.js, see its header): dist/sw.js gets FILES,
## every file of dist/ but itself (the copies above are the one list), and
## VERSION, 16 hex digits of a SHA-256 over their names and contents, so that
## a deploy that changes any file changes sw.js and replaces the old cache.
UPLOT := ui/node_modules/uplot/dist
# DIST_TEXTS lists, in a recipe, the page's text files in dist/ that get
# compressed copies (the one-file page is handed out, not served).
DIST_TEXTS = $$(find dist -maxdepth 1 -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.svg' \) ! -name occfm.html) $$(find dist/js -type f -name '*.js')
# Built without inlining (-l: a call stays a call, not a copy of the
# function at each call site): the bridge (package main of wasm/), strings
# and time. Together they make the gzipped wasm 19 KB smaller (the budget
# is 1.8 MB), and the page is as fast without their inlining: a file read
# and learned, a demo, the library's learn, a rating in Personalize and the
# page's own benchmarks measure the same. The file reader (core/data) is
# inlined: without, it reads ijcnn1.gz about 15 % slower. Other packages
# are inlined too: what -l saved them did not hold from one build to the
# next (gzip's size moves by 1-2 KB).
# Bytes and speeds of each: docs/findings.md, "Size and loading of the page".
WASM_PKGS_NOINLINE := github.com/occfm/occfm/wasm strings time
WASM_GCFLAGS := $(foreach p,$(WASM_PKGS_NOINLINE),-gcflags=$(p)=-l)
dist: ui/node_modules
	@mkdir -p dist
	@GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -ldflags="-s -w" -o dist/occfm.wasm ./wasm
	@gzip -9 -k -f dist/occfm.wasm
	@cp "$(GOROOT)/lib/wasm/wasm_exec.js" dist/
	@cp ui/index.html ui/app.js ui/start-check.js ui/wasm-start.js ui/style.css ui/lesson.css ui/favicon.svg dist/
	@rm -rf dist/js && cp -R ui/js dist/js
	@mkdir -p dist/lib
	@cp ui/lib/*.js ui/lib/occfm.d.ts ui/lib/package.json ui/lib/README.md LICENSE dist/lib/
	@ln -f dist/occfm.wasm dist/lib/occfm.wasm 2>/dev/null || cp dist/occfm.wasm dist/lib/
	@ln -f dist/occfm.wasm.gz dist/lib/occfm.wasm.gz 2>/dev/null || cp dist/occfm.wasm.gz dist/lib/
	@cp dist/wasm_exec.js dist/lib/
	@cp $(UPLOT)/uPlot.iife.min.js $(UPLOT)/uPlot.min.css dist/
	@mkdir -p dist/examples/recommender
	@cp examples/recommender/* dist/examples/recommender/
	@$(GO) run ./cmd/occfm gen -demo shop -seed 1 -out dist/examples/recommender/ratings.json -items dist/examples/recommender/items.json 2>/dev/null
	@$(GO) run ./internal/onefile -dist dist
	@cd dist && files=$$(find . -type f ! -path ./sw.js ! -path ./sw.js.tmp ! -path ./occfm.html ! -name '*.gz' ! -name '*.br' ! -name '*.tgz' ! -path './lib/*' ! -path './examples/*' | sed 's|^\./||' | LC_ALL=C sort) && \
		version=$$(sha256sum $$files | sha256sum | cut -c1-16) && \
		list=$$(printf '"%s", ' $$files | sed 's/, $$//') && \
		sed -e 's|^const VERSION = .*|const VERSION = "'"$$version"'"; // written by make dist|' \
			-e 's|^const FILES = .*|const FILES = ['"$$list"']; // written by make dist|' ../ui/sw.js > sw.js.tmp && \
		grep -q '^const VERSION = "[0-9a-f]\{16\}";' sw.js.tmp && grep -q '^const FILES = \["' sw.js.tmp && \
		mv sw.js.tmp sw.js
	@for f in $(DIST_TEXTS); do gzip -9 -k -f -n "$$f" || exit 1; done
	@$(GO) run ./internal/brotli dist/occfm.wasm $(DIST_TEXTS)
	@ln -f dist/occfm.wasm.br dist/lib/occfm.wasm.br 2>/dev/null || cp dist/occfm.wasm.br dist/lib/
	@echo "dist/: the page, built (occfm.wasm $$(wc -c < dist/occfm.wasm) bytes, $$(wc -c < dist/occfm.wasm.gz) gzipped, $$(wc -c < dist/occfm.wasm.br) as Brotli); make serve serves it on $(ADDR)"

## lib-pack: the library as an npm package, dist/occfm-<version>.tgz (npm
## pack of dist/lib/, ui/lib/package.json: exports and types), to install
## from the file: npm install path/to/occfm-0.1.0.tgz.
lib-pack: dist
	cd dist && rm -f occfm-*.tgz && npm pack ./lib --pack-destination . --silent >/dev/null && ls occfm-*.tgz

# npm ci installs exactly ui/package-lock.json (npm install when there is none).
ui/node_modules: ui/package.json $(wildcard ui/package-lock.json)
	if [ -f ui/package-lock.json ]; then npm ci --prefix ui; else npm install --prefix ui; fi
	touch $@

## serve: build dist/ and serve it on $(ADDR).
serve: dist
	$(GO) run . -addr $(ADDR) -dir dist

## paper: reproduce the paper's Tables 2 and 3 and its efficiency figures
## from ../shared/data into paper-results/ (git-ignored). The default is the
## quick mode (1 run of 1 fold, a few minutes); PAPER_FLAGS= (empty) runs the
## paper's full protocol, 20 runs x 5 folds, which takes hours; stopped, the
## same command goes on where it stopped. The build's commit is stamped into
## the tables and into every pass of the journal.
PAPER_FLAGS ?= -quick
paper:
	$(GO) run -ldflags "-X main.buildRev=$$(git describe --always --dirty 2>/dev/null)" ./cmd/occfm paper $(PAPER_FLAGS) -data ../shared/data -out paper-results

## bench: the Go benchmarks of the core (bench-results/core-bench.txt), then
## the page in headless Chromium against the same core natively
## (e2e/bench_test.go, build tag e2e): updates/s of every learner on
## ML-100K and IJCNN1 (and of OCCFM at δ = 100 and 1000), peak memory of OCCFM on ML-1M, click latency at full
## speed and in the lesson's race beside two busy loops, the page's cold load (bench-load below), Save/Load model after
## ML-100K (TestBenchModel), Personalize's ratings on ML-100K
## (TestBenchPersonal), and the host page's main thread while the library
## learns ML-100K in its Worker (TestBenchLibWorker). Writes
## bench-results/bench.json, bench.md, load.json, model.md, personal.md and
## lib.md (git-ignored), and fails when the peak memory on ML-1M passes
## 256 MB, a click waits over 100 ms, a model save or load takes over 250 ms
## (median of 7), a rating 100 ms to update the page, or the library's
## Worker leaves the host page a task over 50 ms:
## the promises a user sees, which make test only holds to "never freezes"
## (1 s), since a busy machine stretches them. Each browser run learns for
## at most BENCH_SECONDS. About 7 minutes on a 2-core machine; not part of
## make test.
BENCH_SECONDS ?= 20
bench: dist
	mkdir -p bench-results
	$(GO) test -run '^$$' -bench . -benchmem ./core/... > bench-results/core-bench.txt 2>&1; \
		status=$$?; cat bench-results/core-bench.txt; exit $$status
	command -v chromium >/dev/null || { apt-get update && apt-get install -y chromium; }
	OCCFM_BENCH=bench-results OCCFM_BENCH_SECONDS=$(BENCH_SECONDS) OCCFM_BENCH_LOAD_RUNS=$(LOAD_RUNS) \
		$(GO) test -tags e2e -count=1 -v -timeout 90m -run '^TestBench(Load|Picture|Model|Personal|PersonalCatalog|LibWorker)?$$' ./e2e

## bench-load: the page's cold load alone (e2e/bench_load_test.go): from the start
## of the navigation to the first row learned, in a fresh browser profile with
## the cache disabled, under Chromium's emulation of 10 Mbit/s down, 5 up and
## 40 ms of latency; as references, unthrottled, throttled with the wasm
## not gzipped (a host that does not compress), and a second visit (service
## worker in control; the server waits 40 ms before each answer). The median
## of LOAD_RUNS rounds, in bench-results/load.json. About a minute and a half;
## no threshold on the times, but a throttled round fails when the wasm
## arrives faster than 10 Mbit/s allows (the throttle did not apply).
LOAD_RUNS ?= 3
bench-load: dist
	command -v chromium >/dev/null || { apt-get update && apt-get install -y chromium; }
	mkdir -p bench-results
	OCCFM_BENCH=bench-results OCCFM_BENCH_LOAD_RUNS=$(LOAD_RUNS) \
		$(GO) test -tags e2e -count=1 -v -timeout 30m -run '^TestBenchLoad$$' ./e2e

## stress: bounded memory on big generated files (temporary, removed after):
## occfm run streams a $(STRESS_CLI) LibSVM file (occfm gen) and must peak
## under 300 MB of RSS (cmd/occfm TestStreamBigFile); the page learns a
## $(STRESS_PAGE) file to done in headless Chromium and must stay under
## 96 MB of wasm memory plus JS heap (TestE2EBigFile); then the hostile
## stress inputs (huge indices, dense rows, 2 million IDs, model files
## that are not) through every learner under prlimit --as=4 GiB, each within
## its -max-memory (512 MiB) of RSS (TestStressHostile); the budget's own
## cases (stdin read whole for -shuffle, a model of 420 MB of IDs saved and
## loaded, 10 million new features, rows of 100,000 nonzeros) within it too
## (TestStressBudget); and the same hostile inputs through the page, under
## 1 GB of wasm memory (TestE2EHostile); and 600 idle keep-alive clients or
## slow readers holding all 512 of the server's connection slots while a
## new request must be answered within 1 s (internal/server TestCrowd).
## Not part of make test.
STRESS_CLI  ?= 1G
STRESS_PAGE ?= 200M
stress: dist
	OCCFM_STRESS=$(STRESS_CLI) $(GO) test -count=1 -v -timeout 30m -run '^TestStreamBigFile$$' ./cmd/occfm
	OCCFM_STRESS_HOSTILE=1 $(GO) test -count=1 -v -timeout 60m -run '^Test(StressHostile(ModelFile)?|StressBudget)$$' ./cmd/occfm
	OCCFM_STRESS_HOSTILE=1 $(GO) test -tags e2e -count=1 -v -timeout 60m -run '^TestE2EHostile$$' ./e2e
	command -v chromium >/dev/null || { apt-get update && apt-get install -y chromium; }
	OCCFM_STRESS_PAGE=$(STRESS_PAGE) $(GO) test -tags e2e -count=1 -v -timeout 30m -run '^TestE2EBigFile$$' ./e2e
	OCCFM_STRESS_SERVER=1 $(GO) test -count=1 -v -timeout 5m -run '^TestCrowd$$' ./internal/server

## fuzz: run every fuzz target of core's packages (readers, model files,
## catalogs) for $(FUZZTIME) inputs each (seeds: each package's testdata and
## testdata/bad); FUZZTIME=60s also
## works. test-fuzz is the same, briefly, for make test.
fuzz:
	for p in $$($(GO) list ./core/...); do \
		for t in $$($(GO) test -list 'Fuzz.*' $$p | grep ^Fuzz); do \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$p || exit 1; \
		done; \
	done

test-fuzz:
	$(MAKE) fuzz FUZZTIME=$(FUZZTIME_SHORT)

clean:
	rm -rf dist
