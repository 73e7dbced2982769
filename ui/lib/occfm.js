// occfm.js: OCCFM's learners for any page, as an ES module (no bundler).
// It loads the wasm once per thread that runs objects (occfm.wasm and
// wasm_exec.js, in its own folder: dist/lib/ or the npm package). On a
// page its objects live in a module Worker of its own (occfm-worker.js,
// shared by every object of the page) unless made with {worker: false};
// imported in a Worker, they live on that Worker's thread. Every method
// returns a promise; the calls of one object run in the order made, but
// for predictions, which go between the parts of a learn under way. A learn
// is all or nothing, and a bad input rejects with an Error that says what
// and where, leaving the object usable. See docs/js-api.md and
// docs/embed.md.
import "./wasm_exec.js";
import {
	kind, text, packRows, isFile, bytesOf, metricsOf, packItems, count, idOf, packRatings,
	absolute, optionsOf, finite, whole, flag, CREATE, LOAD, REC_CREATE, LEARN, REC_LEARN, FILE, fileName,
	modelBytes,
} from "./occfm-input.js";

// The library runs in a browser, in a page or a Worker: Go's wasm answers
// through the page's events, and the Worker is a Web Worker.
const inBrowser = typeof document !== "undefined" ||
	(typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope);
if (!inBrowser) {
	throw new Error("occfm: this library runs in a browser (a page or a Web Worker); here there is none (Node.js?). " +
		"The command line does the same work natively: go run ./cmd/occfm in the OCCFM repository.");
}

// booted is this thread's boot (see boot), from bootedFrom, whose API's
// lib is bootedLib.
let booted, bootedFrom, bootedLib;

// goOf keeps the Go program behind each API a boot made, so that a call can
// tell when it stopped (see alive).
const goOf = new WeakMap();

// GONE says that the Go program of this thread stopped, which ends its
// objects; the next object loads the wasm again.
const GONE = "occfm: the learners' Go program stopped (out of memory, or a crash: the browser's console has its last words), and its learners and recommenders with it; make new ones";

// alive calls fn, a call into the Go program behind lib, and throws GONE
// (an Error with gone set) if that program has stopped, before or during
// the call.
function alive(lib, fn) {
	const go = goOf.get(lib);
	const gone = () => {
		if (booted && bootedLib === lib) booted = undefined;
		const e = new Error(GONE);
		e.gone = true;
		return e;
	};
	if (go && go.exited) throw gone();
	let r;
	try {
		r = fn();
	} catch (e) {
		throw go && go.exited ? gone() : e;
	}
	if (go && go.exited) throw gone();
	return r;
}

// boot loads the wasm once per thread, from wasmURL (default: occfm.wasm
// beside this module), and resolves with the core's API. The wasm sets
// globalThis.occfm as it starts; boot takes it and puts back what was
// there (nothing, but on a page of OCCFM's own), so that
// what stays on globalThis is only what Go's loader (wasm_exec.js) sets:
// Go, and fs, process and path where the thread had none.
function boot(wasmURL) {
	const url = String(wasmURL || new URL("./occfm.wasm", import.meta.url));
	if (booted) {
		if (wasmURL && url !== bootedFrom) {
			return Promise.reject(new Error("occfm: wasmURL " + url + ": this thread loaded the wasm from " + bootedFrom + " already; give every object the same wasmURL"));
		}
		return booted;
	}
	bootedFrom = url;
	booted = new Promise((resolve, reject) => {
		const go = new globalThis.Go();
		const had = Object.hasOwn(globalThis, "occfm"), before = globalThis.occfm; // a page of OCCFM's own
		globalThis.addEventListener("occfm-ready", () => {
			const api = globalThis.occfm;
			if (had) globalThis.occfm = before;
			else delete globalThis.occfm;
			goOf.set(api.lib, go);
			bootedLib = api.lib;
			resolve(api);
		}, {once: true});
		WebAssembly.instantiateStreaming(fetch(url), go.importObject)
			.then((r) => go.run(r.instance))
			.catch((e) => {
				booted = undefined; // the next object tries again
				reject(new Error("occfm: cannot load the wasm from " + url + ": " + e.message));
			});
	});
	return booted;
}

