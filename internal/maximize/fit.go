package maximize

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/fit"
)

// Param is one parameter of P that Fit varies.
type Param[P any] struct {
	// Name names it in errors and in fit.Report.AtBound.
	Name string
	// At returns where it lives in P.
	At func(*P) *float64
	// Bounds are its range; Lo == Hi holds it at Lo.
	Bounds fit.Bounds
	// Log searches it on the scale of its logarithm: a scale parameter,
	// whose free bounds must be positive.
	Log bool
	// Logit searches it on the scale of its logit, log(x/(1 − x)): a
	// probability, whose free bounds must lie in (0, 1).
	Logit bool
	// Step is the search's unit along it (of its logarithm, with Log, or
	// its logit, with Logit), for Walls and Reject; Logistic ignores it.
	Step float64
}

// Map is how Fit carries a bounded parameter to the simplex's unbounded
// coordinate.
type Map int

const (
	// Logistic searches the logit of the parameter's position between
	// its bounds, so that every point the simplex visits lies inside
	// them and is a valid parameter set: an evaluation's error ends the
	// fit. The start must lie strictly inside its bounds; its evidence
	// is the first vertex's value.
	Logistic Map = iota
	// Walls searches the parameter divided by its Step, clamps a point
	// outside the bounds onto them and subtracts 1e3 per squared step
	// outside from the evidence, so that the simplex walks back in. An
	// evaluation that fails or is not finite marks a point to leave. The
	// start is clamped into its bounds, and each run evaluates its first
	// vertex.
	Walls
	// Reject searches the parameter divided by its Step, like Walls, but
	// leaves a point outside the bounds without evaluating the evidence
	// there, so that the bounds only keep the search where the model
	// computes safely. The start must lie within its bounds, and an
	// evaluation's error ends the fit.
	Reject
)

// Search is how Fit searches.
type Search struct {
	// Map carries each parameter to the simplex's coordinate.
	Map Map
	// SimplexSize is the first simplex's size in that coordinate.
	SimplexSize float64
	// A run has converged when the best value has gained less than
	// Tolerance over Iterations iterations. Tolerance is the model's
	// default, which a positive fit.Options.Tolerance replaces.
	Tolerance  float64
	Iterations int
	// MaxEvaluations caps the evaluations, the start's included: the
	// model's default, which a positive fit.Options.MaxEvaluations
	// replaces.
	MaxEvaluations int
	// Restarts runs the simplex again, fresh, from the best point, that
	// many times; a restart that still gains more than 1e3·Tolerance
	// means the search has not converged.
	Restarts int
}

// penalty is what Walls subtracts per squared step outside the bounds:
// large beside the change of a log evidence within a step, so that a
// point outside is worse than the wall it was clamped onto.
const penalty = 1e3

// Fit maximises evidence over params from start, the parameters of P
// that params does not name held at start's values, and returns the best
// point evaluated and its report. It checks opt (a tolerance and a cap
// that are not negative, the tolerance finite) and every parameter's
// bounds (finite, Lo ≤ Hi, positive for Log), each messages.ErrInput,
// evaluates the start (an error or a value that is not finite there is
// Fit's error, the latter messages.ErrNumerical), then runs the simplex
// as s and opt say. opt.Progress, if not nil, follows each evaluation
// with a finite value. A done ctx ends the fit with ctx's error.
func Fit[P any](ctx context.Context, start P, params []Param[P], evidence func(P) (float64, error), s Search, opt fit.Options[P]) (P, fit.Report, error) {
	if !(opt.Tolerance >= 0) || math.IsInf(opt.Tolerance, 1) || opt.MaxEvaluations < 0 {
		return start, fit.Report{}, fmt.Errorf("fit.Options: Tolerance %v, MaxEvaluations %d: %w", opt.Tolerance, opt.MaxEvaluations, messages.ErrInput)
	}
	s.Tolerance, s.MaxEvaluations = cmp.Or(opt.Tolerance, s.Tolerance), cmp.Or(opt.MaxEvaluations, s.MaxEvaluations)
	f := fitter[P]{ctx: ctx, evidence: evidence, s: s, progress: opt.Progress, base: start}
	f.rep.LogEvidence = math.Inf(-1)
	if err := f.place(params); err != nil {
		return start, fit.Report{}, err
	}
	startEv, err := f.evaluate(f.base)
	if err != nil {
		return start, fit.Report{}, fmt.Errorf("at the start: %w", err)
	}
	f.rep.StartLogEvidence = startEv
	if len(f.free) == 0 {
		f.rep.Converged, f.rep.Status = true, "nothing to fit"
		return f.best, f.rep, nil
	}
	if err := f.run(startEv); err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return start, fit.Report{}, fmt.Errorf("after %d evaluations: %w", f.rep.Evaluations, err)
		}
		return start, fit.Report{}, fmt.Errorf("evaluation %d: %w", f.rep.Evaluations, err)
	}
	f.atBounds()
	return f.best, f.rep, nil
}

