// Command wasm is the in-browser edge of OCCFM: the core compiled with
// GOOS=js GOARCH=wasm. It exposes one namespaced JS API, globalThis.occfm,
// and renders the views Go owns (the live predictions table and the model
// panel) through honnef.co/go/js/dom/v2; the page draws the Personalize
// view's lists from the answers of occfm.lib's Recommender. The page's JS
// (ui/app.js and its modules in ui/js/) owns scheduling: it calls run()
// with a time budget, one slice per task of the event loop, and render()
// when it draws its own views.
//
// # JS API (globalThis.occfm, set when the "occfm-ready" event fires)
//
// Every call answers with a plain JS value, never JSON text: the snapshots
// the package writes with its own JSON writer (jsonw.go) are parsed by the
// bridge (setFunc's jsonText) before they reach JS.
//
//	learners() → [{name, plain, summary, personal?, mixture?, runDefault?, delta?,
//	               deltaText?, eta?, etaClassification?, regretExponent?,
//	               regretSource?}]
//	                                         the core registry (core.Spec): plain
//	                                         words first, the technical summary
//	                                         second; personal, how it takes a new
//	                                         person's ratings (Personalize's hint);
//	                                         runDefault on core.DefaultLearner, the
//	                                         learner a run plays when none is named;
//	                                         mixture when it mixes experts (its
//	                                         checkpoints then carry its regret to
//	                                         the best one); delta and eta, the
//	                                         defaults for regression (deltaText
//	                                         when δ grows by a rule, etaClassification
//	                                         when η differs for classification);
//	                                         regretExponent p when the regret
//	                                         against the best C in K is O(Tᵖ)
//	demos()    → [{name, title, short, task}] built-in synthetic streams
//	start(config: string JSON)  → snapshot
//	    Starts a new session, discarding the old one. config:
//	    {"source": "demo" | "file",
//	     "demo": "planted-regression" | "planted-classification" | "ratings",
//	     "file": "u.data",                  (name, for messages and format sniffing)
//	     "learners": ["occfm-auto"],        (several race on the same rows; none:
//	                                         core.DefaultLearner, occfm-auto)
//	     "task": "auto" | "regression" | "classification",
//	     "format": "auto" | "libsvm" | "csv" | "movielens",
//	     "roles": {"column": "label" | "categorical" | "numeric" | "ignore"},
//	     "delta": 0, "eta": 0,              (0: the learner's default)
//	     "gamma": "1/sqrt(t)" | "2/(t+1)" | "constant",
//	     "loss": "auto" | "squared" | "logistic",
//	     "seed": 1,
//	     "onError": "stop" | "skip",        (a malformed row: end the session
//	                                         with its error, or skip and count it)
//	     "shuffle": 0}                      (a file: 0 keeps its order; N reads every
//	                                         row into memory, then plays them in the
//	                                         order of occfm run -shuffle N)
//	    It is read as json.Unmarshal would read it (jsonr.go): keys match
//	    ignoring case, others are ignored, and a value of the wrong type is
//	    an error naming its key, e.g.
//	    start: json: field "delta": want a number, got string
//	feed(bytes: Uint8Array) → number         copies a chunk of the file's raw bytes
//	                                         (gzip too: data.NewStream detects and
//	                                         gunzips it, as in the CLI)
//	end()                                    no more chunks: the file is complete
//	wanted() → number                        bytes the session would like buffered
//	                                         ahead (0: enough, about 9 MiB are)
//	head(bytes: Uint8Array) → string         the text a file's first bytes begin
//	                                         with (gunzipped when gzip), ≤ 4 KiB
//
//	run(ms: number, maxRows: number) → snapshot
//	    Learns rows for at most ms milliseconds and at most maxRows rows
//	    (maxRows 0: no limit), then returns. It never waits for data: when
//	    the reader needs bytes not fed yet it returns with state "waiting". It draws
//	    nothing: see render. While the session runs, the learners' metrics
//	    in its snapshot are at most 250 ms old (on a classification stream
//	    the exact AUC costs O(rows)); the checkpoints' are exact.
//	render()                                 draws the Go-owned views (predictions,
//	                                         model) if rows were learned since the
//	                                         last time
//	snapshot() → snapshot                    without learning, metrics of now;
//	                                         draws the Go-owned views
//	reset()                                  restarts the current session from row 0
//	follow(name) → bool                      the model panel and saveModel follow
//	                                         learner name (start's "follow" too);
//	                                         false, and the first, when it does not race
//	                                         (demos only; for a file the page
//	                                         starts it again and feeds it anew)
//	saveModel() → {bytes: Uint8Array, learner, rows} or {error}
//	                                         the model file of the first learner
//	                                         now (core.SaveModel): state, settings,
//	                                         feature numbering, rows learned
//	loadModel(bytes: Uint8Array) → {learner, rows, features, task, format,
//	                                         bytes} or {error}
//	    Validates a model file and keeps it: every later start (and reset)
//	    continues its learner, with its task, settings and feature
//	    numbering, instead of the configured learners; the regret
//	    comparator is off. A rejected file changes nothing.
//	forgetModel()                            back to fresh learners at the next start
//
// A file is read by data.NewStream and Stream.Next in a coroutine
// (iter.Pull, reader.go) whose io.Reader is the bytes fed: when they run out
// before end(), the coroutine is suspended and run returns "waiting"; the
// next run after a feed resumes it. So the page reads a file exactly as the
// command line does, in the core's memory bounds, whatever the chunking:
// long lines, long runs of comments, gzip members and padding alike.
//
// # The library (globalThis.occfm.lib)
//
// Learners and recommenders of their own, any number, each named by the
// id its create returns (lib_js.go libTable; docs/js-api.md lists every
// call). ui/lib/occfm.js calls them for a host page, and the page's
// Personalize view drives a Recommender with the same calls, on this core:
// a catalog's ratings are learned online in a Recommender of their own
// (the session above is left alone), then a new person rates items in the
// same model (personal.Personalizer: each rating one online update, or
// occfm-k's fold-in from all the ratings) and gets the top n (item-lift's
// ranking plus the person's genre taste, or the highest ŷ for other
// learners). A call that fails answers {"error": "…"} and leaves the
// object as it was; the Recommender's calls (lib_rec_js.go):
//
//	lib.defaults() → [learner, recommender]  the registry names Learner.create and
//	                                         Recommender.create make when none is named
//	                                         (libDefaultLearner, personal.DefaultLearner)
//	lib.recCreate(learner, seed) → [id, learner]
//	                                         "" is personal.DefaultLearner, item-lift; the
//	                                         learner is guarded with predictions clipped to
//	                                         the ratings seen
//	lib.recItemFile(id, bytes, name) → number of items
//	                                         the items of a MovieLens item list (u.item,
//	                                         movies.dat, movies.csv; personal.ReadItems;
//	                                         gzip or not), their genres as tags
//	lib.recLearnSynthetic(id) → true         starts learning personal.SyntheticCatalog
//	lib.recLearnFile(id, name, size) → true  starts learning a MovieLens ratings file,
//	                                         which recFeed(id, bytes), recEnd(id) and
//	                                         recWanted(id) give as feed, end and wanted
//	                                         above (gzip bytes are fine: the core gunzips,
//	                                         and counts the bytes read)
//	lib.recRun(id, ms) → progress            learns the catalog for at most ms; once its
//	                                         stream is done, the Recommender takes what it
//	                                         learned and builds the person: "done"
//	lib.recStop(id)                          stops it, nothing of it learned
//	lib.recCatalog(id) → {"items": [{id, title, tags, count, mean, known}], "listed",
//	                      "scale": {lo, hi, step, text}, "rankedBy": "match" | "stars"}
//	                                         known: in the ratings (only those can be rated
//	                                         and recommended); the first listed items are
//	                                         those given, the others met in the ratings only
//	lib.recRate(id, item, stars, n = 10) → {"top": [rec], "before": 3.52, "ms": 1.2}
//	                                         stars on the catalog's scale (off it, an error
//	                                         that names the scale); before, ŷ just before
//	                                         the rating; ms, the time in Go of the update
//	                                         and the top n
//	lib.recTop(id, n = 10) → [rec]           (changes nothing)
//	lib.recRated(id) → [{id, stars, before}] the person's ratings, in the order first
//	                                         given; before, ŷ just before the rating
//	lib.recCSV(id) → string                  "item_id,title,stars" and a line per rating
//	lib.recClear(id)                         forgets the ratings: the model is the
//	                                         learned catalog's again
//
// A catalog's progress: {"state": "waiting" | "running" | "done", "rows",
// "seconds", "rmse" (progressive), "progress" (0–1: rows of the synthetic
// catalog, or bytes of the ratings file read), "scale": {lo, hi, step}}; a
// malformed row of the ratings file answers the error that names its file,
// line and field. A rec: {"id", "title", "score" (the predicted stars),
// "rank" (what the list is in the order of), "reasons": ["because you
// liked “Star Wars (1977)” (5★)", …]}.
//
// The page sets occfm.personal itself, in JS (ui/js/personalize/session.js
// personalHooks): catalog(), rate(item, stars) and ratingsCSV() of its
// Personalize view, made of the calls above, for the console and its tests.
//
// Every number in the JSON the session writes is finite: a value that is
// NaN or ±Inf (the loss on a label of 1e300) is null, or its field is left
// out (jsonnum.go).
//
// A snapshot is compact JSON:
//
//	{"state": "waiting" | "running" | "done" | "error",
//	 "error": "core: u.data:3: field 3: …",     (when state is "error")
//	 "bad_row": true,                           the error is a malformed row
//	 "skipped": 312,                            rows skipped ("onError": "skip")
//	 "order": "the labels arrive in long runs: …", a file in its own order whose
//	                                            labels look sorted (data.LabelOrder)
//	 "held": 12000,                             rows read so far to be shuffled
//	 "skipped_first": ["u.data:17: field \"rating\": …"],  the first (at most 5)
//	                                            reasons, sent when one is added
//	 "source": "u.data", "layout": "movielens u.data (tab)",
//	 "task": "regression" | "classification", "rows": 12345, "features": 2625,
//	 "learners": [{"learner": "occfm", "delta": 10, "eta": 1, "rows": 12345,
//	               "seconds": 1.2, "updates_per_sec": 10287.5, "avg_loss": 1.08,
//	               "rmse": 1.04, "mae": 0.86,                 (regression)
//	               "error_rate": 0.09, "auc": 0.9, "logloss": 0.25,  (classification)
//	               "experts": [{"name": "δ=100", "delta": 100, "weight": 0.73,
//	                            "loss": 812.5, "retired": false}, …],
//	               "expert_regret": 3.1, "expert_regret_bound": 9.2,
//	                                            (occfm-auto: its experts' weights)
//	               "clip": true, "divergences": 0, "resets": 0, "refused": 0, …}],
//	                                            one core.Result each: the keys and
//	                                            figures of occfm run -json
//	 "points": [[rows, ms, m₁, l₁, m₂, l₂, …], …],  new checkpoints since the last
//	           snapshot: rows learned, learning time in ms, then per learner the
//	           progressive metric (RMSE or error rate) and the average loss;
//	           when a mixture of experts races (core.Mixture; the first
//	           one), two more: its regret to its best expert never retired
//	           and the mixture's bound on it
//	 "decimated": false,                        true when Go thinned its checkpoint
//	                                            spacing (the page should thin too)
//	 "preview": {"format": "csv", "layout": "csv (,), label \"a\"", "lines": ["…"],
//	             "columns": [{"name", "role"}], "warnings": ["…"]},
//	                                            (first snapshot of a file only;
//	                                            lines are decoded text for gzip)
//	 "warnings": ["…"],                         the reader's warnings, all of them,
//	                                            when more came since the preview
//	 "known": "…",                              what is known about the demo's optimum
//	 "regret": {"points": [[T, F(C), gap, bound, G, cum₁, lo₁, hi₁, …], …],
//	            "pending": 0, "lag": 120, "slope": [0.25], "d": 20,
//	            "max_rows": 20000, "truncated": false, "left_out": 0}}
//	    Regret checkpoints against the best C in K in hindsight (new ones only):
//	    learner i's regret at T lies in [loᵢ, hiᵢ]; bound is Theorem 3's
//	    12·D·G·T^¾ + D·G·T^¼ with D = 2δ. "no_delta": true says the first
//	    learner has no δ (occfm-auto): the comparator's ball is then its
//	    default, δ = 10, and the bound is OCCFM's there. The comparator takes at most 15 %
//	    of a slice from the learners when it has work (and the rest of a
//	    slice whose rows were learned), so it may lag ("pending", "lag"); it
//	    keeps at most max_rows rows. Start with "noRegret": true to turn it off,
//	    "regretGrowth": 2 for other geometric spacing, "regretEvery": 500 for a
//	    fixed one.
package main
