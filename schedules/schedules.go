package schedules

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Result reports what a schedule did.
type Result struct {
	// Delta is the change that convergence is judged on, measured by the
	// run's Metric (messages.Distance unless set with WithMetric): the
	// largest change of a marginal in the last pass of the loops that ran
	// (the largest over them, if several). It is 0 for a schedule without
	// loops, whose updates are not measured (an observer still sees each
	// update's change).
	Delta float64
	// Iterations is the number of loop passes made, summed over every Loop
	// the schedule ran (0 for a schedule without loops).
	Iterations int
	// Converged is false if any Loop stopped at its iteration cap before its
	// change fell below its tolerance.
	Converged bool
}

// Merge folds the result s of a later part of a sequence into r: the larger
// Delta (a NaN wins), the sum of Iterations, both Converged.
func (r Result) Merge(s Result) Result {
	if s.Delta > r.Delta || s.Delta != s.Delta {
		r.Delta = s.Delta
	}
	r.Iterations += s.Iterations
	r.Converged = r.Converged && s.Converged
	return r
}

// Metric measures the change of a marginal caused by one update.
type Metric func(before, after messages.Gaussian) float64

// Observer watches a run. Its methods are called synchronously.
type Observer interface {
	// Updated is called after every message update.
	Updated(f graph.FactorID, edge int, delta float64)
	// Iterated is called after every pass of a Loop, with the loop's name.
	Iterated(loop string, iteration int, delta float64)
}

// Runner carries the state of one run through a schedule tree: the graph,
// the context, the metric, the damping in force and the observer. Custom
// Schedule implementations call Update and Err.
type Runner struct {
	g        *graph.Graph
	ctx      context.Context
	metric   Metric // nil: messages.Distance
	damping  float64
	observer Observer
	passMax  float64 // largest change since the innermost running loop began its pass
	loops    int     // loops running
	// Residual scheduling: per loop, its steps with their inputs, and per
	// variable the clamped sum of its marginal's changes in the loop.
	residuals map[*LoopSchedule]*residualState
	changes   []float64
}

// Graph returns the graph being run.
func (r *Runner) Graph() *graph.Graph { return r.g }

// Err returns the context's error, if it was cancelled.
func (r *Runner) Err() error {
	if r.ctx == nil {
		return nil
	}
	return r.ctx.Err()
}

// Update sends the message of factor f on edge i with the damping in force
// and returns the change of the receiving marginal (measured only inside
// loops or for an observer; 0 otherwise).
func (r *Runner) Update(f graph.FactorID, i int) (float64, error) {
	before, after, err := r.g.Update(f, i, r.damping)
	if err != nil {
		return 0, err
	}
	if r.loops == 0 && r.observer == nil {
		return 0, nil // nobody reads the change outside loops
	}
	var d float64
	if r.metric == nil {
		d = messages.Distance(before, after) // the default, called directly
	} else {
		d = r.metric(before, after)
	}
	if d > r.passMax || d != d { // a NaN change is never converged
		r.passMax = d
	}
	if r.observer != nil {
		r.observer.Updated(f, i, d)
	}
	return d, nil
}

// Schedule is a plan of message updates. Schedules name factors by ID, so
// one schedule serves every graph built with the same structure (for example
// every match of the same shape).
type Schedule interface {
	Run(r *Runner) (Result, error)
}

// RunOption configures Run.
type RunOption func(*Runner)

// WithMetric replaces the convergence metric (default messages.Distance).
func WithMetric(m Metric) RunOption { return func(r *Runner) { r.metric = m } }

// WithObserver installs an observer.
func WithObserver(o Observer) RunOption { return func(r *Runner) { r.observer = o } }

// Run executes s on g. It stops at the first failed update, or when ctx is
// cancelled (checked before every loop pass), returning the error.
func Run(ctx context.Context, g *graph.Graph, s Schedule, opts ...RunOption) (Result, error) {
	return NewRunner(g, opts...).Run(ctx, s)
}