// fitter is one Fit under way.
type fitter[P any] struct {
	ctx      context.Context
	evidence func(P) (float64, error)
	s        Search
	progress func(fit.Progress[P])
	// base holds every parameter at its start (clamped, for Walls, and
	// at Lo when fixed); free are the parameters searched.
	base P
	free []Param[P]
	best P
	rep  fit.Report
}

// place checks params' bounds, puts the start into base and collects the
// free parameters.
func (f *fitter[P]) place(params []Param[P]) error {
	for _, p := range params {
		v := p.At(&f.base)
		lo, hi := p.Bounds.Lo, p.Bounds.Hi
		bad := func(why string) error {
			return fmt.Errorf("%s bounds [%v, %v] (start %v): %s: %w", p.Name, lo, hi, *v, why, messages.ErrInput)
		}
		switch {
		case !messages.IsFinite(lo) || !messages.IsFinite(hi):
			return bad("not finite")
		case lo > hi:
			return bad("Lo above Hi")
		case p.Bounds.Fixed():
			*v = lo
			continue
		case p.Log && p.Logit:
			return bad("searched on both a log and a logit scale")
		case p.Log && !(lo > 0):
			return bad("a parameter searched on a log scale needs Lo > 0")
		case p.Logit && !(lo > 0 && hi < 1):
			return bad("a parameter searched on a logit scale needs 0 < Lo ≤ Hi < 1")
		case f.s.Map == Walls:
			*v = math.Min(math.Max(*v, lo), hi)
		case f.s.Map == Reject:
			if !(*v >= lo && *v <= hi) {
				return bad("the start is outside")
			}
		case !(*v > lo && *v < hi):
			return bad("the start is not strictly inside")
		}
		f.free = append(f.free, p)
	}
	return nil
}

// evaluate counts an evaluation of the evidence at p, keeps the best
// point and reports progress. A value that is not finite is an error.
func (f *fitter[P]) evaluate(p P) (float64, error) {
	if err := f.ctx.Err(); err != nil {
		return 0, err
	}
	f.rep.Evaluations++
	v, err := f.evidence(p)
	if err == nil && !messages.IsFinite(v) {
		err = fmt.Errorf("log evidence %v: %w", v, messages.ErrNumerical)
	}
	if err != nil {
		return 0, fmt.Errorf("at %+v: %w", p, err)
	}
	if v > f.rep.LogEvidence {
		f.best, f.rep.LogEvidence = p, v
	}
	if f.progress != nil {
		f.progress(fit.Progress[P]{Evaluation: f.rep.Evaluations, Params: p, LogEvidence: v, Best: f.rep.LogEvidence})
	}
	return v, nil
}

