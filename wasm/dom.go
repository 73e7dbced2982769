//go:build js && wasm

package main

import "syscall/js"

// The views Go owns (the predictions table, the model panel: views.go)
// need five DOM calls: find, create, append, remove, and set a text or an
// attribute. element and document are those calls over syscall/js, typed.
// They replace honnef.co/go/js/dom/v2, whose element wrappers (a type and
// method set for every HTML element, all reachable from GetElementByID)
// cost 128 KB of the gzipped wasm, 7.7 % of it (1,670,833 bytes with it,
// 1,542,462 without; GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w"
// ./wasm, then gzip -9), for these few calls.

// element is a DOM element, or nil for none.
type element struct{ v js.Value }

// document is the page's document.
type document struct{ v js.Value }

// pageDocument returns the global document.
func pageDocument() document { return document{js.Global().Get("document")} }

// wrap returns v as an element, or nil for null or undefined.
func wrap(v js.Value) *element {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &element{v}
}

func (d document) getElementByID(id string) *element { return wrap(d.v.Call("getElementById", id)) }
func (d document) createElement(tag string) *element { return wrap(d.v.Call("createElement", tag)) }
func (d document) querySelector(sel string) *element { return wrap(d.v.Call("querySelector", sel)) }

func (e *element) textContent() string     { return e.v.Get("textContent").String() }
func (e *element) setTextContent(s string) { e.v.Set("textContent", s) } // text, never HTML
func (e *element) appendChild(c *element)  { e.v.Call("appendChild", c.v) }
func (e *element) removeChild(c *element)  { e.v.Call("removeChild", c.v) }
func (e *element) firstChild() *element    { return wrap(e.v.Get("firstChild")) }
func (e *element) setHidden(h bool)        { e.v.Set("hidden", h) }

// attribute returns the attribute's value, "" when it is absent.
func (e *element) attribute(name string) string {
	v := e.v.Call("getAttribute", name)
	if v.IsNull() {
		return ""
	}
	return v.String()
}

func (e *element) setAttribute(name, value string) { e.v.Call("setAttribute", name, value) }
