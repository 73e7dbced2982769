package core

import (
	"errors"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// Run is the one loop that plays rows through learners, for the command
// line and the page alike: every player plays every row, predict then
// update (Play), in the order Source gives them, and the run observes the
// regret and holds the memory budget as it goes. Learners never own the
// loop; the caller decides how long a Step lasts.
//
// Rows are played in batches of Batch rows: each player plays the whole
// batch under one reading of the clock, so that a learner that takes
// nanoseconds a row is not timed by a clock that takes as long. The page
// plays batches of one row, to keep within its deadline when a row costs
// milliseconds.
type Run struct {
	// Source yields the labelled rows (labels already in the task's
	// form), then io.EOF. Any other error ends the step; the rows before
	// it in its batch are played first.
	Source data.ExampleSource
	// Players are the learners, each with its metrics.
	Players []*Player
	// Regret, when not nil, observes every row with the players' losses.
	// Solving its checkpoints is the caller's (Regret.Solve), at its own
	// pace.
	Regret *Regret
	// Budget, when not nil, is checked after the rows of every player
	// (BudgetCheck: O(1) a row); a run over it stops with its error.
	Budget *BudgetCheck
	// Batch is the number of rows a batch holds. Zero means 256.
	Batch int
	// Clock returns the time since any fixed origin; nil means time.Now's
	// monotonic clock. The page passes a cheaper one.
	Clock func() time.Duration
	// Row, when not nil, is called after every row has been played by
	// every player, with the players' predictions and losses (valid until
	// it returns).
	Row func(ex data.Example, yhat, loss []float64)

	// Rows is the number of rows played so far.
	Rows int

	batch      []data.Example
	yhat, loss [][]float64   // [row][player]
	lastRow    int           // the rows of the batch played when the budget stopped it
	last       time.Duration // the clock's last reading
	start      time.Time
}

// defaultBatch is Run.Batch's default.
const defaultBatch = 256

// Step plays rows until maxRows rows have been played in this step (0: no
// limit), the clock reaches until (checked after each batch; 0: no
// deadline), or Source ends. It returns the rows it played and io.EOF when
// Source has ended, the source's error when it failed, or the budget's
// error; the rows of a batch before such an error are played and counted.
func (r *Run) Step(until time.Duration, maxRows int) (int, error) {
	r.init()
	played := 0
	for maxRows <= 0 || played < maxRows {
		n := len(r.batch)
		if maxRows > 0 {
			n = min(n, maxRows-played)
		}
		k, err := r.read(n)
		if perr := r.play(k); perr != nil {
			r.Rows += r.lastRow
			return played + r.lastRow, perr
		}
		played += k
		r.Rows += k
		if err != nil {
			return played, err
		}
		if until > 0 && r.last >= until {
			break
		}
	}
	return played, nil
}

// init makes the batch buffers on the first Step.
func (r *Run) init() {
	if r.batch != nil {
		return
	}
	size := r.Batch
	if size <= 0 {
		size = defaultBatch
	}
	r.batch = make([]data.Example, size)
	r.yhat = make([][]float64, size)
	r.loss = make([][]float64, size)
	for i := range size {
		r.yhat[i] = make([]float64, len(r.Players))
		r.loss[i] = make([]float64, len(r.Players))
	}
	if r.Clock == nil {
		r.start = time.Now()
	}
}

// now reads the clock.
func (r *Run) now() time.Duration {
	if r.Clock != nil {
		return r.Clock()
	}
	return time.Since(r.start)
}

// read fills the batch with up to n rows and returns how many, with the
// error that ended it early (io.EOF at the end of the source).
func (r *Run) read(n int) (int, error) {
	for k := range n {
		if err := r.Source.Next(&r.batch[k]); err != nil {
			return k, err
		}
	}
	return n, nil
}

// play plays the first n rows of the batch through every player, then
// observes them. The clock is read once before the batch and once after each
// player (the page's clock is a call into JS): player j's time runs from
// the previous reading to its own. Over the budget, it stops at once and
// returns the budget's error, with lastRow the rows of the batch played by
// the player stopped.
func (r *Run) play(n int) error {
	if n == 0 {
		return nil
	}
	observe := r.Regret != nil || r.Row != nil
	t := r.now()
	for j, p := range r.Players {
		r.Budget.start(j)
		var loss Loss
		if observe {
			loss = p.Metrics.Loss()
		}
		for i := range n {
			ex := r.batch[i]
			if !r.Budget.admits(j, ex) {
				r.last = r.now()
				p.Elapsed += r.last - t
				r.lastRow = i
				return r.Budget.Err()
			}
			yhat := Play(p.Learner, ex, p.Metrics)
			if observe {
				r.yhat[i][j] = yhat
				r.loss[i][j] = loss.Value(yhat, ex.Y)
			}
			if r.Budget.over(j, r.Rows+i+1, ex) {
				r.last = r.now()
				p.Elapsed += r.last - t
				r.lastRow = i
				return r.Budget.Err()
			}
		}
		r.last = r.now()
		p.Elapsed += r.last - t
		t = r.last
	}
	for i := range n {
		if r.Regret != nil {
			r.Regret.Observe(r.batch[i], r.loss[i])
		}
		if r.Row != nil {
			r.Row(r.batch[i], r.yhat[i], r.loss[i])
		}
	}
	return nil
}

// Result is what a learner did in a run, as the command line's -json lines
// and the page's snapshots both report it: one schema, with the same keys
// (snake_case) and the same figures. The command line writes it with
// encoding/json, the page with AppendJSON, and a test holds the two to the
// same bytes.
type Result struct {
	Learner string `json:"learner"`
	// Delta and Eta are the learner's settings in effect (its defaults
	// for 0), or the run's for a learner that has none.
	Delta float64 `json:"delta"`
	Eta   float64 `json:"eta"`
	// Rows is the number of rows the learner played; Seconds its time in
	// Play (predict, score, update), and UpdatesPerSec the rows it scored
	// a second of it.
	Rows          int `json:"rows"`
	Seconds       Num `json:"seconds"`
	UpdatesPerSec Num `json:"updates_per_sec"`
	// The progressive metrics (Metrics.Summary): each row scored before it
	// is learned. Those of the other task are nil and left out; with no
	// row scored, all are, and AvgLoss is null.
	AvgLoss   Num  `json:"avg_loss"`
	RMSE      *Num `json:"rmse,omitempty"`
	MAE       *Num `json:"mae,omitempty"`
	ErrorRate *Num `json:"error_rate,omitempty"`
	AUC       *Num `json:"auc,omitempty"`
	LogLoss   *Num `json:"logloss,omitempty"`
	// A Mixture's experts with their weights, and its regret to its best
	// expert never retired with the mixture's bound on it
	// (OCCFMAuto.Regret).
	Experts           []Expert `json:"experts,omitempty"`
	ExpertRegret      *Num     `json:"expert_regret,omitempty"`
	ExpertRegretBound *Num     `json:"expert_regret_bound,omitempty"`
	// The guard (GuardReport): whether predictions are clipped to the
	// label range, the divergences and resets, the row where the learner
	// was paused (0: it was not), the rows not learned and why, what to
	// change after a divergence or an expert's failure, and the first
	// events.
	Clip        bool     `json:"clip"`
	Divergences int      `json:"divergences"`
	Resets      int      `json:"resets"`
	PausedAt    int      `json:"paused_at,omitempty"`
	Refused     int      `json:"refused"`
	RefusedWhy  string   `json:"refused_why,omitempty"`
	GuardAdvice string   `json:"guard_advice,omitempty"`
	GuardEvents []string `json:"guard_events,omitempty"`
}

// NewResult returns the Result of p after rows rows, with s its metrics'
// Summary (the page reuses one for a while: it costs O(rows) on a
// classification stream), for a run of the settings cfg (the Delta and Eta
// of a learner that reports none).
func NewResult(p *Player, s Summary, rows int, cfg Config) Result {
	r := Result{
		Learner: p.Name, Delta: cfg.Delta, Eta: cfg.Eta, Rows: rows,
		Seconds:       Num(p.Elapsed.Seconds()),
		UpdatesPerSec: Num(perSecond(s.Rows, p.Elapsed.Seconds())),
		AvgLoss:       Num(s.AvgLoss),
	}
	inner := p.Learner
	if c, ok := p.Learner.(Configured); ok {
		r.Delta, r.Eta = DeltaNow(p.Learner), c.Config().Eta
	}
	if g, ok := p.Learner.(*Guarded); ok {
		inner = g.Learner()
		rep := g.Report()
		r.Clip = g.Clipping()
		r.Divergences, r.Resets, r.Refused = rep.Divergences, rep.Resets, rep.Refused
		if rep.Paused {
			r.PausedAt = rep.PausedAt
		}
		if rep.Refused > 0 {
			r.RefusedWhy = rep.RefusedWhy()
		}
		if rep.Divergences > 0 || rep.Retired() > 0 {
			r.GuardAdvice = g.DivergenceAdvice("δ", "η")
		}
		for _, e := range rep.Events {
			r.GuardEvents = append(r.GuardEvents, e.String())
		}
	}
	if a, ok := inner.(Mixture); ok {
		r.Experts = a.Experts()
		reg, bound := a.Regret()
		r.ExpertRegret, r.ExpertRegretBound = numPtr(reg), numPtr(bound)
	}
	if s.Rows == 0 {
		r.AvgLoss = Num(math.NaN())
		return r
	}
	if p.Metrics.Task() == data.Classification {
		r.ErrorRate, r.AUC, r.LogLoss = numPtr(s.ErrorRate), numPtr(s.AUC), numPtr(s.LogLoss)
	} else {
		r.RMSE, r.MAE = numPtr(s.RMSE), numPtr(s.MAE)
	}
	return r
}

// perSecond is n / seconds, or 0 before any time has passed.
func perSecond(n int, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return float64(n) / seconds
}

// The JSON of a Result, written without encoding/json, which the page's
// wasm leaves out to stay small; the page writes the rest of its snapshots
// with AppendNum and AppendString too.

// AppendJSON appends r as encoding/json writes it, without encoding/json
// (which the page's wasm leaves out to stay small).
func (r *Result) AppendJSON(b []byte) []byte {
	b = AppendString(append(b, `{"learner":`...), r.Learner)
	b = AppendNum(append(b, `,"delta":`...), r.Delta)
	b = AppendNum(append(b, `,"eta":`...), r.Eta)
	b = strconv.AppendInt(append(b, `,"rows":`...), int64(r.Rows), 10)
	b = AppendNum(append(b, `,"seconds":`...), float64(r.Seconds))
	b = AppendNum(append(b, `,"updates_per_sec":`...), float64(r.UpdatesPerSec))
	b = AppendNum(append(b, `,"avg_loss":`...), float64(r.AvgLoss))
	for _, f := range [...]struct {
		key string
		x   *Num
	}{{`,"rmse":`, r.RMSE}, {`,"mae":`, r.MAE}, {`,"error_rate":`, r.ErrorRate}, {`,"auc":`, r.AUC}, {`,"logloss":`, r.LogLoss}} {
		if f.x != nil {
			b = AppendNum(append(b, f.key...), float64(*f.x))
		}
	}
	if len(r.Experts) > 0 {
		b = append(b, `,"experts":[`...)
		for i, e := range r.Experts {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(append(b, `{"name":`...), e.Name)
			b = AppendNum(append(b, `,"delta":`...), e.Delta)
			b = AppendNum(append(b, `,"eta":`...), e.Eta)
			b = AppendNum(append(b, `,"weight":`...), e.Weight)
			b = AppendNum(append(b, `,"loss":`...), e.Loss)
			b = strconv.AppendBool(append(b, `,"retired":`...), e.Retired)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.ExpertRegret != nil {
		b = AppendNum(append(b, `,"expert_regret":`...), float64(*r.ExpertRegret))
	}
	if r.ExpertRegretBound != nil {
		b = AppendNum(append(b, `,"expert_regret_bound":`...), float64(*r.ExpertRegretBound))
	}
	b = strconv.AppendBool(append(b, `,"clip":`...), r.Clip)
	b = strconv.AppendInt(append(b, `,"divergences":`...), int64(r.Divergences), 10)
	b = strconv.AppendInt(append(b, `,"resets":`...), int64(r.Resets), 10)
	if r.PausedAt != 0 {
		b = strconv.AppendInt(append(b, `,"paused_at":`...), int64(r.PausedAt), 10)
	}
	b = strconv.AppendInt(append(b, `,"refused":`...), int64(r.Refused), 10)
	if r.RefusedWhy != "" {
		b = AppendString(append(b, `,"refused_why":`...), r.RefusedWhy)
	}
	if r.GuardAdvice != "" {
		b = AppendString(append(b, `,"guard_advice":`...), r.GuardAdvice)
	}
	if len(r.GuardEvents) > 0 {
		b = append(b, `,"guard_events":[`...)
		for i, e := range r.GuardEvents {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, e)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// registry holds every learner, by name: one line a learner, whose Spec
// sits in the learner's own file beside its update, its model state codec
// (stateCode) and its picture (docs/adding-a-learner.md).
var registry = byName(
	occfmSpec,
	occfmAutoSpec,
	occfmLinSpec,
	occfmKSpec,
	ccfmPairsSpec,
	ccfmOGDSpec,
	ccfmPASpec,
	ccfmFTRLSpec,
	fmFTRLSpec,
	cfmFTRLSpec,
	meanSpec,
	biasSpec,
	linearSpec,
	itemLiftSpec,
)

// byName indexes specs by name.
func byName(specs ...Spec) map[string]Spec {
	m := make(map[string]Spec, len(specs))
	for _, s := range specs {
		m[s.Name] = s
	}
	return m
}

// registryTypes maps the type of each registered learner to its name.
var registryTypes = sync.OnceValue(typesOfRegistry)

// typesOfRegistry maps the type of each learner in registry to its name.
func typesOfRegistry() map[reflect.Type]string {
	m := make(map[reflect.Type]string, len(registry))
	for _, s := range registry {
		m[reflect.TypeOf(s.state())] = s.Name
	}
	return m
}

// NameOf returns the registry name of l's type, or "" for a learner the
// registry does not make (for a *Guarded, ask its Learner).
func NameOf(l Learner) string { return registryTypes()[reflect.TypeOf(l)] }

// SpecOf returns the Spec of the learner registered as name, and whether
// there is one.
func SpecOf(name string) (Spec, bool) {
	s, ok := registry[name]
	return s, ok
}

// DefaultConfig returns the settings the learner registered as name uses
// for task when every setting is left at its default (its Config), or the
// zero Config when it reports none.
func DefaultConfig(name string, task data.Task) (Config, error) {
	l, err := NewLearner(name, Config{Task: task})
	if err != nil {
		return Config{}, err
	}
	if c, ok := l.(Configured); ok {
		return c.Config(), nil
	}
	return Config{}, nil
}

// HasPairs reports whether l's C can hold pairs of features: whether l is
// not registered with Spec.NoPairs.
func HasPairs(l Learner) bool { return !registry[NameOf(l)].NoPairs }

// InBall reports whether l keeps C (or its pair block) in the nuclear-norm
// ball ‖C‖* ≤ δ: whether its registry Spec says Ball.
func InBall(l Learner) bool { return registry[NameOf(l)].Ball }

// DefaultLearner is the registry name of the learner `occfm run` and the
// page use when none is named: OCCFMAuto, which needs no δ.
const DefaultLearner = "occfm-auto"

// Learners returns the specs of all registered learners, sorted by name.
func Learners() []Spec {
	specs := make([]Spec, 0, len(registry))
	for _, s := range registry {
		specs = append(specs, s)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// NewLearner returns a new learner of the named kind for c, or the error of
// an unknown name or of c.Check.
func NewLearner(name string, c Config) (Learner, error) {
	s, err := specFor(name, c)
	if err != nil {
		return nil, err
	}
	return s.New(c), nil
}

// specFor returns the registry's spec of name, or the error of an unknown
// name or of c.Check: the lookup NewLearner and NewGuarded share.
func specFor(name string, c Config) (Spec, error) {
	s, ok := registry[name]
	if !ok {
		return Spec{}, unknownLearner(name)
	}
	if err := c.Check(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// RunSettings are what a run is assembled from, the same for the command
// line's flags and the page's controls: the learners by registry name and
// the settings they share.
type RunSettings struct {
	// Learners are registry names, one player each, in the order they
	// play a row.
	Learners []string
	// Config holds the task, δ, η, γ, loss and seed of every learner; the
	// players' metrics score Config.LossOf.
	Config Config
	// Guard is the guard every learner plays behind (Guarded).
	Guard GuardSettings
	// Resume, when not nil, is the model file whose learner continues
	// (ResumeGuarded): the run's one player, Learners and Config aside.
	Resume *Model
	// Regret, when not nil, asks for the regret comparator with these
	// settings; its Comparator's δ and loss are the run's (RunDelta and
	// Config.LossOf), whatever it holds.
	Regret *RegretSettings
	// ZeroLossDelta, when positive, is the least δ whose ball holds a C of
	// loss 0 on every row (a noise-free planted demo, demo.Demo): at or
	// above it under the Squared loss, the regret's best loss is known
	// (RegretSettings.ZeroBest).
	ZeroLossDelta float64
}

// CheckLearners returns the error of the first name the registry does not
// know, naming those it does, without making a learner.
func CheckLearners(names []string) error {
	for _, name := range names {
		if _, ok := registry[name]; !ok {
			return unknownLearner(name)
		}
	}
	return nil
}

// unknownLearner is the error of a name the registry does not know, naming
// those it does.
func unknownLearner(name string) error {
	names := make([]string, 0, len(registry))
	for _, s := range Learners() {
		names = append(names, s.Name)
	}
	return errors.New("core: unknown learner " + str.Quote(name) + " (have [" + strings.Join(names, " ") + "])")
}

// Assemble makes a run's players, each a guarded learner with its metrics,
// and its regret comparator (nil unless s.Regret is set): the one place
// the command line and the page turn settings into a run.
func Assemble(s RunSettings) ([]*Player, *Regret, error) {
	loss := s.Config.LossOf()
	var players []*Player
	add := func(name string, l *Guarded) {
		players = append(players, &Player{Name: name, Learner: l, Metrics: NewMetrics(s.Config.Task, loss)})
	}
	if s.Resume != nil {
		l, err := ResumeGuarded(*s.Resume, s.Guard)
		if err != nil {
			return nil, nil, err
		}
		add(s.Resume.Name, l)
	} else {
		for _, name := range s.Learners {
			l, err := NewGuarded(name, s.Config, s.Guard)
			if err != nil {
				return nil, nil, err
			}
			add(name, l)
		}
	}
	if s.Regret == nil || len(players) == 0 {
		return players, nil, nil
	}
	rs := *s.Regret
	rs.Comparator.Delta, rs.Comparator.Loss = RunDelta(players, s.Config), loss
	rs.ZeroBest = s.ZeroLossDelta > 0 && loss == Squared && rs.Comparator.Delta >= s.ZeroLossDelta
	return players, NewRegret(rs, len(players)), nil
}

// RunDelta returns the δ of the run's first player as it reports it
// (Configured), else c.Delta: the ball the regret comparator is given.
func RunDelta(players []*Player, c Config) float64 {
	if len(players) > 0 {
		if cf, ok := players[0].Learner.(Configured); ok {
			return cf.Config().Delta
		}
	}
	return c.Delta
}

// CheckTaken returns an error when c sets δ, η or γ and none of the
// learners registered as names takes it, naming the learners that would:
// a setting given is used or refused, never silently dropped. Learners
// that do not take a setting another one takes play without it.
func CheckTaken(names []string, c Config) error {
	var set, taken Setting
	if c.Delta != 0 {
		set |= TakesDelta
	}
	if c.Eta != 0 {
		set |= TakesEta
	}
	if c.Gamma != InvSqrt {
		set |= TakesGamma
	}
	for _, n := range names {
		taken |= registry[n].Takes
	}
	missing := set &^ taken
	if missing == 0 {
		return nil
	}
	what, x := "γ (gamma)", TakesGamma
	switch {
	case missing&TakesDelta != 0:
		what, x = "δ (delta)", TakesDelta
	case missing&TakesEta != 0:
		what, x = "η (eta)", TakesEta
	}
	var takers []string
	for _, s := range Learners() {
		if s.Takes&x != 0 {
			takers = append(takers, s.Name)
		}
	}
	return errors.New("core: no learner of the run (" + strings.Join(names, ", ") + ") takes " + what + "; those that do: " + strings.Join(takers, ", "))
}

// NewGuarded returns the named learner of the registry for c, guarded by s.
func NewGuarded(name string, c Config, s GuardSettings) (*Guarded, error) {
	spec, err := specFor(name, c)
	if err != nil {
		return nil, err
	}
	fresh := func() Learner { return spec.New(c) }
	return &Guarded{set: s.withDefaults(), name: name, spec: spec, cfg: c, task: c.Task, loss: c.LossOf(), fresh: fresh, inner: fresh()}, nil
}
