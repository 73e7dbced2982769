// occfm.js: OCCFM's learners for any page, as an ES module (no bundler).
// It loads the wasm once per thread (occfm.wasm and wasm_exec.js, in its
// own folder: dist/lib/ or the npm package) and works on the main thread and in a module Worker; with
// {worker: true} a learner runs in a Worker of its own module
// (occfm-worker.js), shared by every such learner of the page. Every
// method returns a promise and the calls of one object run in the order
// made; a bad input rejects with an Error that says what and where, and
// the object stays usable. See docs/js-api.md and docs/embed.md.
import "./wasm_exec.js";

let booted;

// boot loads the wasm once per thread and resolves with globalThis.occfm.
function boot() {
	if (!booted) {
		booted = new Promise((resolve, reject) => {
			if (globalThis.occfm && globalThis.occfm.lib) {
				resolve(globalThis.occfm);
				return;
			}
			const go = new globalThis.Go();
			globalThis.addEventListener("occfm-ready", () => resolve(globalThis.occfm), {once: true});
			WebAssembly.instantiateStreaming(fetch(new URL("./occfm.wasm", import.meta.url)), go.importObject)
				.then((r) => go.run(r.instance))
				.catch((e) => reject(new Error("occfm: cannot load occfm.wasm: " + e.message)));
		});
	}
	return booted;
}

// answer returns r, or throws the Error its error field says.
function answer(r) {
	if (r && typeof r === "object" && !Array.isArray(r) && !(r instanceof Uint8Array) && typeof r.error === "string") {
		throw new Error(r.error);
	}
	return r;
}

// kind names a value's kind for an error: "string", "null", "undefined"…
const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

// text checks that s is a string without NUL (the separator of a packed
// list) and returns it.
function text(s, where) {
	if (typeof s !== "string") throw new Error(where + " is " + kind(s) + ": want a string");
	if (s.includes("\0")) throw new Error(where + " holds a NUL character");
	return s;
}

// packRows checks rows [{x, y}] (labels: with y) and packs them as the
// wasm takes them (wasm/lib_js.go rowsOf): the names and the string values
// each as one string, NUL between values, the numbers, the kinds (1: a
// string), the features of each row and the labels. Rows are numbered from
// first in errors.
function packRows(rows, first, labels) {
	if (!Array.isArray(rows)) throw new Error("rows must be an array of {x: {name: value}" + (labels ? ", y}" : "}"));
	const names = [], strs = [], nums = [], kinds = [];
	const counts = new Uint32Array(rows.length), ys = new Float64Array(labels ? rows.length : 0);
	for (let r = 0; r < rows.length; r++) {
		const where = "row " + (first + r), row = rows[r];
		if (!row || typeof row !== "object") throw new Error(where + ": want an object {x" + (labels ? ", y}" : "}"));
		const x = row.x;
		if (!x || typeof x !== "object" || Array.isArray(x)) throw new Error(where + ": x must be an object of named values, {name: value}");
		let n = 0;
		for (const name of Object.keys(x)) {
			const v = x[name], at = where + ': feature "' + name + '"';
			text(name, at);
			if (typeof v === "number" || v === true) {
				names.push(name); strs.push(""); nums.push(+v); kinds.push(0); n++;
			} else if (typeof v === "string") {
				names.push(name); strs.push(text(v, at)); nums.push(0); kinds.push(1); n++;
			} else if (v !== false) {
				throw new Error(at + " is " + kind(v) + ": want a number, a string or a boolean");
			}
		}
		counts[r] = n;
		if (labels) {
			const y = row.y;
			if (typeof y !== "number" && typeof y !== "boolean") throw new Error(where + ": y is " + kind(y) + ": want a number");
			ys[r] = +y;
		}
	}
	return [names.join("\0"), strs.join("\0"), new Float64Array(nums), new Uint8Array(kinds), counts, ys];
}

// FILE_MAX is the largest data file a learner reads (wasm/lib_file.go
// libFileMax): it is read whole.
const FILE_MAX = 256 << 20;

// isFile reports whether input is a data file rather than rows: bytes, a
// Blob (a File) or a ReadableStream of bytes (fetch's response.body).
const isFile = (input) => input instanceof Uint8Array || input instanceof ArrayBuffer ||
	(typeof Blob !== "undefined" && input instanceof Blob) || (typeof ReadableStream !== "undefined" && input instanceof ReadableStream);