// answer returns r, or throws the Error its error field says.
function answer(r) {
	if (r && typeof r === "object" && !Array.isArray(r) && !(r instanceof Uint8Array) && typeof r.error === "string") {
		throw new Error(r.error);
	}
	return r;
}

// pause lets the thread's other tasks run (a click, a paint) between two
// parts of a long learn.
function pause() {
	return new Promise((resolve) => {
		const c = new MessageChannel();
		c.port1.onmessage = () => resolve();
		c.port2.postMessage(0);
	});
}

// PART_MS is the time one part of a long learn may take on this thread:
// the parts are sized to it from the speed of the one before, from the
// first row on (a first part of FIRST_PART rows), so that a page that
// learns on its main thread still answers clicks.
const PART_MS = 25;
const FIRST_PART = 16;

// nextSize returns the size of the next part after one of size rows took
// ms: aimed at PART_MS, at most 4 times the last.
const nextSize = (size, ms) => Math.max(1, Math.min(4 * size, 1 << 16, Math.round(size * PART_MS / Math.max(ms, 0.5))));

// stopIfAborted throws the Error of a learn its AbortSignal stopped, naming the
// rows learned: the first learned rows of the list's of.
function stopIfAborted(signal, learned, of) {
	if (!signal || !signal.aborted) return;
	const reason = signal.reason instanceof Error ? ": " + signal.reason.message : "";
	throw new Error("learn stopped by its AbortSignal" + reason + ": " + (learned === 0 ? "no row of " + of + " learned" :
		learned + " of " + of + " rows learned (rows 0 to " + (learned - 1) + "), the later ones not"));
}

// inParts learns list in parts, all or nothing: first it prepares every
// part (prepare(part, first, isFirst) packs and checks it, and throws
// naming the first bad row, before any row is learned), then it learns
// them (learn(prepared, first) returns the metrics), each part sized to
// about PART_MS (see nextSize), pausing between parts so that the
// thread's other tasks run: a click, a paint, a predict. options.onProgress
// gets {rows, of, metrics} after each part learned; options.signal, an
// AbortSignal, stops the learn before its next part. It resolves with the
// last metrics.
async function inParts(list, prepare, learn, options) {
	const onProgress = options && options.onProgress, signal = options && options.signal;
	const parts = [];
	let size = FIRST_PART;
	for (let first = 0; first < list.length || first === 0; ) {
		stopIfAborted(signal, 0, list.length);
		const t0 = performance.now();
		const part = list.length <= size && first === 0 ? list : list.slice(first, first + size);
		parts.push([prepare(part, first, first === 0), first, part.length]);
		first += part.length;
		if (first >= list.length) break;
		size = nextSize(size, performance.now() - t0);
		await pause();
	}
	// The parts as prepared are learned in parts of about PART_MS too:
	// preparing is faster than learning, so each is cut again.
	let metrics = null, learned = 0;
	size = FIRST_PART;
	for (const [prepared, first, n] of parts) {
		for (let at = 0; at < n; ) {
			if (learned > 0) {
				await pause();
				stopIfAborted(signal, learned, list.length);
			}
			const t0 = performance.now();
			const k = Math.min(size, n - at);
			metrics = learn(prepared, first, at, k);
			at += k;
			learned += k;
			if (onProgress) onProgress({rows: learned, of: list.length, metrics});
			size = nextSize(k, performance.now() - t0);
		}
	}
	return metrics;
}

// The Worker that runs the learners made with {worker: true}, made at the
// first one, and the calls waiting for its answer. A Worker whose Go
// program stopped (out of memory) is let go: its calls reject, its
// objects are gone, and the next object starts a new Worker.
let pool;

