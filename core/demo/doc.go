// Package demo generates the built-in synthetic streams: data whose best
// model is known, so that the page, the lesson and the tests can show and
// check learning without shipping any real data set.
//
// [All] lists them in menu order: planted-regression and
// planted-classification (labels from a planted low-rank C* inside the
// nuclear-norm ball, so the best loss is known) and ratings (MovieLens-like
// one-hot users and items with biases and low-rank tastes). Each [Spec]
// makes a seeded [Stream]: the same seed gives the same rows on every
// machine, natively and in the browser.
package demo