// bytesOf reads a data file whole into one Uint8Array, refusing one over
// FILE_MAX before reading on.
async function bytesOf(input) {
	if (input instanceof Uint8Array) return input;
	if (input instanceof ArrayBuffer) return new Uint8Array(input);
	if (input instanceof Blob) {
		if (input.size > FILE_MAX) throw new Error("a data file of " + input.size + " bytes: at most " + FILE_MAX + " (learn a larger one in parts)");
		return new Uint8Array(await input.arrayBuffer());
	}
	const parts = [];
	let size = 0;
	for (const reader = input.getReader(); ; ) {
		const {done, value} = await reader.read();
		if (done) break;
		size += value.length;
		if (size > FILE_MAX) {
			reader.cancel();
			throw new Error("a data file over " + FILE_MAX + " bytes (learn a larger one in parts)");
		}
		parts.push(value);
	}
	const out = new Uint8Array(size);
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

// metricsOf names the numbers lib.learn returns.
function metricsOf(task, m) {
	return task === "classification" ? {rows: m[0], errorRate: m[1], logLoss: m[2], auc: m[3]} : {rows: m[0], rmse: m[1], mae: m[2]};
}

// packItems checks items [{id, title, tags}] and packs them for recItems.
function packItems(items) {
	if (!Array.isArray(items)) throw new Error("items must be an array of {id, title, tags}");
	const ids = [], titles = [], tags = [];
	items.forEach((it, k) => {
		const where = "items[" + k + "]";
		if (!it || typeof it !== "object") throw new Error(where + ": want an object {id, title, tags}");
		ids.push(idOf(it.id, where + ".id"));
		titles.push(it.title === undefined ? "" : text(it.title, where + ".title"));
		const t = it.tags === undefined ? [] : it.tags;
		if (!Array.isArray(t)) throw new Error(where + ".tags must be an array of strings");
		tags.push(t.map((s, j) => text(s, where + ".tags[" + j + "]").replaceAll("\x01", " ")).join("\x01"));
	});
	return [items.length, ids.join("\0"), titles.join("\0"), tags.join("\0")];
}

// count checks n, how many items a top list holds.
function count(n) {
	if (!Number.isInteger(n)) throw new Error("n is " + (typeof n === "number" ? n : kind(n)) + ": want a whole number");
	return n;
}

// idOf returns an id, a string or a number, as a string.
function idOf(v, where) {
	if (typeof v === "number") return String(v);
	return text(v, where);
}

// packRatings checks ratings [{user, item, rating}] and packs them for
// recLearn; they are numbered from first in errors.
function packRatings(ratings, first) {
	if (!Array.isArray(ratings)) throw new Error("ratings must be an array of {user, item, rating}");
	const users = [], items = [], values = new Float64Array(ratings.length);
	ratings.forEach((r, k) => {
		const where = "ratings[" + (first + k) + "]";
		if (!r || typeof r !== "object") throw new Error(where + ": want an object {user, item, rating}");
		users.push(idOf(r.user, where + ".user"));
		items.push(idOf(r.item, where + ".item"));
		if (typeof r.rating !== "number") throw new Error(where + ".rating is " + kind(r.rating) + ": want a number");
		values[k] = r.rating;
	});
	return [users.join("\0"), items.join("\0"), values];
}

// topOf unpacks a top list (wasm/lib_rec_js.go recTopOf).
function topOf(s) {
	if (s === "") return [];
	return s.split("\0").map((rec) => {
		const [id, title, score, ...reasons] = rec.split("\x01");
		return {id, title, score: Number(score), reasons};
	});
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
// the parts are sized to it from the speed of the previous one, so that a
// page that learns on its main thread still answers clicks.
const PART_MS = 25;

// inParts calls learn(part, first) on consecutive parts of list, sized to
// about PART_MS each, pausing between them; options.onProgress gets
// {rows, of, metrics} after each. It resolves with the last metrics.
async function inParts(list, learn, options) {
	if (!Array.isArray(list)) return learn(list, 0);
	const onProgress = options && options.onProgress;
	const offset = (options && options.first) || 0; // the Worker's part of a longer list
	let size = 256;
	let metrics = null;
	for (let first = 0; first < list.length || first === 0; ) {
		const t0 = performance.now();
		const part = list.length <= size && first === 0 ? list : list.slice(first, first + size);
		metrics = learn(part, offset + first);
		first += part.length;
		if (onProgress) onProgress({rows: first, of: list.length, metrics});
		if (first >= list.length) break;
		const ms = performance.now() - t0;
		size = Math.max(64, Math.min(1 << 16, Math.round(size * PART_MS / Math.max(ms, 1))));
		await pause();
	}
	return metrics;
}

// The Worker that runs the learners made with {worker: true}, made at the
// first one, and the calls waiting for its answer.
let pool;

function worker() {
	if (!pool) {
		const w = new Worker(new URL("./occfm-worker.js", import.meta.url), {type: "module"});
		pool = {w, next: 0, calls: new Map()};
		w.onmessage = (e) => {
			const m = e.data;
			const c = pool.calls.get(m.call);
			if (!c) return;
			if ("progress" in m) {
				c.onProgress(m.progress);
				return;
			}
			pool.calls.delete(m.call);
			if ("error" in m) c.reject(new Error(m.error));
			else c.resolve(m.value);
		};
		w.onerror = (e) => {
			e.preventDefault();
			for (const c of pool.calls.values()) c.reject(new Error("occfm: the worker failed: " + (e.message || "cannot load lib/occfm-worker.js")));
			pool.calls.clear();
		};
	}
	return pool;
}

// remote asks the Worker to call op on the object handle (0: a static
// call) with args; onProgress, if any, gets its progress reports.
function remote(handle, op, args, onProgress) {
	const p = worker();
	const call = ++p.next;
	return new Promise((resolve, reject) => {
		p.calls.set(call, {resolve, reject, onProgress});
		p.w.postMessage({call, handle, op, args, progress: Boolean(onProgress)});
	});
}

// WORKER_PART is the most rows a learn sends the Worker in one message, so
// that copying them never holds up the page.
const WORKER_PART = 4096;

// remoteLearn sends list to the Worker in parts; progress counts over all.
async function remoteLearn(handle, list, options) {
	const onProgress = options && options.onProgress;
	if (!Array.isArray(list)) return remote(handle, "learn", [list], onProgress);
	let metrics = null;
	for (let first = 0; first < list.length || first === 0; first += WORKER_PART) {
		const part = list.slice(first, first + WORKER_PART);
		const at = (p) => onProgress({rows: first + p.rows, of: list.length, metrics: p.metrics});
		metrics = await remote(handle, "learnPart", [part, first], onProgress && at);
		if (first + WORKER_PART >= list.length) break;
	}
	return metrics;
}

// Base is what Learner and Recommender share: the object's id in the wasm
// of this thread, or its handle in the Worker, and the queue that keeps its
// calls in order.
class Base {
	#lib = null;
	#id = 0;
	#handle = 0;
	#queue = Promise.resolve();

	constructor(lib, id, handle) {
		this.#lib = lib;
		this.#id = id;
		this.#handle = handle;
	}

	// run queues a call: local(lib, id) on this thread, or op(args) in the
	// Worker.
	run(local, op, args, onProgress) {
		const next = this.#queue.then(() => {
			if (!this.#id && !this.#handle) throw new Error("occfm: this " + this.constructor.name + " is closed");
			return this.#handle ? remote(this.#handle, op, args, onProgress) : local(this.#lib, this.#id);
		});
		this.#queue = next.catch(() => {});
		return next;
	}

	// learnAll queues a learn of list in parts (see inParts, remoteLearn),
	// or, for a data file, of the whole file by file(lib, id, bytes).
	learnAll(list, options, call, file) {
		const next = this.#queue.then(async () => {
			if (!this.#id && !this.#handle) throw new Error("occfm: this " + this.constructor.name + " is closed");
			if (file && isFile(list)) {
				const bytes = await bytesOf(list);
				if (this.#handle) return remote(this.#handle, "learn", [bytes, options && options.name], options && options.onProgress);
				const m = file(this.#lib, this.#id, bytes);
				if (options && options.onProgress) options.onProgress({rows: m.rows, of: m.rows, metrics: m});
				return m;
			}
			if (this.#handle) return remoteLearn(this.#handle, list, options);
			return inParts(list, (part, first) => call(this.#lib, this.#id, part, first), options);
		});
		this.#queue = next.catch(() => {});
		return next;
	}

	/** Forgets the object; every later call rejects. */
	close() {
		if (this.#handle) remote(this.#handle, "close", []).catch(() => {});
		else if (this.#id) this.#lib.close(this.#id);
		this.#id = this.#handle = 0;
	}
}

// make creates an object: on this thread by create(lib), or in the Worker
// by the static op with settings (without their worker field).
async function make(Kind, settings, create, op) {
	if (settings && settings.worker) {
		const rest = {...settings};
		delete rest.worker;
		const info = await remote(0, op, [rest]);
		return new Kind(null, 0, info.handle, info);
	}
	const api = await boot();
	const info = answer(create(api.lib));
	return new Kind(api.lib, info[0], 0, {learner: info[1], task: info[2]});
}

/** The registry: every learner's name and what it does in plain words. */
export async function learners() {
	const api = await boot();
	return api.learners().map((l) => ({name: l.name, plain: l.plain, summary: l.summary}));
}

/** A learner of its own: any number may live in one page or Worker. */
export class Learner extends Base {
	constructor(lib, id, handle, info) {
		super(lib, id, handle);
		/** The registry name of the learner. */
		this.learner = info.learner;
		/** "regression" or "classification". */
		this.task = info.task;
	}

	/** Makes a learner: {learner, task, delta, eta, seed, worker}, all optional. */
	static create(settings = {}) {
		return make(Learner, settings, (lib) => {
			const s = settings || {};
			const str = (k, d) => (s[k] === undefined ? d : text(s[k], k));
			const num = (k) => {
				if (s[k] !== undefined && typeof s[k] !== "number") throw new Error(k + " is " + kind(s[k]) + ": want a number");
				return s[k] || 0;
			};
			if (num("seed") < 0) throw new Error("seed must be a number ≥ 0");
			return lib.create(str("learner", "occfm-k"), str("task", "regression"), num("delta"), num("eta"), num("seed"));
		}, "createLearner");
	}

	/** Makes a learner from a model file that save (or the CLI, on a CSV file) wrote. */
	static load(bytes, settings = {}) {
		return make(Learner, {...settings, bytes}, (lib) => lib.load(bytes), "loadLearner");
	}

	/**
	 * Learns rows [{x: {name: value}, y}] in order, or a data file (CSV, LibSVM or MovieLens, as the
	 * CLI reads it: a Uint8Array, a Blob or a ReadableStream); resolves with the progressive metrics.
	 */
	learn(rows, options) {
		const name = (options && options.name) || "data";
		return this.learnAll(rows, options,
			(lib, id, part, first) => metricsOf(this.task, answer(lib.learn(id, ...packRows(part, first, true), first))),
			(lib, id, bytes) => metricsOf(this.task, answer(lib.learnFile(id, bytes, name))));
	}

	/** ŷ for {x} without learning it: a rating, or the probability of the positive class. */
	predict(row) {
		return this.run((lib, id) => {
			if (!row || typeof row !== "object" || !("x" in row)) throw new Error("predict: want a row {x: {name: value}}");
			return answer(lib.predictMany(id, ...packRows([row], 0, false)))[0];
		}, "predict", [row]);
	}

	/** ŷ for each of [{x}], or for each row of a data file (its labels left out). */
	predictMany(rows, options) {
		const name = (options && options.name) || "data";
		if (isFile(rows)) {
			return bytesOf(rows).then((bytes) => this.run((lib, id) => Array.from(answer(lib.predictFile(id, bytes, name))),
				"predictMany", [bytes, options]));
		}
		return this.run((lib, id) => Array.from(answer(lib.predictMany(id, ...packRows(rows, 0, false)))), "predictMany", [rows]);
	}

	/** The model file: the learner, its guard and its feature names. */
	save() {
		return this.run((lib, id) => answer(lib.save(id)), "save", []);
	}
}

/** A recommender over a catalog of your own: people's ratings learned, a visitor's top n. */
export class Recommender extends Base {
	constructor(lib, id, handle, info) {
		super(lib, id, handle);
		/** The registry name of the learner. */
		this.learner = info.learner;
	}

	/** Makes a recommender: {learner, seed, worker}, all optional; the learner defaults to Personalize's. */
	static create(settings = {}) {
		return make(Recommender, settings, (lib) => {
			const s = settings || {};
			if (s.learner !== undefined) text(s.learner, "learner");
			if (s.seed !== undefined && !(typeof s.seed === "number" && s.seed >= 0)) throw new Error("seed must be a number ≥ 0");
			return lib.recCreate(s.learner || "", s.seed || 0);
		}, "createRecommender");
	}

	/** Adds the items [{id, title, tags}]; resolves with the number of items. */
	items(items) {
		return this.run((lib, id) => answer(lib.recItems(id, ...packItems(items))), "items", [items]);
	}

	/** Learns people's ratings [{user, item, rating}] in order; resolves with {rows, rmse}. */
	learn(ratings, options) {
		return this.learnAll(ratings, options, (lib, id, part, first) => {
			const m = answer(lib.recLearn(id, ...packRatings(part, first), first));
			return {rows: m[0], rmse: m[1]};
		});
	}

	/** The visitor gives item stars (1 to 5); resolves with the new top n (default 10). */
	rate(item, stars, n = 10) {
		return this.run((lib, id) => {
			if (typeof stars !== "number") throw new Error("stars is " + kind(stars) + ": want a number from 1 to 5");
			return topOf(answer(lib.recRate(id, idOf(item, "item"), stars, count(n))));
		}, "rate", [item, stars, n]);
	}

	/** The visitor's top n (default 10), best first, each {id, title, score, reasons}. */
	top(n = 10) {
		return this.run((lib, id) => topOf(answer(lib.recTop(id, count(n)))), "top", [n]);
	}

	/** Forgets the visitor's ratings. */
	clear() {
		return this.run((lib, id) => {
			answer(lib.recClear(id));
		}, "clear", []);
	}
}