// worker returns the Worker, starting it at the first call from workerURL
// (default: occfm-worker.js beside this module). A browser starts a Worker
// from its page's origin only: one elsewhere (this module on a CDN) is
// started from a module of the page's origin that imports it.
function worker(workerURL) {
	if (pool) {
		if (workerURL && workerURL !== pool.from) {
			throw new Error("occfm: workerURL " + workerURL + ": this page's Worker started from " + pool.from + " already; give every object the same workerURL");
		}
		return pool;
	}
	const url = workerURL || new URL("./occfm-worker.js", import.meta.url).href;
	const same = new URL(url).origin === globalThis.location.origin;
	const w = new Worker(same ? url : URL.createObjectURL(new Blob(["import " + JSON.stringify(url) + ";\n"], {type: "text/javascript"})), {type: "module"});
	const p = {w, from: url, next: 0, calls: new Map(), dead: ""};
	const end = (why) => {
		p.dead = why;
		if (pool === p) pool = undefined;
		w.terminate();
		for (const c of p.calls.values()) c.reject(new Error(why));
		p.calls.clear();
	};
	w.onmessage = (e) => {
		const m = e.data;
		const c = p.calls.get(m.call);
		if (m.dead) {
			end(m.error);
			return;
		}
		if (!c) return;
		if ("progress" in m) {
			if (c.onProgress) c.onProgress(m.progress);
			return;
		}
		p.calls.delete(m.call);
		if ("error" in m) c.reject(new Error(m.error));
		else c.resolve(m.value);
	};
	w.onerror = (e) => {
		e.preventDefault();
		end("occfm: the Worker failed: " + (e.message || "cannot load " + url));
	};
	pool = p;
	return p;
}

// remote asks the Worker p (default: the page's) to call op on the object
// handle (0: a static call) with args; onProgress, if any, gets its
// progress reports.
function remote(handle, op, args, onProgress, p = worker()) {
	if (p.dead) return Promise.reject(new Error(p.dead));
	const call = ++p.next;
	return new Promise((resolve, reject) => {
		p.calls.set(call, {resolve, reject, onProgress});
		try {
			p.w.postMessage({call, handle, op, args, progress: Boolean(onProgress)});
		} catch (e) {
			p.calls.delete(call);
			reject(new Error("occfm: " + op + ": a value the Worker cannot take (" + e.message + ")"));
		}
	});
}

// WORKER_PART is the most rows a learn sends the Worker in one message, so
// that copying them never holds up the page.
const WORKER_PART = 4096;

// remoteLearn sends list to the Worker p for the object handle, in parts,
// each checked here first (check(part, first) throws naming a bad row,
// before anything is sent); the Worker keeps them, then learns them all
// or none (see inParts). options.signal stops it as inParts says;
// progress counts over the whole list.
async function remoteLearn(p, handle, list, options, check) {
	const onProgress = options && options.onProgress, signal = options && options.signal;
	for (let first = 0; first < list.length || first === 0; first += WORKER_PART) {
		stopIfAborted(signal, 0, list.length);
		const part = list.slice(first, first + WORKER_PART);
		check(part, first);
		await remote(handle, "stage", [part, first === 0], undefined, p);
		if (first + WORKER_PART >= list.length) break;
		await pause();
	}
	const stop = () => remote(handle, "abort", [signal.reason instanceof Error ? signal.reason.message : ""], undefined, p).catch(() => {});
	if (signal) signal.addEventListener("abort", stop, {once: true});
	try {
		stopIfAborted(signal, 0, list.length);
		return await remote(handle, "learnStaged", [], onProgress, p);
	} finally {
		if (signal) signal.removeEventListener("abort", stop);
	}
}

// Base is what Learner and Recommender share: the object's id in the wasm
// of this thread, or its handle in the Worker, and the queue that keeps its
// calls in order. A read (predict) does not wait for a learn under way: it
// is answered between the learn's parts, from the rows learned so far.
class Base {
	#lib = null;
	#id = 0;
	#handle = 0;
	#pool = null;
	#closed = false;
	#queue = Promise.resolve();
	#readGate = null; // while learns are made and not settled: the queue before the first
	#learns = 0;

	constructor(lib, id, handle, p) {
		this.#lib = lib;
		this.#id = id;
		this.#handle = handle;
		this.#pool = p;
	}

