// occfm-worker.js: the module Worker that runs the learners and
// recommenders occfm.js makes with {worker: true}. It loads occfm.js (and
// so the wasm) once, keeps the objects by handle and answers each message
// {call, handle, op, args, progress} with {call, value} or {call, error},
// and with {call, progress} reports while a learn goes on.
import {Learner, Recommender} from "./occfm.js";

// calls are the methods a message may name, beside learn and close.
const calls = new Set(["predict", "predictMany", "save", "items", "rate", "top", "clear"]);

const objects = new Map();
let next = 0;

// keep stores a new object and returns what the page's side needs of it.
function keep(o) {
	objects.set(++next, o);
	return {handle: next, learner: o.learner, task: o.task};
}

const statics = {
	createLearner: (s) => Learner.create(s).then(keep),
	loadLearner: (s) => Learner.load(s.bytes).then(keep),
	createRecommender: (s) => Recommender.create(s).then(keep),
};

self.onmessage = async (e) => {
	const {call, handle, op, args, progress} = e.data;
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
				value = true;
			} else if (op === "learnPart") {
				const onProgress = progress ? (p) => self.postMessage({call, progress: p}) : undefined;
				value = await o.learn(args[0], {onProgress, first: args[1]});
			} else if (op === "learn" && !Array.isArray(args[0])) {
				const onProgress = progress ? (p) => self.postMessage({call, progress: p}) : undefined;
				value = await o.learn(args[0], {onProgress, name: args[1]});
			} else {
				if (!calls.has(op) || typeof o[op] !== "function") throw new Error("occfm: no call " + op);
				value = await o[op](...args);
			}
		}
		self.postMessage({call, value}, value instanceof Uint8Array ? [value.buffer] : []);
	} catch (err) {
		self.postMessage({call, error: err instanceof Error ? err.message : String(err)});
	}
};