// run runs the simplex from the start, and again from the best point
// for each restart, within the evaluation cap.
func (f *fitter[P]) run(startEv float64) error {
	objective := func(u []float64) (float64, error) {
		p, out := f.decode(u)
		if f.s.Map == Reject && out > 0 {
			return math.Inf(-1), nil // outside the bounds: a point to leave
		}
		v, err := f.evaluate(p)
		if err != nil {
			if f.s.Map == Walls {
				return math.Inf(-1), nil // a point to leave, not a failure
			}
			return 0, err
		}
		return v - penalty*out, nil
	}
	u0 := f.encode(f.base)
	f.rep.Converged = true
	for run := range f.s.Restarts + 1 {
		before := f.rep.LogEvidence
		budget := f.s.MaxEvaluations - f.rep.Evaluations
		if budget <= len(f.free) {
			// Too few evaluations left to build a simplex.
			f.rep.Converged, f.rep.Status = false, optimize.FunctionEvaluationLimit.String()
			break
		}
		opt := simplexOptions{SimplexSize: f.s.SimplexSize, MaxEvaluations: budget, Absolute: f.s.Tolerance, Iterations: f.s.Iterations}
		if f.s.Map != Walls && run == 0 {
			opt.Start = &startEv
		}
		res, err := nelderMead(f.ctx, objective, u0, opt)
		f.rep.Iterations += res.Iterations
		if err != nil {
			return err
		}
		f.rep.Status = res.Status.String()
		if !res.converged() || (run > 0 && f.rep.LogEvidence-before > 1e3*f.s.Tolerance) {
			f.rep.Converged = false
		}
		u0 = f.encode(f.best)
	}
	return nil
}

// encode returns the simplex coordinate of p's free parameters.
func (f *fitter[P]) encode(p P) []float64 {
	u := make([]float64, len(f.free))
	for i, q := range f.free {
		x, lo, hi := q.scale(*q.At(&p)), q.scale(q.Bounds.Lo), q.scale(q.Bounds.Hi)
		if f.s.Map != Logistic {
			u[i] = x / q.Step
			continue
		}
		t := (0.5*x - 0.5*lo) / (0.5*hi - 0.5*lo) // halves: hi − lo may overflow
		u[i] = math.Log(t / (1 - t))
	}
	return u
}

// decode returns the parameters at the simplex coordinate u, and for
// Walls the squared distance, in steps, by which u lies outside the
// bounds; for Reject, a positive number if any parameter lies outside.
func (f *fitter[P]) decode(u []float64) (P, float64) {
	p := f.base
	var out float64
	for i, q := range f.free {
		b, v := q.Bounds, q.At(&p)
		lo, hi := q.scale(b.Lo), q.scale(b.Hi)
		if f.s.Map == Logistic {
			t := 1 / (1 + math.Exp(-u[i]))
			// (1 − t)·lo + t·hi, not lo + t·(hi − lo), whose difference
			// may overflow; clamped, since exp(log Lo) may miss Lo by an
			// ulp.
			*v = math.Min(b.Hi, math.Max(b.Lo, q.unscale((1-t)*lo+t*hi)))
			continue
		}
		x := u[i] * q.Step
		if f.s.Map == Reject {
			*v = q.unscale(x)
			if !(*v >= b.Lo && *v <= b.Hi) {
				out = 1
			}
			continue
		}
		c := math.Min(math.Max(x, lo), hi)
		out += (x - c) * (x - c) / (q.Step * q.Step)
		switch {
		case x <= lo:
			*v = b.Lo
		case x >= hi:
			*v = b.Hi
		default:
			*v = q.unscale(c)
		}
	}
	return p, out
}

// scale returns x on the scale the parameter is searched on: its
// logarithm for Log, its logit for Logit.
func (q *Param[P]) scale(x float64) float64 {
	switch {
	case q.Log:
		return math.Log(x)
	case q.Logit:
		return math.Log(x / (1 - x))
	}
	return x
}

// unscale is scale's inverse.
func (q *Param[P]) unscale(x float64) float64 {
	switch {
	case q.Log:
		return math.Exp(x)
	case q.Logit:
		return 1 / (1 + math.Exp(-x))
	}
	return x
}

// atBounds lists the free parameters of the best point that lie within
// 1e-9 (relative, or absolute below 1) of a bound, which exp(log x) may
// miss by an ulp.
func (f *fitter[P]) atBounds() {
	for _, q := range f.free {
		x, lo, hi := *q.At(&f.best), q.Bounds.Lo, q.Bounds.Hi
		if x-lo <= 1e-9*math.Max(1, math.Abs(lo)) || hi-x <= 1e-9*math.Max(1, math.Abs(hi)) {
			f.rep.AtBound = append(f.rep.AtBound, q.Name)
		}
	}
}
