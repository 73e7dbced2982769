//go:build js && wasm

package main

import (
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"honnef.co/go/js/dom/v2"
)

// render refreshes the Go-owned views, when rows were learned since the
// last time or force is set. The page calls it with its own views, at most
// 10 times a second; the elements are built once per session and then only
// their text changes: each DOM call crosses the JS bridge. Without a
// document (a Web Worker) there are no views, and it does nothing.
func (b *bridge) render(force bool) {
	if b.doc == nil || !force && b.s.rows == b.lastRows && b.s.err == b.lastErr {
		return
	}
	b.lastRows, b.lastErr = b.s.rows, b.s.err
	b.renderPredictions()
	b.renderModel()
}

// renderPredictions shows the latest predictions, newest first.
func (b *bridge) renderPredictions() {
	if b.predRows == nil {
		body := b.byID("predictions-body")
		if body == nil {
			return
		}
		clearChildren(body)
		for range keepPredictions {
			tr := b.create("tr")
			var cells [4]dom.Element
			for c := range cells {
				cells[c] = b.create("td")
				tr.AppendChild(cells[c])
			}
			body.AppendChild(tr)
			b.predRows = append(b.predRows, tr)
			b.predCells = append(b.predCells, cells)
		}
		b.predHead = element(b.doc.Underlying().Call("querySelector", "#predictions thead th:nth-child(2)"))
	}
	// Classification shows the probability σ(ŷ) of the positive class, the
	// score ŷ on hover: "0.991" reads better than "4.666" against y = 1.
	prob := b.s.taskSet && b.s.task == data.Classification
	head := "ŷ"
	if prob {
		head = "P(y = 1)"
	}
	if b.predHead != nil && b.predHead.TextContent() != head {
		b.predHead.SetTextContent(head)
	}
	for i, tr := range b.predRows {
		if i >= len(b.s.preds) {
			tr.Underlying().Set("hidden", true)
			continue
		}
		p := b.s.latest(i)
		tr.Underlying().Set("hidden", false)
		yhat, title := format(p.Yhat), ""
		if prob {
			yhat, title = strconv.FormatFloat(1/(1+math.Exp(-p.Yhat)), 'f', 3, 64), "score ŷ = "+format(p.Yhat)
		}
		for c, text := range []string{b.s.describe(p), yhat, format(p.Y), format(p.Loss)} {
			b.predCells[i][c].SetTextContent(text) // text, never HTML: file content is not trusted
		}
		if b.predCells[i][1].GetAttribute("title") != title {
			b.predCells[i][1].SetAttribute("title", title)
		}
	}
}

// modelFields are the rows of the model panel, in order. What the model
// picture shows of C (its entries, eigenvalues, ‖C‖* against δ, rank) is
// the picture's alone; the panel names which C that is, from the same
// record (session.drawnText): one view owns each fact.
var modelFields = []string{"learner", "settings", "C in the picture"}

// renderModel shows the followed learner (session.followed): its name,
// its settings and which C the model picture draws of it.
func (b *bridge) renderModel() {
	if b.doc == nil {
		return
	}
	if b.modelDD == nil && !b.buildModelPanel() {
		return
	}
	set := func(f, text string) { b.modelDD[f].SetTextContent(text) }
	// Every field is written on every render: a run that failed shows "–",
	// never the last learner's values.
	for _, f := range modelFields {
		set(f, "–")
	}
	if b.s == nil {
		return
	}
	pl := b.s.followed()
	if pl == nil {
		if b.s.err == "" {
			set("learner", "waiting for the first rows…")
		} else {
			set("learner", "– (the run stopped before its learners started)")
		}
		return
	}
	set("learner", pl.Name)
	set("C in the picture", b.s.drawnText())
	c, ok := pl.Learner.(core.Configured)
	if !ok {
		return
	}
	cfg := c.Config()
	if a, mix := pl.inner().(core.Mixture); mix {
		var names []string
		for _, e := range a.Experts() {
			names = append(names, e.Name)
		}
		set("settings", "no δ to choose: the aggregating algorithm over "+strings.Join(names, ", ")+"; loss "+cfg.LossOf().String())
	} else if now := core.DeltaNow(pl.Learner); cfg.Delta == 0 && now > 0 {
		rule, _ := core.SpecOf(pl.Name)
		set("settings", "δ = "+rule.DeltaRule+", now "+strconv.FormatFloat(now, 'f', 0, 64)+", η = "+fmtG(cfg.Eta)+", loss "+cfg.LossOf().String())
	} else if cfg.Delta > 0 {
		set("settings", "δ = "+fmtG(cfg.Delta)+", η = "+fmtG(cfg.Eta)+", loss "+cfg.LossOf().String())
	} else {
		set("settings", "η = "+fmtG(cfg.Eta)+", loss "+cfg.LossOf().String()+" (no δ: no matrix C to bound)")
	}
}

// buildModelPanel makes the Model card's list of fields once, and reports
// whether the page has the card.
func (b *bridge) buildModelPanel() bool {
	panel := b.byID("model-panel")
	if panel == nil {
		return false
	}
	clearChildren(panel)
	h := b.create("h3")
	h.SetTextContent("Model")
	panel.AppendChild(h)
	dl := b.create("dl")
	b.modelDD = map[string]dom.Element{}
	for _, f := range modelFields {
		dt := b.create("dt")
		dt.SetTextContent(f)
		dd := b.create("dd")
		dl.AppendChild(dt)
		dl.AppendChild(dd)
		b.modelDD[f] = dd
	}
	panel.AppendChild(dl)
	return true
}

// clearChildren removes n's children, in one call (replaceChildren): each
// child taken through dom/v2's FirstChild would be wrapped first (see
// element).
func clearChildren(n dom.Element) {
	n.Underlying().Call("replaceChildren")
}

// The views make and find their elements through the document's own JS
// methods and wrap them with element, not with dom/v2's
// Document.CreateElement, GetElementByID or QuerySelector: those find an
// element's Go type (HTMLTableCellElement, ...) by comparing its
// constructor with each HTML element type's in turn, dozens of calls into
// JS for a td, and the views use only what every element has (text,
// attributes, children). At a cold load, the start's first render (the
// predictions table and the Model card built) took 62–77 ms built the
// dom/v2 way, 5–13 ms this way (three throttled loads each, timed around it).

// create returns a new element of the tag.
func (b *bridge) create(tag string) dom.Element {
	return element(b.doc.Underlying().Call("createElement", tag))
}

// byID returns the element of the id, or nil.
func (b *bridge) byID(id string) dom.Element {
	return element(b.doc.Underlying().Call("getElementById", id))
}

// element wraps the DOM element v for dom/v2's methods, as a plain HTML
// element; nil for null or undefined.
func element(v js.Value) dom.Element {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}
