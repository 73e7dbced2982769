// Package str builds core's messages without fmt.
//
// The packages of core do not import fmt: it is most of what the page's
// wasm binary would link only for their messages. The messages are built
// from strings and strconv instead, byte for byte as fmt builds them; the
// helpers here stand for the verbs whose output is not a single strconv
// call, and str_test.go checks each against fmt.
package str
