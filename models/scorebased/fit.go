package scorebased

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/skillgraph/skillgraph/internal/maximize"
	"github.com/skillgraph/skillgraph/messages"
)

// Bounds is a closed interval [Lo, Hi] for a hyperparameter that Fit
// chooses; Lo == Hi fixes it at that value.
type Bounds struct {
	Lo, Hi float64
}

// FitOptions are the bounds of Fit's search and its stopping rule.
type FitOptions struct {
	// Sigma and Beta bound σ₀ and β; both must be positive.
	Sigma, Beta Bounds
	// Base bounds Hyper.Base (ignored by Gaussian-SD) and Home bounds
	// Hyper.Home; Home{0, 0} fits a league without home sides.
	Base, Home Bounds
	// Tolerance stops the search once the log evidence has improved by
	// less than Tolerance over 40 iterations (and again after one restart).
	Tolerance float64
	// MaxEvaluations caps the evidence evaluations (each one pass over the
	// training matches).
	MaxEvaluations int
}

// DefaultFitOptions returns bounds that hold any league's scores on the
// goal or points scale: σ₀ and β in [1e-3, 1e3], Base and Home in
// [−1e3, 1e3], a tolerance of 1e-6 and at most 4000 evaluations.
func DefaultFitOptions() FitOptions {
	return FitOptions{
		Sigma: Bounds{1e-3, 1e3}, Beta: Bounds{1e-3, 1e3},
		Base: Bounds{-1e3, 1e3}, Home: Bounds{-1e3, 1e3},
		Tolerance: 1e-6, MaxEvaluations: 4000,
	}
}

// FitStart returns where a fit on a goal scale starts: σ₀ = β = ½ goal,
// and γ = 1, which Fit holds (in the Gaussian models β and γ enter only as
// 2β² + γ², so one of them is enough to search).
func FitStart() Params { return Params{Sigma: 0.5, Beta: 0.5, Gamma: 1} }

// FitReport describes a fit.
type FitReport struct {
	// LogEvidence is the one-step-ahead log evidence of the training
	// matches at the optimum (see Learn), StartLogEvidence at the start.
	LogEvidence, StartLogEvidence float64
	// Evaluations counts evidence evaluations, Iterations the optimiser's
	// iterations, over both runs (the second restarts from the first's
	// optimum with a fresh simplex).
	Evaluations, Iterations int
	// Converged is true when both runs stopped on Tolerance and the
	// restart improved the evidence by less than 1e3·Tolerance, not on
	// MaxEvaluations.
	Converged bool
	// AtBound names the hyperparameters that ended on a bound of their
	// search ("Beta", …): the optimum may lie beyond it.
	AtBound []string
}

// knob is one hyperparameter that Fit varies: its name, where it lives in
// Hyper, its bounds, whether it is searched on a log scale, and the step of
// the first simplex along it (log units for a log scale).
type knob struct {
	name   string
	field  func(*Hyper) *float64
	bounds Bounds
	log    bool
	step   float64
}