	// call makes a call now: local(lib, id) on this thread, or op(args) in
	// the Worker.
	#call(local, op, args, onProgress) {
		if (this.#handle) {
			if (this.#pool.dead) throw new Error(this.#pool.dead + " (this " + this.constructor.name + " was in it)");
			return remote(this.#handle, op, args, onProgress, this.#pool);
		}
		return alive(this.#lib, () => local(this.#lib, this.#id));
	}

	#open() {
		if (this.#closed) throw new Error("occfm: this " + this.constructor.name + " is closed");
	}

	// run queues a call after the calls made before it. (Run, read and
	// learnAll are async so that a throw rejects; their bodies run when
	// called, up to the queue, so the order of the calls is kept.)
	async run(local, op, args, onProgress) {
		this.#open();
		const next = this.#queue.then(() => this.#call(local, op, args, onProgress));
		this.#queue = next.catch(() => {});
		return next;
	}

	// read makes a call that changes nothing: after the calls made before
	// it, but for the learns made and not yet settled, whose parts it goes
	// between.
	async read(local, op, args) {
		this.#open();
		return (this.#readGate || this.#queue).then(() => this.#call(local, op, args));
	}

	// learnAll queues a learn: of a data file, by file(lib, id, bytes)
	// (which may resolve later, and reports its own progress), or of a list
	// in parts, all or nothing (see inParts, remoteLearn):
	// prepare(lib, id, part, first, isFirst) packs and checks a part,
	// learn(lib, id, prepared, first, at, n) learns n of its rows from at,
	// check(part, first) checks a part before it goes to the Worker.
	async learnAll(list, options, file, prepare, learn, check) {
		this.#open();
		const before = this.#queue;
		if (this.#learns++ === 0) this.#readGate = before;
		const next = before.then(async () => {
			try {
				if (file && isFile(list)) {
					const bytes = await bytesOf(list);
					if (this.#handle) return await this.#call(null, "learn", [bytes, options && options.name], options && options.onProgress);
					return await this.#call((lib, id) => file(lib, id, bytes));
				}
				if (!Array.isArray(list)) throw new Error("learn: want an array of rows, or a data file (a Uint8Array, an ArrayBuffer, a Blob or a ReadableStream); got " + kind(list));
				if (this.#handle) {
					if (this.#pool.dead) throw new Error(this.#pool.dead);
					return await remoteLearn(this.#pool, this.#handle, list, options, check);
				}
				const lib = this.#lib, id = this.#id;
				return await inParts(list, (part, first, isFirst) => alive(lib, () => prepare(lib, id, part, first, isFirst)),
					(prepared, first, at, n) => alive(lib, () => learn(lib, id, prepared, first, at, n)), options);
			} finally {
				if (--this.#learns === 0) this.#readGate = null;
			}
		});
		this.#queue = next.catch(() => {});
		return next;
	}

	// runFile queues a call on a data file: once the calls made before
	// it settle, it reads the file's bytes and calls local(lib, id, bytes)
	// on this thread, or op(bytes, ...rest) in the Worker.
	async runFile(file, local, op, rest) {
		this.#open();
		const next = this.#queue.then(async () => {
			const bytes = await bytesOf(file);
			return this.#call((lib, id) => local(lib, id, bytes), op, [bytes, ...rest]);
		});
		this.#queue = next.catch(() => {});
		return next;
	}

	/** Forgets the object once the calls made before settle; every later call rejects. */
	close() {
		if (this.#closed) return;
		this.#closed = true;
		this.#queue.then(() => {
			if (this.#handle) remote(this.#handle, "close", [], undefined, this.#pool).catch(() => {});
			else if (this.#id && !(goOf.get(this.#lib) || {}).exited) this.#lib.close(this.#id);
		});
	}
}

// IN_PAGE is true on a page's main thread, where objects live in the
// module's Worker unless made with {worker: false}: loading the wasm and
// starting Go take a few hundred milliseconds of one task, which a page
// must not spend on its main thread. In a Worker (this module imported by
// one of your own, or by occfm-worker.js) they live on that thread.
const IN_PAGE = typeof document !== "undefined" && typeof Worker !== "undefined";

// inWorker reports whether the settings s (checked by optionsOf) put an
// object in the module's Worker: their worker, or IN_PAGE when absent.
const inWorker = (s) => (s.worker === undefined ? IN_PAGE : s.worker);

// make creates an object: on this thread by create(lib), or in the Worker
// by the static op with settings (without their worker field).
async function make(Kind, settings, create, op) {
	const wasmURL = absolute(settings.wasmURL, "wasmURL");
	const workerURL = absolute(settings.workerURL, "workerURL");
	if (inWorker(settings)) {
		const rest = {...settings, wasmURL};
		delete rest.worker;
		delete rest.workerURL;
		const p = worker(workerURL);
		const info = await remote(0, op, [rest], undefined, p);
		return new Kind(null, 0, info.handle, info, p);
	}
	const api = await boot(wasmURL);
	const info = answer(alive(api.lib, () => create(api.lib)));
	return new Kind(api.lib, info[0], 0, {learner: info[1], task: info[2]}, null);
}

/**
 * The registry: each learner's name, what it does in plain words and in a technical line, its tasks,
 * the settings it takes with their defaults, and its abilities.
 */
export async function learners(settings = {}) {
	const s = optionsOf(settings, ["wasmURL", "workerURL", "worker"], "learners");
	flag(s, "worker");
	const wasmURL = absolute(s.wasmURL, "wasmURL");
	if (inWorker(s)) {
		return remote(0, "learners", [{wasmURL}], undefined, worker(absolute(s.workerURL, "workerURL")));
	}
	const api = await boot(wasmURL);
	// The learners create makes when none is named, as the core says
	// (lib.defaults): written in Go only.
	const [learner, recommender] = alive(api.lib, () => api.lib.defaults());
	return api.learners().map((l) => ({
		name: l.name, plain: l.plain, summary: l.summary, tasks: l.tasks,
		defaultFor: {learner: l.name === learner, recommender: l.name === recommender},
		settings: {
			delta: l.takesDelta ? {default: l.delta || 0, rule: l.deltaText || ""} : null,
			eta: l.takesEta ? {regression: l.eta || 0, classification: l.etaClassification || l.eta || 0} : null,
		},
		abilities: {pairs: l.pairs, ball: l.ball, regret: (l.regretExponent || 0) > 0, mixture: Boolean(l.mixture)},
	}));
}

/** A learner of its own: any number may live in one page or Worker. */
export class Learner extends Base {
	constructor(lib, id, handle, info, p) {
		super(lib, id, handle, p);
		/** The registry name of the learner. */
		this.learner = info.learner;
		/** "regression" or "classification". */
		this.task = info.task;
	}

	/** Makes a learner: {learner, task, delta, eta, seed, maxMemory, worker, wasmURL, workerURL}, all optional. */
	static async create(settings = {}) {
		const s = optionsOf(settings, CREATE, "Learner.create");
		flag(s, "worker");
		return make(Learner, s, (lib) => {
			// An absent learner is "": the core makes its default (learners' defaultFor).
			const str = (k, d) => (s[k] === undefined ? d : text(s[k], k));
			return lib.create(str("learner", ""), str("task", "regression"), finite(s, "delta"), finite(s, "eta"), whole(s, "seed"), whole(s, "maxMemory"));
		}, "createLearner");
	}

	/** Makes a learner from a model file that save (or the CLI, on a CSV file) wrote. */
	static async load(bytes, settings = {}) {
		const s = optionsOf(settings, LOAD, "Learner.load");
		flag(s, "worker");
		const b = modelBytes(bytes);
		return make(Learner, {...s, bytes: b}, (lib) => lib.load(b), "loadLearner");
	}

	/**
	 * Learns rows [{x: {name: value}, y}] in order, or a data file (CSV, LibSVM or MovieLens, as the
	 * CLI reads it: a Uint8Array, a Blob or a ReadableStream); resolves with the progressive metrics.
	 */
	async learn(rows, options) {
		fileName(optionsOf(options, LEARN, "learn"));
		const name = (options && options.name) || "data";
		return this.learnAll(rows, options,
			(lib, id, bytes) => {
				const m = metricsOf(this.task, answer(lib.learnFile(id, bytes, name)));
				if (options && options.onProgress) options.onProgress({rows: m.rows, of: m.rows, metrics: m});
				return m;
			},
			(lib, id, part, first, isFirst) => {
				answer(lib.check(id, ...packRows(part, first, true), first, isFirst));
				return part;
			},
			(lib, id, part, first, at, n) => metricsOf(this.task, answer(lib.learn(id, ...packRows(part.slice(at, at + n), first + at, true), first + at))),
			(part, first) => packRows(part, first, true));
	}

	/** ŷ for {x} without learning it: a rating, or the probability of the positive class. */
	predict(row) {
		return this.read((lib, id) => {
			if (!row || typeof row !== "object" || !("x" in row)) throw new Error("predict: want a row {x: {name: value}}");
			return answer(lib.predictMany(id, ...packRows([row], 0, false)))[0];
		}, "predict", [row]);
	}

	/** ŷ for each of [{x}], or for each row of a data file (its labels left out). */
	async predictMany(rows, options) {
		fileName(optionsOf(options, FILE, "predictMany"));
		const name = (options && options.name) || "data";
		if (isFile(rows)) {
			return bytesOf(rows).then((bytes) => this.read((lib, id) => Array.from(answer(lib.predictFile(id, bytes, name))),
				"predictMany", [bytes, options]));
		}
		return this.read((lib, id) => Array.from(answer(lib.predictMany(id, ...packRows(rows, 0, false)))), "predictMany", [rows]);
	}

	/** The model file: the learner, its guard and its feature names. */
	save() {
		return this.run((lib, id) => answer(lib.save(id)), "save", []);
	}
}

// CATALOG_CHUNK is the most bytes of a ratings file a Recommender hands
// the wasm in one call.
const CATALOG_CHUNK = 1 << 20;

// learnCatalog learns the catalog a Recommender has started to learn in
// the wasm (lib.recLearnFile or lib.recLearnSynthetic): the ratings file's
// bytes (null for the synthetic catalog) fed as its reader asks, learned in
// parts of about PART_MS, pausing between them so that the thread's other
// tasks run. options.onProgress gets {rows, of, metrics} after each part
// (of: the rows the whole catalog holds at the pace so far, exact at its
// end); options.signal stops it, nothing of it learned. All or nothing: a
// malformed row rejects, naming the file, the line and the field. It
// resolves with the metrics.
async function learnCatalog(lib, id, bytes, options) {
	const onProgress = options && options.onProgress, signal = options && options.signal;
	let at = 0, ended = !bytes;
	try {
		for (;;) {
			if (signal && signal.aborted) {
				const reason = signal.reason instanceof Error ? ": " + signal.reason.message : "";
				throw new Error("learn stopped by its AbortSignal" + reason + ": no rating of the catalog learned");
			}
			alive(lib, () => {
				while (!ended && lib.recWanted(id) > 0) {
					if (at < bytes.length) {
						const n = Math.min(CATALOG_CHUNK, bytes.length - at);
						answer(lib.recFeed(id, bytes.subarray(at, at + n)));
						at += n;
					} else {
						answer(lib.recEnd(id));
						ended = true;
					}
				}
			});
			const p = alive(lib, () => answer(lib.recRun(id, PART_MS)));
			const metrics = {rows: p.rows, rmse: p.rmse || 0, scale: {lo: p.scale.lo, hi: p.scale.hi, step: p.scale.step}};
			const done = p.state === "done";
			if (onProgress) onProgress({rows: p.rows, of: done || !(p.progress > 0) ? p.rows : Math.round(p.rows / p.progress), metrics});
			if (done) return metrics;
			await pause();
		}
	} catch (e) {
		if (!e.gone) lib.recStop(id);
		throw e;
	}
}

/** A recommender over a catalog of your own: people's ratings learned, a visitor's top n. */
export class Recommender extends Base {
	constructor(lib, id, handle, info, p) {
		super(lib, id, handle, p);
		/** The registry name of the learner. */
		this.learner = info.learner;
	}

	/** Makes a recommender: {learner, seed, worker}, all optional; the learner defaults to Personalize's. */
	static async create(settings = {}) {
		const s = optionsOf(settings, REC_CREATE, "Recommender.create");
		flag(s, "worker");
		return make(Recommender, s, (lib) => {
			if (s.learner !== undefined) text(s.learner, "learner");
			return lib.recCreate(s.learner || "", whole(s, "seed"));
		}, "createRecommender");
	}

	/**
	 * Adds the items [{id, title, tags}], or those of a MovieLens item list file (u.item, movies.dat or
	 * movies.csv; gzip or not), their genres as tags; resolves with the number of items.
	 */
	items(items, options) {
		fileName(optionsOf(options, FILE, "items"));
		if (isFile(items)) {
			const name = (options && options.name) || "items";
			return this.runFile(items, (lib, id, bytes) => answer(lib.recItemFile(id, bytes, name)), "items", [options]);
		}
		return this.run((lib, id) => answer(lib.recItems(id, ...packItems(items))), "items", [items]);
	}

	/**
	 * Learns people's ratings [{user, item, rating}] in order, or a MovieLens ratings file (u.data,
	 * ratings.dat or ratings.csv; gzip or not) to its end; resolves with {rows, rmse, scale}.
	 */
	async learn(ratings, options) {
		fileName(optionsOf(options, LEARN, "learn"));
		const name = (options && options.name) || "ratings";
		return this.learnAll(ratings, options,
			(lib, id, bytes) => {
				answer(lib.recLearnFile(id, name, bytes.length));
				return learnCatalog(lib, id, bytes, options);
			},
			(lib, id, part, first) => {
				packRatings(part, first);
				return part;
			},
			(lib, id, part, first, at, n) => {
				const m = answer(lib.recLearn(id, ...packRatings(part.slice(at, at + n), first + at), first + at));
				return {rows: m[0], rmse: m[1], scale: {lo: m[2], hi: m[3], step: m[4]}};
			},
			(part, first) => packRatings(part, first));
	}

	/** Learns the synthetic catalog Personalize starts with (films with genres, rated by made-up people); resolves with {rows, rmse, scale}. */
	learnSynthetic(options) {
		fileName(optionsOf(options, REC_LEARN, "learnSynthetic"));
		return this.run((lib, id) => {
			answer(lib.recLearnSynthetic(id));
			return learnCatalog(lib, id, null, options);
		}, "learnSynthetic", [], options && options.onProgress);
	}

	/** The catalog: its items with their ratings' count and mean, the ratings' scale, what the top lists are ranked by. */
	catalog() {
		return this.run((lib, id) => answer(lib.recCatalog(id)), "catalog", []);
	}

	/** The visitor gives item stars, a rating of the scale learn reported; resolves with the new top n (default 10). */
	rate(item, stars, n = 10) {
		return this.run((lib, id) => {
			if (typeof stars !== "number") throw new Error("stars is " + kind(stars) + ": want a number on the ratings' scale");
			return answer(lib.recRate(id, idOf(item, "item"), stars, count(n))).top;
		}, "rate", [item, stars, n]);
	}

	/** The visitor's top n (default 10), best first (by rank), each {id, title, score, rank, reasons}: score the predicted stars, rank what the list is ranked by. */
	top(n = 10) {
		return this.run((lib, id) => answer(lib.recTop(id, count(n))), "top", [n]);
	}

	/** The visitor's ratings [{id, stars, before}], in the order first given: before, what the model expected of the visitor. */
	rated() {
		return this.run((lib, id) => answer(lib.recRated(id)), "rated", []);
	}

	/** The visitor's ratings as CSV: "item_id,title,stars" and a line per rating. */
	ratingsCSV() {
		return this.run((lib, id) => answer(lib.recCSV(id)), "ratingsCSV", []);
	}

	/** Forgets the visitor's ratings. */
	clear() {
		return this.run((lib, id) => {
			answer(lib.recClear(id));
		}, "clear", []);
	}
}
