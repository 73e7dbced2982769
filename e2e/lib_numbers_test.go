//go:build e2e

package e2e

import (
	"encoding/json"
	"testing"
	"time"
)

// libNumbersHostHTML learns click rows as people write them, raw numbers
// and all ({device, hour 0–23, ad, price 1–5,000, dwell_seconds 0–600}, a
// planted device × ad effect, as wasm's TestLibRawNumbers draws them), with
// the library's default learner on the main thread and with {worker: true},
// and measures the log loss of 500 fresh rows against the same rows with
// their numbers scaled by hand and against the base rate.
const libNumbersHostHTML = `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script type="module">
import {Learner} from "/lib/occfm.js";
let s = 58;
const unif = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s + 0.5) / 4294967296; };
const gauss = () => Math.sqrt(-2 * Math.log(unif())) * Math.cos(2 * Math.PI * unif());
const effect = Array.from({length: 90}, () => 1.5 * gauss());
const devices = ["mobile", "desktop", "tablet"];
const click = () => {
	const d = Math.floor(3 * unif()), ad = Math.floor(30 * unif());
	const hour = Math.floor(24 * unif()), price = 1 + Math.floor(5000 * unif()), dwell = Math.floor(601 * unif());
	const z = -0.4 + effect[d * 30 + ad] + 0.06 * (hour - 12) - 0.0002 * (price - 2500) + 0.002 * (dwell - 300);
	const y = unif() < 1 / (1 + Math.exp(-z)) ? 1 : 0;
	return {raw: {x: {device: devices[d], hour, ad: "a" + ad, price, dwell_seconds: dwell}, y},
		hand: {x: {device: devices[d], hour: hour / 23, ad: "a" + ad, price: price / 5000, dwell_seconds: dwell / 600}, y}};
};
const train = Array.from({length: 5000}, click), fresh = Array.from({length: 500}, click);
const pos = train.reduce((t, r) => t + r.raw.y, 0) / train.length;
const logLoss = (p) => fresh.reduce((t, r, i) => t - Math.log(Math.max(r.raw.y ? p[i] : 1 - p[i], 1e-15)), 0) / fresh.length;
async function measure(worker) {
	const out = {};
	for (const kind of ["raw", "hand"]) {
		const l = await Learner.create({task: "classification", worker});
		await l.learn(train.map((r) => r[kind]));
		out[kind] = logLoss(await l.predictMany(fresh.map((r) => ({x: r[kind].x}))));
		l.close();
	}
	return out;
}
(async () => {
	const main = await measure(false), worker = await measure(true);
	window.__result = JSON.stringify({main, worker, base: logLoss(fresh.map(() => pos))});
})().catch((e) => { window.__result = JSON.stringify({error: String((e && e.stack) || e)}); });
</script>`

// TestE2ELibRawNumbers checks that the library's default learner learns
// click rows from raw numbers as well as from numbers scaled by hand
// (log loss within 5 %) and well (at least 10 % below the base rate's), on
// the main thread and in its Worker.
func TestE2ELibRawNumbers(t *testing.T) {
	t.Parallel()
	s := newSessionWith(t, time.Minute, hostPage(libNumbersHostHTML, nil, e2eHandler(e2eDist)))
	s.open()
	s.waitJS("the log losses", "window.__result !== undefined", e2eHang)
	var r struct {
		Error        string
		Main, Worker struct{ Raw, Hand float64 }
		Base         float64
	}
	if err := json.Unmarshal([]byte(evalJS[string](s, "window.__result")), &r); err != nil {
		t.Fatal(err)
	}
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	t.Logf("fresh rows' log loss: main thread raw %.4f, by hand %.4f; Worker raw %.4f, by hand %.4f; base rate %.4f",
		r.Main.Raw, r.Main.Hand, r.Worker.Raw, r.Worker.Hand, r.Base)
	for _, c := range []struct {
		where     string
		raw, hand float64
	}{{"main thread", r.Main.Raw, r.Main.Hand}, {"Worker", r.Worker.Raw, r.Worker.Hand}} {
		if !(c.raw <= 1.05*c.hand) || !(c.raw <= 0.9*r.Base) {
			t.Errorf("%s: log loss %.4f from raw numbers, %.4f scaled by hand, base rate %.4f: want ≤ 1.05× by hand and ≤ 0.9× the base rate",
				c.where, c.raw, c.hand, r.Base)
		}
	}
}
