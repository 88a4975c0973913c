package schedules

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
)

// Convergence reports what a schedule did.
type Convergence struct {
	// Delta is the change that convergence is judged on, measured by the
	// run's Metric (messages.Distance unless set with WithMetric): the
	// largest change of a marginal in the last pass of the loops that ran
	// (the largest over them, if several). It is 0 for a schedule without
	// loops, whose updates are not measured (an observer still sees each
	// update's change). A change from a uniform marginal, which is
	// unbounded, is reported as math.MaxFloat64.
	Delta float64
	// Iterations is the number of loop passes made, summed over every Loop
	// the schedule ran (0 for a schedule without loops).
	Iterations int
	// Converged is false if any Loop stopped at its iteration cap before its
	// change fell below its tolerance. A loop converges when a pass made by
	// this run changed no marginal by more than the tolerance: the messages
	// are then at a fixed point, wherever the run started. Running a graph
	// that an earlier run left converged therefore converges in one pass,
	// whatever the cap; to ask whether a cap suffices from the priors, call
	// the graph's Reset first. A schedule without loops makes no pass that
	// is measured, and reports true: on a tree, Tree's two passes are exact
	// (see Cyclic for a graph with a cycle).
	Converged bool
	// Cyclic reports that the graph run has a cycle through its latent
	// variables (graph.Graph.HasCycle): message passing then counts
	// evidence more than once around each cycle, and the marginals are
	// approximate even at convergence and even when every factor is exact
	// (package graph/exact solves a linear-Gaussian graph exactly).
	Cyclic bool
}

