// occfm.js: OCCFM's learners for any page, as an ES module (no bundler).
// It loads the page's wasm once (occfm.wasm and wasm_exec.js beside this
// folder) and works on the main thread and in a module Worker. Every
// method returns a promise; a bad input rejects it with an Error that says
// what and where, and the learner stays usable. See docs/js-api.md.
import "../wasm_exec.js";

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
			WebAssembly.instantiateStreaming(fetch(new URL("../occfm.wasm", import.meta.url)), go.importObject)
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

// xOf returns a row's features, {x}'s x.
function xOf(row, where) {
	if (!row || typeof row !== "object" || !("x" in row)) {
		throw new Error(where + ": want a row {x: {name: value}}");
	}
	return row.x;
}

/** The registry: every learner's name and what it does in plain words. */
export async function learners() {
	const api = await boot();
	return api.learners().map((l) => ({name: l.name, plain: l.plain, summary: l.summary}));
}

/** A learner of its own: any number may live in one page or Worker. */
export class Learner {
	#lib;
	#id;

	constructor(lib, info) {
		this.#lib = lib;
		this.#id = info.id;
		/** The registry name of the learner. */
		this.learner = info.learner;
		/** "regression" or "classification". */
		this.task = info.task;
	}

	/** Makes a learner: {learner, task, delta, eta, seed}, all optional. */
	static async create(settings = {}) {
		const api = await boot();
		return new Learner(api.lib, answer(api.lib.create(settings)));
	}

	/** Makes a learner from a model file that save (or the CLI, on a CSV file) wrote. */
	static async load(bytes) {
		const api = await boot();
		return new Learner(api.lib, answer(api.lib.load(bytes)));
	}

	#live() {
		if (!this.#id) throw new Error("occfm: this learner is closed");
		return this.#id;
	}

	/** Learns rows [{x: {name: value}, y}] in order; resolves with the progressive metrics. */
	async learn(rows) {
		return answer(this.#lib.learn(this.#live(), rows));
	}

	/** ŷ for {x} without learning it: a rating, or the probability of the positive class. */
	async predict(row) {
		return answer(this.#lib.predict(this.#live(), xOf(row, "predict")));
	}

	/** ŷ for each of [{x}]. */
	async predictMany(rows) {
		return answer(this.#lib.predictMany(this.#live(), rows.map((r, i) => xOf(r, "row " + i))));
	}

	/** The model file: the learner, its guard and its feature names. */
	async save() {
		return answer(this.#lib.save(this.#live()));
	}

	/** Forgets the learner; every later call rejects. */
	close() {
		if (this.#id) this.#lib.close(this.#id);
		this.#id = 0;
	}
}
