// occfm-worker.js: the module Worker that runs the learners and
// recommenders occfm.js makes with {worker: true}. It loads occfm.js (and
// so the wasm) once, keeps the objects by handle and answers each message
// {call, handle, op, args, progress} with {call, value} or {call, error},
// and with {call, progress} reports while a learn goes on. When its Go
// program stops (out of memory), it answers {call, error, dead: true}:
// the page lets this Worker go and starts a new one for new objects.
import {Learner, Recommender, learners} from "./occfm.js";

// calls are the methods a message may name, beside the learns and close.
const calls = new Set(["predict", "predictMany", "save", "items", "rate", "top", "rated", "ratingsCSV", "catalog", "clear"]);

const objects = new Map();
let next = 0;

// staged holds, by handle, the parts of a list the page sends before it
// asks for them to be learned (learnStaged); aborts, by handle, the
// AbortController of the learn under way.
const staged = new Map(), aborts = new Map();

// keep stores a new object and returns what the page's side needs of it.
function keep(o) {
	objects.set(++next, o);
	return {handle: next, learner: o.learner, task: o.task};
}

const statics = {
	createLearner: (s) => Learner.create(s).then(keep),
	loadLearner: (s) => Learner.load(s.bytes, {wasmURL: s.wasmURL}).then(keep),
	createRecommender: (s) => Recommender.create(s).then(keep),
	learners: (s) => learners(s),
};


self.onmessage = async (e) => {
	const {call, handle, op, args, progress} = e.data;
	const onProgress = progress ? (p) => self.postMessage({call, progress: p}) : undefined;
	try {
		let value;
		if (handle === 0) {
			if (!Object.hasOwn(statics, op)) throw new Error("occfm: no call " + op);
			value = await statics[op](args[0]);
		} else {
			const o = objects.get(handle);
			if (!o) throw new Error("occfm: this object is closed");
			if (op === "close") {
				o.close();
				objects.delete(handle);
				staged.delete(handle);
				value = true;
			} else if (op === "stage") {
				// args: a part of the list, and whether it is the first.
				if (args[1] || !staged.has(handle)) staged.set(handle, []);
				staged.get(handle).push(args[0]);
				value = true;
			} else if (op === "learnStaged") {
				const rows = (staged.get(handle) || []).flat();
				staged.delete(handle);
				const ac = new AbortController();
				aborts.set(handle, ac);
				try {
					value = await o.learn(rows, {onProgress, signal: ac.signal});
				} finally {
					aborts.delete(handle);
				}
			} else if (op === "abort") {
				const ac = aborts.get(handle);
				if (ac) ac.abort(args[0] ? new Error(args[0]) : undefined);
				value = Boolean(ac);
			} else if (op === "learn" && !Array.isArray(args[0])) {
				value = await o.learn(args[0], {onProgress, name: args[1]});
			} else if (op === "learnSynthetic") {
				value = await o.learnSynthetic({onProgress});
			} else {
				if (!calls.has(op) || typeof o[op] !== "function") throw new Error("occfm: no call " + op);
				value = await o[op](...args);
			}
		}
		self.postMessage({call, value}, value instanceof Uint8Array ? [value.buffer] : []);
	} catch (err) {
		const gone = Boolean(err && err.gone);
		self.postMessage({call, error: err instanceof Error ? err.message : String(err), dead: gone});
	}
};