// NewRunner returns a Runner for g, to run schedules repeatedly without
// allocating (Run allocates one Runner per call).
func NewRunner(g *graph.Graph, opts ...RunOption) *Runner {
	r := &Runner{g: g}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Run executes s on the runner's graph (see the package function Run).
func (r *Runner) Run(ctx context.Context, s Schedule) (Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	r.ctx, r.damping, r.passMax, r.loops = ctx, 0, 0, 0
	res, err := s.Run(r)
	r.ctx = nil
	return res, err
}

// StepSchedule is a single message update: factor F sends on edge Edge.
type StepSchedule struct {
	Factor graph.FactorID
	Edge   int
}

// Step returns the schedule that updates the message of factor f on edge i.
func Step(f graph.FactorID, i int) *StepSchedule { return &StepSchedule{Factor: f, Edge: i} }

// Run performs the update.
func (s *StepSchedule) Run(r *Runner) (Result, error) {
	_, err := r.Update(s.Factor, s.Edge)
	return Result{Converged: true}, err
}

// SequenceSchedule runs its parts in order.
type SequenceSchedule struct {
	Parts []Schedule
}

// Sequence returns the schedule that runs parts in order; its Delta is the
// largest of theirs.
func Sequence(parts ...Schedule) *SequenceSchedule { return &SequenceSchedule{Parts: parts} }

// Run runs the parts in order.
func (s *SequenceSchedule) Run(r *Runner) (Result, error) {
	res := Result{Converged: true}
	for _, p := range s.Parts {
		if st, ok := p.(*StepSchedule); ok {
			// The common case, without the dynamic call and result merge.
			if _, err := r.Update(st.Factor, st.Edge); err != nil {
				return res, err
			}
			continue
		}
		pr, err := p.Run(r)
		res = res.Merge(pr)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// Defaults of Loop.
const (
	DefaultTolerance     = 1e-6
	DefaultMaxIterations = 100
)

// LoopSchedule repeats its body until the body's Delta is at most Tolerance,
// or MaxIterations passes have run (then Converged is false). Damping in
// [0, 1) applies to every update inside the body: the stored message is
// new^(1−Damping)·old^Damping.
type LoopSchedule struct {
	Name          string
	Body          Schedule
	Tolerance     float64
	MaxIterations int
	Damping       float64
	// Residual, if positive, makes every pass after the first skip each
	// update whose inputs (the marginals of all its factor's variables)
	// have together changed by at most Residual since it last ran, as
	// measured by the run's metric; see the Residual option.
	Residual float64
}

// LoopOption configures Loop.
type LoopOption func(*LoopSchedule)

// Tolerance sets the convergence tolerance (default DefaultTolerance).
func Tolerance(tol float64) LoopOption { return func(l *LoopSchedule) { l.Tolerance = tol } }

// MaxIterations sets the iteration cap (default DefaultMaxIterations).
func MaxIterations(n int) LoopOption { return func(l *LoopSchedule) { l.MaxIterations = n } }

// Damping sets the damping weight d in [0, 1) of the old message.
func Damping(d float64) LoopOption { return func(l *LoopSchedule) { l.Damping = d } }

// Residual makes the loop skip, after its first pass, every update whose
// inputs have changed by at most theta since the update last ran: residual
// scheduling. Late in a run only a few parts of a graph still move (the
// last passes over a TrueSkill difference chain change one or two links),
// and the updates elsewhere would recompute the messages they already sent.
// The inputs of an update of factor f are the marginals of all f's
// variables (its own edge's included, which expectation propagation reads);
// their changes are the metric values the loop measures anyway, summed, so
// the bookkeeping costs a few additions per update. Skipped updates count
// as no change and are not reported to an observer; the loop still stops
// when a pass changes nothing by more than the tolerance. Choose theta well
// below the tolerance (a tenth of the default 1e-6 kept TrueSkill's results
// within 1e-6 of the converged ones over 400 random games). The body must consist of Steps and
// Sequences. A Runner reads the body's steps when it first runs the loop and
// keeps them: after changing a residual loop's body, use a new Runner.
func Residual(theta float64) LoopOption { return func(l *LoopSchedule) { l.Residual = theta } }

// Name names the loop for observers and drawings.
func Name(name string) LoopOption { return func(l *LoopSchedule) { l.Name = name } }

// Loop returns a loop over body.
func Loop(body Schedule, opts ...LoopOption) *LoopSchedule {
	l := &LoopSchedule{Name: "loop", Body: body, Tolerance: DefaultTolerance, MaxIterations: DefaultMaxIterations}
	for _, o := range opts {
		o(l)
	}
	return l
}

// ErrLoopConfig reports a loop that could never run or never stop.
var ErrLoopConfig = errors.New("invalid loop")

// Validate reports parameters with which the loop could never run or stop
// (ErrLoopConfig).
func (l *LoopSchedule) Validate() error {
	if l.MaxIterations < 1 || !(l.Tolerance >= 0) || !(l.Damping >= 0 && l.Damping < 1) || !(l.Residual >= 0) {
		return fmt.Errorf("schedules: loop %q: %w: tolerance %v, max iterations %d, damping %v, residual %v",
			l.Name, ErrLoopConfig, l.Tolerance, l.MaxIterations, l.Damping, l.Residual)
	}
	return nil
}

// Run repeats the body. The returned Delta is the body's change in the last
// pass and Iterations includes the body's own loops.
func (l *LoopSchedule) Run(r *Runner) (Result, error) {
	if err := l.Validate(); err != nil {
		return Result{}, err
	}
	savedDamping, savedMax := r.damping, r.passMax
	r.damping = l.Damping
	r.loops++
	allPasses := 0.0
	defer func() {
		r.damping = savedDamping
		r.passMax = math.Max(savedMax, allPasses)
		r.loops--
	}()
	var rs *residualState
	if l.Residual > 0 {
		var err error
		if rs, err = r.residual(l); err != nil {
			return Result{}, err
		}
	}
	res := Result{}
	inner := 0
	for it := 1; it <= l.MaxIterations; it++ {
		if err := r.ctx.Err(); err != nil {
			res.Converged = false
			return res, fmt.Errorf("schedules: loop %q: %w", l.Name, err)
		}
		r.passMax = 0
		var br Result
		var err error
		if rs != nil {
			br, err = r.residualPass(rs, l.Residual, it == 1)
		} else {
			br, err = l.Body.Run(r)
		}
		delta := r.passMax
		allPasses = math.Max(allPasses, delta)
		inner += br.Iterations
		res = Result{Delta: delta, Iterations: it + inner, Converged: br.Converged && delta <= l.Tolerance}
		if r.observer != nil {
			r.observer.Iterated(l.Name, it, delta)
		}
		if err != nil {
			res.Converged = false
			return res, err
		}
		if delta <= l.Tolerance {
			break
		}
	}
	return res, nil
}