// Merge folds the result s of a later part of a sequence into r: the larger
// Delta (a NaN wins), the sum of Iterations, both Converged, either Cyclic.
func (r Convergence) Merge(s Convergence) Convergence {
	if s.Delta > r.Delta || s.Delta != s.Delta {
		r.Delta = s.Delta
	}
	r.Iterations += s.Iterations
	r.Converged = r.Converged && s.Converged
	r.Cyclic = r.Cyclic || s.Cyclic
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

// Runner runs schedules on one graph. It compiles each schedule it is given
// into a plan (see Plan) on first use and keeps it, so that running the
// same schedule again costs no allocation and no interpretation of the
// schedule's tree. Custom Schedule implementations call Update and Err.
//
// A Runner is not safe for concurrent use, as its graph is not; use one per
// goroutine (with its own graph).
type Runner struct {
	g *graph.Graph
	// ctx is the running context, nil outside a run and for a context
	// that can never end; running is set during a Run.
	ctx      context.Context
	running  bool
	metric   Metric // nil: messages.Distance
	damping  float64
	observer Observer
	passMax  float64 // largest change since the innermost running loop began its pass
	loops    int     // loops running
	// Plans by schedule: the last one used, then all.
	lastSchedule Schedule
	lastPlan     *Plan
	plans        map[Schedule]*Plan
	frames       []frame // loops running, outermost first
	// The residual loop running (1 + its index in frames; 0: none, and
	// only one can run at a time, its body being steps), per variable the
	// clamped sum of its changes in that loop, and per step of it its
	// inputs' sum when it last ran.
	residual int
	changes  []float64
	seen     []float64
	// sending is 1 + the factor whose Message is running and sendingEdge
	// its edge, to name the factor if it panics (0: none). They are
	// indices, not the op, so that Update's op stays on the stack.
	sending, sendingEdge int32
}

// Err returns the error of the running context, if it is done or its
// deadline has passed (see ctxErr); nil outside a run.
func (r *Runner) Err() error {
	if r == nil {
		return nil
	}
	return ctxErr(r.ctx)
}

// ctxErr returns ctx's error, or context.DeadlineExceeded once ctx's
// deadline has passed: the timer that sets a context's error runs on its
// own goroutine, and may not have run yet when the deadline is only just
// past. Every check of the context goes through it. A nil ctx (a schedule's
// Run called outside Runner.Run) never ends.
func ctxErr(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return endedErr(ctx)
}

// endedErr is ctxErr of a context that is not nil (a call apart, so that
// ctxErr inlines).
func endedErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// endless reports a context that can never end: no Done channel (package
// context: it can never be cancelled) and no deadline, which a context
// whose Done is nil by mistake may still have and ctxErr reads from the
// clock. Context.Background is one; a run under it checks nothing.
func endless(ctx context.Context) bool {
	if ctx == nil || ctx.Done() != nil {
		return ctx == nil
	}
	_, ok := ctx.Deadline()
	return !ok
}

// Update sends the message of factor f on edge i with the damping in force
// and returns the change of the receiving marginal (measured only inside
// loops or for an observer; 0 otherwise). It is what a plan does for each
// step, for schedules that are not Step, Sequence or Loop. A panic of the
// factor's fails the update with a *graph.UpdateError holding the panic.
func (r *Runner) Update(f graph.FactorID, i int) (d float64, err error) {
	if r == nil || r.g == nil {
		return 0, errNilGraph()
	}
	if !r.g.HasEdge(f, i) {
		return 0, noEdge(r.g, f, i)
	}
	if r.idle() {
		// Outside a run, no Runner.Run recovers a panic of the factor's.
		defer func() {
			if p := recover(); p != nil {
				d, err = 0, r.panicked(p)
			}
		}()
	}
	o := stepOp(opStep, f, i)
	return r.send(&o)
}

// Schedule is a plan of message updates. Schedules name factors by ID, so
// one schedule serves every graph built with the same structure (for example
// every match of the same shape).
type Schedule interface {
	Run(r *Runner) (Convergence, error)
}

// RunOption configures Run. A nil RunOption is ignored.
type RunOption func(*Runner)

// WithMetric replaces the convergence metric (default messages.Distance).
func WithMetric(m Metric) RunOption { return func(r *Runner) { r.metric = m } }

// WithObserver installs an observer.
func WithObserver(o Observer) RunOption { return func(r *Runner) { r.observer = o } }

// Run executes s on g. It stops at the first failed update, returning the
// error. A nil graph, a nil schedule and a nil part are messages.ErrInput.
//
// The context is checked when the run starts, before every loop pass and
// when the run ends; if it is done, or its deadline has passed, at any of
// these, Run returns context.Canceled or context.DeadlineExceeded,
// wrapped: a run whose deadline has passed by the time it returns never
// reports success, with or without loops. Between checks the updates are
// not interrupted: a check per message would cost more than the message.
// A nil ctx is context.Background(); a context that can never end (no
// Done channel and no deadline, as context.Background) is not checked. A factor whose Message panics fails
// its update with a *graph.UpdateError holding the panic; a panic
// elsewhere in the run (a metric, an observer, a custom schedule: code of
// the caller's) is an error wrapping messages.ErrInput. The Result reports whether the
// graph has a cycle (Cyclic), so whether its marginals are approximate.
func Run(ctx context.Context, g *graph.Graph, s Schedule, opts ...RunOption) (Convergence, error) {
	if g == nil {
		return Convergence{}, errNilGraph()
	}
	return NewRunner(g, opts...).Run(ctx, s)
}

// errNilGraph is the error of every function given a nil graph.
func errNilGraph() error { return fmt.Errorf("schedules: nil graph: %w", messages.ErrInput) }

// NewRunner returns a Runner for g, to run schedules repeatedly without
// allocating (Run allocates one Runner per call).
func NewRunner(g *graph.Graph, opts ...RunOption) *Runner {
	r := &Runner{g: g}
	for _, o := range opts {
		if o != nil {
			o(r)
		}
	}
	return r
}

// Run executes s on the runner's graph (see the package function Run, for
// the errors and where the context is checked). Called inside a run (by a
// custom schedule's Run), it runs s as part of that run, as s.Run(r)
// would, under the damping and inside the loops in force; ctx is checked
// before and after.
func (r *Runner) Run(ctx context.Context, s Schedule) (res Convergence, err error) {
	if r == nil || r.g == nil {
		return Convergence{}, errNilGraph()
	}
	if endless(ctx) {
		ctx = nil // nothing to check: nil is ctxErr's context that never ends
	}
	if err := ctxErr(ctx); err != nil {
		return Convergence{}, fmt.Errorf("schedules: before the run: %w", err)
	}
	if !r.idle() {
		if res, err = r.run(s); err == nil {
			if err = ctxErr(ctx); err != nil {
				err = fmt.Errorf("schedules: by the end of the run: %w", err)
			}
		}
		return res, err
	}
	r.ctx, r.running, r.damping, r.passMax, r.loops, r.residual, r.frames = ctx, true, 0, 0, 0, 0, r.frames[:0]
	defer func() {
		r.ctx, r.running = nil, false
		if p := recover(); p != nil {
			// The runner's state is reset by the next run; the graph's
			// messages are those of the updates made.
			r.frames = r.frames[:0]
			res, err = Convergence{Cyclic: r.g.HasCycle()}, r.panicked(p)
		}
	}()
	res, err = r.run(s)
	res.Cyclic = r.g.HasCycle()
	if err == nil {
		// The updates were all made, and res says so; the caller's
		// deadline has still passed.
		if err = ctxErr(ctx); err != nil {
			err = fmt.Errorf("schedules: by the end of the run: %w", err)
		}
	}
	return res, err
}

// enter runs s for a schedule's own Run method: as part of the run in
// progress, or, called outside a run, as Runner.Run under
// context.Background() would (which recovers a panic and reports Cyclic).
func (r *Runner) enter(s Schedule) (Convergence, error) {
	if r != nil && r.g != nil && r.idle() {
		return r.Run(context.Background(), s)
	}
	return r.run(s)
}

// idle reports that r is outside a run: no Run is in progress and no
// schedule's own Run has entered it.
func (r *Runner) idle() bool { return !r.running && len(r.frames) == 0 }

// panicked returns the error of the recovered panic p: a
// *graph.UpdateError naming the factor whose Message panicked, or, for a
// panic elsewhere (a metric, an observer, a custom schedule), an error
// naming the graph and wrapping messages.ErrInput.
func (r *Runner) panicked(p any) error {
	f, i := graph.FactorID(r.sending-1), int(r.sendingEdge)
	if r.sending, r.sendingEdge = 0, 0; f >= 0 {
		return r.g.FactorError(f, "Message", i, nil, p)
	}
	return fmt.Errorf("schedules: run of graph %q: a metric, observer or schedule panicked: %v: %w", r.g.Name(), p, messages.ErrInput)
}

// run runs s in the runner's current state: through its plan if s is a
// Step, Sequence or Loop, else through its own Run.
func (r *Runner) run(s Schedule) (Convergence, error) {
	if r == nil {
		return Convergence{}, fmt.Errorf("schedules: nil runner: %w", messages.ErrInput)
	}
	switch s.(type) {
	case *StepSchedule, *SequenceSchedule, *LoopSchedule:
	default:
		if s == nil {
			return Convergence{}, fmt.Errorf("schedules: nil schedule: %w", messages.ErrInput)
		}
		return s.Run(r)
	}
	p := r.lastPlan
	if s != r.lastSchedule {
		var ok bool
		if p, ok = r.plans[s]; !ok {
			var err error
			if p, err = Compile(r.g, s); err != nil {
				return Convergence{}, err
			}
			if r.plans == nil {
				r.plans = map[Schedule]*Plan{}
			}
			r.plans[s] = p
		}
		r.lastSchedule, r.lastPlan = s, p
	}
	return r.exec(p)
}

// StepSchedule is a single message update: factor F sends on edge Edge.
type StepSchedule struct {
	Factor graph.FactorID
	Edge   int
}

// Step returns the schedule that updates the message of factor f on edge i.
func Step(f graph.FactorID, i int) *StepSchedule { return &StepSchedule{Factor: f, Edge: i} }

// Run performs the update (through the runner's plan for s).
func (s *StepSchedule) Run(r *Runner) (Convergence, error) { return r.enter(s) }

// SequenceSchedule runs its parts in order.
type SequenceSchedule struct {
	Parts []Schedule
}

// Sequence returns the schedule that runs parts in order; its Delta is the
// largest of theirs.
func Sequence(parts ...Schedule) *SequenceSchedule { return &SequenceSchedule{Parts: parts} }

// Run runs the parts in order (through the runner's plan for s).
func (s *SequenceSchedule) Run(r *Runner) (Convergence, error) { return r.enter(s) }

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

// LoopOption configures Loop. A nil LoopOption is ignored.
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
// when a pass changes nothing by more than the tolerance. theta must be
// below the tolerance (Validate refuses it otherwise, since a pass that
// skipped every update still moving would count as converged); choose it
// well below (a tenth of it, say), since the skipped changes add up over a
// pass. The body must consist of Steps and Sequences.
func Residual(theta float64) LoopOption { return func(l *LoopSchedule) { l.Residual = theta } }

// Name names the loop for observers and drawings.
func Name(name string) LoopOption { return func(l *LoopSchedule) { l.Name = name } }

// Loop returns a loop over body.
func Loop(body Schedule, opts ...LoopOption) *LoopSchedule {
	l := &LoopSchedule{Name: "loop", Body: body, Tolerance: DefaultTolerance, MaxIterations: DefaultMaxIterations}
	for _, o := range opts {
		if o != nil {
			o(l)
		}
	}
	return l
}

// Validate reports parameters with which the loop could never run or stop,
// naming each (a damping outside [0, 1) by the graph's own rule,
// graph.CheckDamping), and a nil loop or body: messages.ErrInput.
func (l *LoopSchedule) Validate() error {
	if l == nil || l.Body == nil {
		return fmt.Errorf("schedules: nil loop or loop body: %w", messages.ErrInput)
	}
	var errs []error
	if l.MaxIterations < 1 {
		errs = append(errs, fmt.Errorf("max iterations %d, want at least 1", l.MaxIterations))
	}
	if !(l.Tolerance >= 0) {
		errs = append(errs, fmt.Errorf("tolerance %v, want a number ≥ 0", l.Tolerance))
	}
	if err := graph.CheckDamping(l.Damping); err != nil {
		errs = append(errs, err)
	}
	switch {
	case !(l.Residual >= 0):
		errs = append(errs, fmt.Errorf("residual %v, want a number ≥ 0", l.Residual))
	case l.Residual > 0 && !(l.Residual < l.Tolerance):
		// A skipped update counts as no change, so with a threshold at
		// the tolerance or above, a pass that skipped every update that
		// still moves would count as converged.
		errs = append(errs, fmt.Errorf("residual %v, want below the tolerance %v (a tenth of it, say)", l.Residual, l.Tolerance))
	}
	if len(errs) == 0 {
		return nil
	}
	err := errors.Join(errs...)
	if !errors.Is(err, messages.ErrInput) { // the damping's error says it already
		err = fmt.Errorf("%w: %w", err, messages.ErrInput)
	}
	return fmt.Errorf("schedules: loop %q: invalid loop: %w", l.Name, err)
}

// Run repeats the body (through the runner's plan for l). The returned
// Delta is the body's change in the last pass and Iterations includes the
// body's own loops.
func (l *LoopSchedule) Run(r *Runner) (Convergence, error) { return r.enter(l) }
