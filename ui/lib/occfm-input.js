// occfm-input.js: what occfm.js checks of the values a page gives it and
// how it packs them for the wasm (wasm/lib_js.go rowsOf has the layout),
// and how it unpacks the answers: every bad input is an Error in the
// library's words, on whichever thread the object lives.

// kind names a value's kind for an error: "string", "null", "undefined"…
export const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "function" ? "a function" :
	typeof v === "object" && Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null && v.constructor ? "a " + v.constructor.name : typeof v);

// text checks that s is a string without NUL (the separator of a packed
// list) and returns it.
export function text(s, where, max = TEXT_MAX) {
	if (typeof s !== "string") throw new Error(where + " is " + kind(s) + ": want a string");
	if (s.length > max) throw new Error(where + ": a string of " + s.length + " characters: at most " + max);
	if (s.includes("\0")) throw new Error(where + " holds a NUL character");
	return s;
}

// NAME_MAX bounds a feature's name and a string value (the wasm's bound is
// 1,024 bytes: wasm/lib.go libMaxName); TEXT_MAX any other string (a title,
// a tag, an id).
const NAME_MAX = 1024, TEXT_MAX = 1 << 16;

// packRows checks rows [{x, y}] (labels: with y) and packs them as the
// wasm takes them (wasm/lib_js.go rowsOf): the names and the string values
// each as one string, NUL between values, the numbers, the kinds (1: a
// string), the features of each row and the labels. Rows are numbered from
// first in errors.
export function packRows(rows, first, labels) {
	if (!Array.isArray(rows)) throw new Error("rows must be an array of {x: {name: value}" + (labels ? ", y}" : "}"));
	const names = [], strs = [], nums = [], kinds = [];
	const counts = new Uint32Array(rows.length), ys = new Float64Array(labels ? rows.length : 0);
	for (let r = 0; r < rows.length; r++) {
		const where = "row " + (first + r), row = rows[r];
		if (!row || typeof row !== "object") throw new Error(where + ": want an object {x" + (labels ? ", y}" : "}"));
		const x = row.x;
		if (!x || typeof x !== "object" || Array.isArray(x)) throw new Error(where + ": x must be an object of named values, {name: value}");
		const proto = Object.getPrototypeOf(x);
		if (proto !== Object.prototype && proto !== null) {
			throw new Error(where + ": x is a " + ((proto.constructor && proto.constructor.name) || "class instance") + ": want a plain object of named values, {name: value}");
		}
		let n = 0;
		for (const name of Object.keys(x)) {
			const v = x[name], at = where + ': feature "' + (name.length > 40 ? name.slice(0, 40) + "…" : name) + '"';
			text(name, at, NAME_MAX);
			if (typeof v === "number" || v === true) {
				names.push(name); strs.push(""); nums.push(+v); kinds.push(0); n++;
			} else if (typeof v === "string") {
				names.push(name); strs.push(text(v, at, NAME_MAX)); nums.push(0); kinds.push(1); n++;
			} else if (v !== false && v !== undefined) {
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
export const isFile = (input) => input instanceof Uint8Array || input instanceof ArrayBuffer ||
	(typeof Blob !== "undefined" && input instanceof Blob) || (typeof ReadableStream !== "undefined" && input instanceof ReadableStream);

// bytesOf reads a data file whole into one Uint8Array, refusing one over
// FILE_MAX before reading on.
export async function bytesOf(input) {
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
export function metricsOf(task, m) {
	return task === "classification" ? {rows: m[0], errorRate: m[1], logLoss: m[2], auc: m[3]} : {rows: m[0], rmse: m[1], mae: m[2]};
}

// packItems checks items [{id, title, tags}] and packs them for recItems.
export function packItems(items) {
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
export function count(n) {
	if (!Number.isInteger(n)) throw new Error("n is " + (typeof n === "number" ? n : kind(n)) + ": want a whole number");
	return n;
}

// idOf returns an id, a string or a number, as a string.
export function idOf(v, where) {
	if (typeof v === "number") return String(v);
	return text(v, where);
}

// packRatings checks ratings [{user, item, rating}] and packs them for
// recLearn; they are numbered from first in errors.
export function packRatings(ratings, first) {
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

// absolute returns the URL u resolved against this thread's location
// (undefined stays undefined), for a Worker to take as it is.
export function absolute(u, what) {
	if (u === undefined) return undefined;
	if (typeof u !== "string" && !(u instanceof URL)) throw new Error(what + " is " + kind(u) + ": want a URL (a string or a URL object)");
	try {
		return new URL(String(u), globalThis.location.href).href;
	} catch {
		throw new Error(what + " " + JSON.stringify(String(u)) + " is not a URL");
	}
}

// optionsOf checks that o (absent, or a plain object) names only the
// options in known, and returns it ({} when absent). An unknown name is
// refused with the closest known one.
export function optionsOf(o, known, what) {
	if (o === undefined || o === null) return {};
	if (typeof o !== "object" || Array.isArray(o)) throw new Error(what + ": the options are " + kind(o) + ": want an object {" + known.join(", ") + "}");
	for (const k of Object.keys(o)) {
		if (known.includes(k)) continue;
		const near = closest(k, known);
		throw new Error(what + ": no option " + JSON.stringify(k) + (near ? " (did you mean " + near + "?)" : "") + "; the options are " + known.join(", "));
	}
	return o;
}

// closest returns the name in names nearest to k by edit distance, if
// within a third of its length (at least 2), or "".
function closest(k, names) {
	let best = "", bestD = Math.max(2, Math.floor(k.length / 3)) + 1;
	for (const n of names) {
		const d = editDistance(k.toLowerCase(), n.toLowerCase());
		if (d < bestD) [best, bestD] = [n, d];
	}
	return best;
}

// editDistance returns the Levenshtein distance of a and b.
function editDistance(a, b) {
	let prev = Array.from({length: b.length + 1}, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const cur = [i];
		for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		prev = cur;
	}
	return prev[b.length];
}

// finite returns s[k], a finite number ≥ 0, or 0 when absent.
export function finite(s, k) {
	const v = s[k];
	if (v === undefined) return 0;
	if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new Error(k + " is " + (typeof v === "number" ? v : kind(v)) + ": want a finite number ≥ 0 (0: the learner's default)");
	return v;
}

// whole returns s[k], a whole number from 0 to 2⁵³ − 1, or 0 when absent.
export function whole(s, k) {
	const v = s[k];
	if (v === undefined) return 0;
	if (!Number.isSafeInteger(v) || v < 0) throw new Error(k + " is " + (typeof v === "number" ? v : kind(v)) + ": want a whole number ≥ 0");
	return v;
}

// flag checks that s[k] is absent or a boolean.
export function flag(s, k) {
	if (s[k] !== undefined && typeof s[k] !== "boolean") throw new Error(k + " is " + kind(s[k]) + ": want true or false");
	return Boolean(s[k]);
}

// The options each call takes.
export const CREATE = ["learner", "task", "delta", "eta", "seed", "maxMemory", "worker", "wasmURL", "workerURL"];
export const LOAD = ["worker", "wasmURL", "workerURL"];
export const REC_CREATE = ["learner", "seed", "worker", "wasmURL", "workerURL"];
export const LEARN = ["onProgress", "name", "signal"];
export const REC_LEARN = ["onProgress", "signal"];
export const FILE = ["name"];

// fileName checks the name option of a call that reads a data file.
export function fileName(o) {
	if (o.name !== undefined) text(o.name, "name");
	if (o.onProgress !== undefined && typeof o.onProgress !== "function") throw new Error("onProgress is " + kind(o.onProgress) + ": want a function");
	if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) throw new Error("signal is " + kind(o.signal) + ": want an AbortSignal (new AbortController().signal)");
	return o;
}

// modelBytes returns a model file's bytes as a Uint8Array.
export function modelBytes(b) {
	if (b instanceof Uint8Array) return b;
	if (b instanceof ArrayBuffer) return new Uint8Array(b);
	throw new Error("Learner.load: the model file is " + kind(b) + ": want its bytes, a Uint8Array or an ArrayBuffer");
}
