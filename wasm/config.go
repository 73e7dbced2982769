package main

import (
	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// config is what the page's start() passes (see doc.go).
type config struct {
	Source   string   `json:"source"` // "demo" or "file"
	Demo     string   `json:"demo"`
	File     string   `json:"file"`
	Learners []string `json:"learners"`
	// Follow names the learner the model panel and saveModel follow (the
	// page's numbers too); empty or not racing: the first.
	Follow string            `json:"follow"`
	Task   string            `json:"task"`   // auto, regression, classification
	Format string            `json:"format"` // auto, libsvm, csv, movielens
	Roles  map[string]string `json:"roles"`
	Delta  float64           `json:"delta"`
	Eta    float64           `json:"eta"`
	Gamma  string            `json:"gamma"` // 1/sqrt(t), 2/(t+1), constant
	Loss   string            `json:"loss"`  // auto, squared, logistic
	Seed   uint64            `json:"seed"`
	// resume, when not nil, is the model file whose learner the session
	// continues (newSessionFrom), in place of a new one.
	resume *core.Model
	// NoRegret turns the regret comparator off (it is on by default).
	NoRegret bool `json:"noRegret"`
	// RegretGrowth is the ratio between regret checkpoints (0: 1.5);
	// RegretEvery, when positive, spaces them every RegretEvery rows.
	RegretGrowth float64 `json:"regretGrowth"`
	RegretEvery  int     `json:"regretEvery"`
	// Clip is auto (on for ratings: the ratings demo or a MovieLens file),
	// on or off: regression predictions clipped to the label range seen
	// (core.GuardSettings.Clip).
	Clip string `json:"clip"`
	// OnDiverge is reset (the default: a diverged learner is reset up to 3
	// times, then paused) or pause (paused at once).
	OnDiverge string `json:"onDiverge"`
	// OnError is what a malformed row does: "stop" (or "") ends the
	// session with its error, "skip" passes over it and counts it.
	OnError string `json:"onError"`
	// MaxMemory is the memory budget in bytes of the learners, their
	// metrics, the comparator and the feature dictionaries
	// (core.MemoryBudget): 0 means core.DefaultMemoryLimit (512 MiB),
	// negative no limit. Past it the session stops with the budget's
	// message, as occfm run -max-memory does, before wasm memory runs out.
	MaxMemory int64 `json:"maxMemory"`
	// Shuffle, for a file, reads every row into memory (counted against
	// MaxMemory) and plays them in the seeded random order of occfm run
	// -shuffle SEED (data.Shuffled); 0 keeps the file's order.
	Shuffle uint64 `json:"shuffle"`
}

// decodeJSON reads the page's config JSON s into c as
// json.Unmarshal(s, c) would (jsonr.go).
func (c *config) decodeJSON(s string) error {
	return decodeJSONObject(s, func(r *jsonReader, key string) error {
		switch jsonKey(key) {
		case "SOURCE":
			return r.stringField(`"source"`, &c.Source)
		case "DEMO":
			return r.stringField(`"demo"`, &c.Demo)
		case "FILE":
			return r.stringField(`"file"`, &c.File)
		case "LEARNERS":
			return r.stringsField(`"learners"`, &c.Learners)
		case "FOLLOW":
			return r.stringField(`"follow"`, &c.Follow)
		case "TASK":
			return r.stringField(`"task"`, &c.Task)
		case "FORMAT":
			return r.stringField(`"format"`, &c.Format)
		case "ROLES":
			return r.stringMapField(`"roles"`, &c.Roles)
		case "DELTA":
			return r.floatField(`"delta"`, &c.Delta)
		case "ETA":
			return r.floatField(`"eta"`, &c.Eta)
		case "GAMMA":
			return r.stringField(`"gamma"`, &c.Gamma)
		case "LOSS":
			return r.stringField(`"loss"`, &c.Loss)
		case "SEED":
			return r.uint64Field(`"seed"`, &c.Seed)
		case "NOREGRET":
			return r.boolField(`"noRegret"`, &c.NoRegret)
		case "REGRETGROWTH":
			return r.floatField(`"regretGrowth"`, &c.RegretGrowth)
		case "REGRETEVERY":
			return r.intField(`"regretEvery"`, &c.RegretEvery)
		case "CLIP":
			return r.stringField(`"clip"`, &c.Clip)
		case "ONDIVERGE":
			return r.stringField(`"onDiverge"`, &c.OnDiverge)
		case "ONERROR":
			return r.stringField(`"onError"`, &c.OnError)
		case "MAXMEMORY":
			return r.int64Field(`"maxMemory"`, &c.MaxMemory)
		case "SHUFFLE":
			return r.uint64Field(`"shuffle"`, &c.Shuffle)
		}
		return r.skip()
	})
}

// coreConfig returns the settings every learner of the session is made
// with for task t, or the error of a gamma or loss the core does not know
// (newSession reports it; setTask's config was checked there).
func (c config) coreConfig(t data.Task) (core.Config, error) {
	gamma, err := core.ParseSchedule(c.Gamma)
	if err != nil {
		return core.Config{}, err
	}
	loss, err := core.ParseLoss(c.Loss)
	return core.Config{Task: t, Delta: c.Delta, Eta: c.Eta, Gamma: gamma, Loss: loss, Seed: c.Seed}, err
}
