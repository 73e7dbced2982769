//go:build js && wasm

package main

import (
	"encoding/binary"
	"math"
	"syscall/js"
)

// pictureAPI adds picture(), pictureDrawn(), reference() and fwStep() to the page's API: plain objects,
// the matrices as typed arrays copied in one call each (no call
// per value across the bridge).
func (b *bridge) pictureAPI(fn func(string, func([]js.Value) any)) {
	fn("picture", func([]js.Value) any {
		if b.s == nil {
			return nil
		}
		p := b.s.picture()
		if p == nil {
			return nil
		}
		out := fields("learner", p.Learner, "note", p.Note, "labels", anys(p.Labels), "cells", float32Array(p.Cells), "eig", anys(p.Eig), "nuclear", p.Nuclear, "rank", p.Rank, "blockEig", p.BlockEig, "delta", p.Delta, "target", anys(p.Target), "targets", p.Targets, "theta", p.Theta, "pairs", p.Pairs, "whole", p.Whole, "ordered", p.Ordered, "ms", p.Millis, "rows", b.s.rows)
		return out
	})
	// The page has drawn the last picture (in tasks of its own, after
	// picture() returned it): the Model card names it from now on.
	fn("pictureDrawn", func([]js.Value) any {
		if b.s != nil {
			b.s.drawn = b.s.drawnNext
			b.renderModel()
		}
		return nil
	})
	fn("reference", func([]js.Value) any {
		if b.s == nil {
			return nil
		}
		r := b.s.reference()
		out := fields("rows", r.Rows, "baseline", r.Baseline)
		for k, v := range map[string]float64{"metric": r.Metric, "loss": r.Loss, "best": r.Best} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				out[k] = v
			}
		}
		return out
	})
	fn("fwStep", func([]js.Value) any {
		if b.s == nil {
			return fields("why", "no session")
		}
		sp := b.s.fwStep()
		if sp.Why != "" {
			return fields("learner", sp.Learner, "why", sp.Why)
		}
		if sp.IsFTRL {
			st := sp.FTRL
			return fields("kind", "ftrl", "learner", sp.Learner, "note", sp.Note, "labels", anys(sp.Labels), "round", st.Round, "yhat", st.Prediction, "y", st.Label, "loss", st.Loss, "deriv", st.Deriv, "eta", st.Eta, "delta", st.Delta, "theta", st.Theta, "rank", st.Rank, "kept", st.Kept, "certified", st.Certified, "normF", st.NormF, "refreshed", st.Refreshed, "before", float64Array(sp.Before), "target", float64Array(sp.Atom), "after", float64Array(sp.After), "grad", float64Array(sp.Grad))
		}
		st := sp.Step
		return fields("kind", "fw", "learner", sp.Learner, "note", sp.Note, "labels", anys(sp.Labels), "round", st.Round, "yhat", st.Prediction, "y", st.Label, "loss", st.Loss, "deriv", st.Deriv, "lambda", st.Lambda, "refreshed", st.Refreshed, "gap", st.ValueGap, "gamma", st.Gamma, "gammaT", st.GammaSchedule, "delta", st.Delta, "eta", st.Eta, "before", float64Array(sp.Before), "atom", float64Array(sp.Atom), "after", float64Array(sp.After), "grad", float64Array(sp.Grad))
	})
}

// anys returns xs as []any, the slice syscall/js turns into a JS array.
func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, v := range xs {
		out[i] = v
	}
	return out
}

// float32Array returns x as a JS Float32Array (the picture's cells: a
// float32 is far finer than a colour).
func float32Array(x []float64) js.Value {
	buf := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(float32(v)))
	}
	return typed("Float32Array", buf)
}

// float64Array returns x as a JS Float64Array, bit for bit.
func float64Array(x []float64) js.Value {
	buf := make([]byte, 8*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint64(buf[8*i:], math.Float64bits(v))
	}
	return typed("Float64Array", buf)
}

// typed copies the little-endian bytes into a new typed array of the kind
// (wasm and every browser's typed arrays are little-endian).
func typed(kind string, buf []byte) js.Value {
	return js.Global().Get(kind).New(uint8Array(buf).Get("buffer"))
}

// uint8Array returns a new JS Uint8Array holding a copy of b.
func uint8Array(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8
}

// fields returns the object of the names and values kv alternates, for
// syscall/js to turn into a JS object. One call with a slice of pairs is
// far smaller code than a map literal, which assigns every entry apart.
func fields(kv ...any) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}