// Fit chooses hyperparameters for the model newModel makes by maximising
// the one-step-ahead log evidence of train (Learn's second result) over σ₀,
// β, Base (not for Gaussian-SD) and Home within opt's bounds. It starts
// from start's σ₀ and β and from the scores' moments for Base and Home
// (the mean score of the B sides, or its log for Poisson-OD, and the mean
// difference of A's over B's); γ, τ and μ₀ stay at start's values. In the
// Gaussian models β and γ enter every update and prediction only as
// 2β² + γ² (eqs. 20-24), which the evidence determines and not the two
// apart, so Fit varies β with γ held: start with γ no larger than the
// noise of the scores (DefaultParams' γ = 1 is small enough for football),
// or β ends at its lower bound (FitReport.AtBound says so).
//
// The search is Nelder–Mead (gonum/optimize) on log σ₀, log β and the
// linear ones, scaled by steps from the data, with a penalty outside the
// bounds and the result clamped into them, run twice (a restart from the
// first optimum guards against a collapsed simplex).
//
// Errors: no training matches or a bad one (as Learn), bounds that are
// empty, not finite or not positive for σ₀ and β (ErrInput), a start
// that fails Hyper.Validate or whose evidence is not finite, and a done
// context, whose error is returned. A nil ctx is context.Background().
func Fit[R Team | Rating](ctx context.Context, newModel func(Hyper) (Online[R], error), train []Match, start Params, opt FitOptions) (Hyper, FitReport, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if newModel == nil {
		return Hyper{}, FitReport{}, fmt.Errorf("scorebased: Fit: nil model constructor: %w", ErrInput)
	}
	if err := ctx.Err(); err != nil {
		return Hyper{}, FitReport{}, fmt.Errorf("scorebased: Fit: %w", err)
	}
	if len(train) == 0 {
		return Hyper{}, FitReport{}, fmt.Errorf("scorebased: Fit: no training matches: %w", ErrInput)
	}
	if err := opt.check(); err != nil {
		return Hyper{}, FitReport{}, err
	}
	probe, err := newModel(Hyper{Params: start})
	if err != nil {
		return Hyper{}, FitReport{}, fmt.Errorf("scorebased: Fit: start: %w", err)
	}
	for i, x := range train {
		if err := checkResult(probe, x); err != nil {
			return Hyper{}, FitReport{}, fmt.Errorf("scorebased: Fit: train[%d]: %w", i, err)
		}
	}
	base, home, step := probe.start(train)
	h0 := Hyper{Params: start, Base: base, Home: home}
	knobs := []knob{
		{"Sigma", func(h *Hyper) *float64 { return &h.Params.Sigma }, opt.Sigma, true, 0.5},
		{"Beta", func(h *Hyper) *float64 { return &h.Params.Beta }, opt.Beta, true, 0.5},
		{"Base", func(h *Hyper) *float64 { return &h.Base }, opt.Base, false, step},
		{"Home", func(h *Hyper) *float64 { return &h.Home }, opt.Home, false, step},
	}
	if !probe.hasBase() {
		h0.Base = 0
		knobs = append(knobs[:2], knobs[3])
	}
	var free []knob
	for _, k := range knobs {
		p := k.field(&h0)
		*p = math.Min(math.Max(*p, k.bounds.Lo), k.bounds.Hi)
		if k.bounds.Lo < k.bounds.Hi {
			free = append(free, k)
		}
	}

	// decode maps a search point to hyperparameters (clamped into the
	// bounds) and its squared distance outside them, in search units.
	decode := func(u []float64) (Hyper, float64) {
		h := h0
		var out float64
		for i, k := range free {
			x := u[i] * k.step
			lo, hi := k.bounds.Lo, k.bounds.Hi
			if k.log {
				lo, hi = math.Log(lo), math.Log(hi)
			}
			c := math.Min(math.Max(x, lo), hi)
			out += (x - c) * (x - c) / (k.step * k.step)
			switch {
			case x <= lo:
				c = k.bounds.Lo
			case x >= hi:
				c = k.bounds.Hi
			case k.log:
				c = math.Exp(c)
			}
			*k.field(&h) = c
		}
		return h, out
	}
	evidence := func(h Hyper) (float64, error) {
		m, err := newModel(h)
		if err != nil {
			return 0, err
		}
		_, ev, err := Learn(ctx, m, train)
		return ev, err
	}

	var rep FitReport
	if rep.StartLogEvidence, err = evidence(h0); err != nil {
		return Hyper{}, FitReport{}, fmt.Errorf("scorebased: Fit: at the start %+v: %w", h0, err)
	}
	best, bestEv := h0, rep.StartLogEvidence
	if len(free) == 0 {
		rep.LogEvidence, rep.Converged = bestEv, true
		return best, rep, nil
	}
	u0 := make([]float64, len(free))
	for i, k := range free {
		x := *k.field(&h0)
		if k.log {
			x = math.Log(x)
		}
		u0[i] = x / k.step
	}
	objective := func(u []float64) (float64, error) {
		h, out := decode(u)
		ev, err := evidence(h)
		if err != nil || !messages.IsFinite(ev) {
			return math.Inf(-1), nil // a point to leave, not a failure
		}
		if ev > bestEv {
			best, bestEv = h, ev
		}
		return ev - 1e3*out, nil
	}
	converged := true
	for run := range 2 {
		before := bestEv
		budget := opt.MaxEvaluations - rep.Evaluations
		if budget <= len(free) {
			converged = false
			break
		}
		res, err := maximize.Maximize(ctx, objective, u0, maximize.Options{
			SimplexSize:    1,
			MaxEvaluations: budget,
			Absolute:       opt.Tolerance,
			Iterations:     40,
		})
		rep.Evaluations += res.Evaluations
		rep.Iterations += res.Iterations
		if err != nil {
			return Hyper{}, FitReport{}, fmt.Errorf("scorebased: Fit: %w", err)
		}
		if res.Status != optimize.FunctionConvergence {
			converged = false
		}
		if run == 1 && bestEv-before > 1e3*opt.Tolerance {
			converged = false
		}
		for i, k := range free {
			x := *k.field(&best)
			if k.log {
				x = math.Log(x)
			}
			u0[i] = x / k.step
		}
	}
	rep.LogEvidence, rep.Converged = bestEv, converged
	for _, k := range free {
		// Within 1e-9 of a bound, which exp(log x) may miss by an ulp.
		x, lo, hi := *k.field(&best), k.bounds.Lo, k.bounds.Hi
		if x-lo <= 1e-9*math.Max(1, math.Abs(lo)) || hi-x <= 1e-9*math.Max(1, math.Abs(hi)) {
			rep.AtBound = append(rep.AtBound, k.name)
		}
	}
	return best, rep, nil
}

// check validates the options.
func (o FitOptions) check() error {
	for _, c := range []struct {
		name     string
		b        Bounds
		positive bool
	}{{"Sigma", o.Sigma, true}, {"Beta", o.Beta, true}, {"Base", o.Base, false}, {"Home", o.Home, false}} {
		if !messages.IsFinite(c.b.Lo) || !messages.IsFinite(c.b.Hi) || c.b.Lo > c.b.Hi || (c.positive && !(c.b.Lo > 0)) {
			return fmt.Errorf("scorebased: FitOptions.%s = %+v: not a finite interval (of positive numbers for σ₀ and β): %w", c.name, c.b, ErrInput)
		}
	}
	if !(o.Tolerance > 0) || math.IsInf(o.Tolerance, 1) || o.MaxEvaluations < 1 {
		return fmt.Errorf("scorebased: FitOptions: Tolerance %v and MaxEvaluations %d must be positive: %w", o.Tolerance, o.MaxEvaluations, ErrInput)
	}
	return nil
}
