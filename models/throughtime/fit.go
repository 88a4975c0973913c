package throughtime

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/skillgraph/skillgraph/internal/maximize"
	"github.com/skillgraph/skillgraph/messages"
)

// Evidence names the log evidence that Fit maximises.
type Evidence int

const (
	// FilteredEvidence is FilteredLogEvidence after New: the log probability
	// of the whole history predicted one game at a time from the games
	// before it (the prequential marginal likelihood of the forward pass).
	// It is the default: it is a likelihood of the data (the chain rule
	// P(y₁)·P(y₂ | y₁)·…, each factor from assumed-density filtering), it
	// rewards exactly what the parameters are for (predicting the next
	// game), and it costs one forward pass.
	FilteredEvidence Evidence = iota
	// SmoothedEvidence is LogEvidence after Converge: each game's outcome
	// given every other game, past and future, summed. Each evaluation
	// costs the forward pass and the sweeps to FitOptions.Tolerance, and
	// the sum counts every game's information in the other games' terms as
	// well, so it is not the probability of the history.
	SmoothedEvidence
)

// String returns "filtered" or "smoothed".
func (e Evidence) String() string {
	switch e {
	case FilteredEvidence:
		return "filtered"
	case SmoothedEvidence:
		return "smoothed"
	}
	return fmt.Sprintf("Evidence(%d)", int(e))
}

// Bounds are the range [Lo, Hi] a parameter is fitted in; Lo == Hi holds
// it fixed at that value.
type Bounds struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Fixed reports whether the bounds hold the parameter fixed.
func (b Bounds) Fixed() bool { return b.Lo == b.Hi }

// FitOptions configures Fit. Start from DefaultFitOptions: the zero
// value holds every parameter fixed at 0, which New rejects.
type FitOptions struct {
	// Bounds of each parameter. σ₀ and β need Lo > 0 (unless fixed); γ
	// needs Lo > 0 unless it is fixed (at 0 or more); the draw
	// probability needs 0 ≤ Lo and Hi < 1.
	Sigma, Beta, Gamma, DrawProbability Bounds
	// Evidence is the objective (default FilteredEvidence).
	Evidence Evidence
	// Tolerance and MaxSweeps are Converge's, for SmoothedEvidence
	// (defaults 1e-3 and 100).
	Tolerance float64
	MaxSweeps int
	// MaxEvaluations caps the evaluations of the evidence (default 300).
	MaxEvaluations int
	// Absolute is the change in log evidence (nats) below which the search
	// has converged: the best value has not improved by more than it over
	// 10 simplex iterations per free parameter (default 1e-3).
	Absolute float64
	// Options are passed to New on every evaluation (WithPriors, Untimed,
	// WithProgress to follow each evaluation's sweeps); nil ones are
	// ignored.
	Options []Option
	// Progress, if not nil, is called after each evaluation of the
	// evidence.
	Progress func(FitProgress)
}

// FitProgress is what Fit reports after each evaluation of the evidence.
type FitProgress struct {
	// Evaluation counts the evaluations, from 1 (the start).
	Evaluation int `json:"evaluation"`
	// Params were evaluated, with log evidence LogEvidence; Best is the
	// largest log evidence so far.
	Params      Params  `json:"params"`
	LogEvidence float64 `json:"log_evidence"`
	Best        float64 `json:"best"`
}

// DefaultFitOptions returns the options Fit uses from start: σ₀ in
// [β/100, 100β], γ in [β/10⁵, 10β], the draw probability in [10⁻⁴, 0.9]
// if start.DrawProbability > 0 and fixed at 0 otherwise, and β fixed at
// start.Beta.
//
// β is fixed because, with μ₀ = 0 (the default), only the ratios σ₀/β
// and γ/β (and the draw probability) change the evidence: scaling σ₀, β
// and γ by one factor scales every skill and performance by it, and the
// draw margin with them, and leaves the probability of every outcome as
// it was. Freeing β as well leaves the evidence flat along that line.
// (With μ₀ ≠ 0 that holds when μ₀ is scaled too, or when every game's
// teams have equal sizes, so that μ₀ cancels from every difference.)
func DefaultFitOptions(start Params) FitOptions {
	o := FitOptions{
		Sigma: Bounds{start.Beta / 100, start.Beta * 100},
		Beta:  Bounds{start.Beta, start.Beta},
		Gamma: Bounds{start.Beta * 1e-5, start.Beta * 10},
	}
	if start.DrawProbability > 0 {
		o.DrawProbability = Bounds{1e-4, 0.9}
	}
	return o
}

// FitResult is the outcome of Fit.
type FitResult struct {
	// Params are the best parameters found and LogEvidence their
	// evidence; Start is the evidence of the starting parameters.
	Params      Params  `json:"params"`
	LogEvidence float64 `json:"log_evidence"`
	Start       float64 `json:"start"`
	// Evaluations counts the evidence evaluations (each a New, and for
	// SmoothedEvidence its sweeps).
	Evaluations int `json:"evaluations"`
	// Converged reports that the search stopped because the evidence no
	// longer improved (FitOptions.Absolute), not at MaxEvaluations; Status
	// is the optimiser's reason.
	Converged bool   `json:"converged"`
	Status    string `json:"status"`
	// Unconverged counts the evaluations (SmoothedEvidence only) whose
	// smoothing stopped at MaxSweeps before reaching Tolerance.
	Unconverged int `json:"unconverged"`
}

// fitted is one parameter of Fit: where it lives in Params, its bounds,
// and whether it is searched on a log scale (σ₀, β, γ) or a linear one
// (the draw probability).
type fitted struct {
	name string
	at   func(*Params) *float64
	b    Bounds
	log  bool
}

// to maps a parameter's value in its bounds to the optimiser's
// unbounded coordinate: the logit of its position between the bounds
// (on a log scale for log parameters).
func (f *fitted) to(x float64) float64 {
	lo, hi := f.b.Lo, f.b.Hi
	if f.log {
		x, lo, hi = math.Log(x), math.Log(lo), math.Log(hi)
	}
	u := (x - lo) / (hi - lo)
	return math.Log(u / (1 - u))
}

// from is the inverse of to; every z maps strictly inside the bounds
// (or onto one, when the logistic saturates).
func (f *fitted) from(z float64) float64 {
	u := 1 / (1 + math.Exp(-z))
	if f.log {
		lo, hi := math.Log(f.b.Lo), math.Log(f.b.Hi)
		return math.Min(f.b.Hi, math.Max(f.b.Lo, math.Exp(lo+u*(hi-lo))))
	}
	return f.b.Lo + u*(f.b.Hi-f.b.Lo)
}

// Fit maximises the log evidence of games over σ₀, β, γ and the draw
// probability within opt's bounds, starting from start (whose μ is kept),
// with the Nelder–Mead simplex of gonum/optimize on each free parameter's
// logit between its bounds (of its logarithm, for σ₀, β and γ). It checks
// ctx before each evaluation and stops with ctx's error. A start outside
// the bounds, bad bounds and an empty history are errors (ErrInput,
// ErrInput), and so is any evaluation's error.
func Fit(ctx context.Context, start Params, games []Match, opt FitOptions) (FitResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(games) == 0 {
		return FitResult{}, fmt.Errorf("throughtime: Fit: no games: %w", ErrInput)
	}
	if err := start.validate(); err != nil {
		return FitResult{}, fmt.Errorf("throughtime: Fit: start: %w", err)
	}
	if opt.Evidence != FilteredEvidence && opt.Evidence != SmoothedEvidence {
		return FitResult{}, fmt.Errorf("throughtime: Fit: %v: %w", opt.Evidence, ErrInput)
	}
	tol, sweeps, evals, abs := opt.Tolerance, opt.MaxSweeps, opt.MaxEvaluations, opt.Absolute
	if tol == 0 {
		tol = 1e-3
	}
	if sweeps == 0 {
		sweeps = 100
	}
	if evals == 0 {
		evals = 300
	}
	if abs == 0 {
		abs = 1e-3
	}
	if !(tol > 0) || math.IsInf(tol, 1) || sweeps < 0 || evals < 0 || !(abs > 0) || math.IsInf(abs, 1) {
		return FitResult{}, fmt.Errorf("throughtime: Fit: tolerance %v, %d sweeps, %d evaluations, absolute %v: %w", tol, sweeps, evals, abs, ErrInput)
	}
	all := []fitted{
		{"Sigma", func(p *Params) *float64 { return &p.Sigma }, opt.Sigma, true},
		{"Beta", func(p *Params) *float64 { return &p.Beta }, opt.Beta, true},
		{"Gamma", func(p *Params) *float64 { return &p.Gamma }, opt.Gamma, true},
		{"DrawProbability", func(p *Params) *float64 { return &p.DrawProbability }, opt.DrawProbability, false},
	}
	base := start
	var free []fitted
	var z0 []float64
	for _, f := range all {
		if err := f.check(*f.at(&start)); err != nil {
			return FitResult{}, err
		}
		if f.b.Fixed() {
			*f.at(&base) = f.b.Lo
			continue
		}
		free = append(free, f)
		z0 = append(z0, f.to(*f.at(&start)))
	}
	if err := base.validate(); err != nil {
		return FitResult{}, fmt.Errorf("throughtime: Fit: fixed parameters: %w", err)
	}

	res := FitResult{Start: math.NaN()}
	params := func(z []float64) Params {
		p := base
		for i, f := range free {
			*f.at(&p) = f.from(z[i])
		}
		return p
	}
	evidence := func(p Params) (float64, error) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		res.Evaluations++
		h, err := New(p, games, opt.Options...)
		if err != nil {
			return 0, err
		}
		if opt.Evidence == FilteredEvidence {
			return h.FilteredLogEvidence(), nil
		}
		r, err := h.Converge(ctx, tol, sweeps)
		if err != nil {
			return 0, err
		}
		if !r.Converged {
			res.Unconverged++
		}
		_, lz, err := h.LogEvidence()
		return lz, err
	}
	startP := base
	for _, f := range free {
		*f.at(&startP) = *f.at(&start)
	}
	startEvidence, err := evidence(startP)
	if err == nil && !messages.IsFinite(startEvidence) {
		err = fmt.Errorf("log evidence %v: %w", startEvidence, ErrInput)
	}
	if err == nil && opt.Progress != nil {
		opt.Progress(FitProgress{Evaluation: 1, Params: startP, LogEvidence: startEvidence, Best: startEvidence})
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return FitResult{}, fmt.Errorf("throughtime: Fit: %w", err)
		}
		return FitResult{}, fmt.Errorf("throughtime: Fit: at the start %+v: %w", startP, err)
	}
	res.Start = startEvidence
	best, bestP := startEvidence, startP
	if len(free) == 0 {
		res.Params, res.LogEvidence, res.Converged, res.Status = bestP, best, true, "nothing to fit"
		return res, nil
	}
	if evals == 1 {
		res.Params, res.LogEvidence, res.Status = bestP, best, optimize.FunctionEvaluationLimit.String()
		return res, nil
	}

	out, err := maximize.Maximize(ctx, func(z []float64) (float64, error) {
		p := params(z)
		lz, err := evidence(p)
		if err == nil && !messages.IsFinite(lz) {
			err = fmt.Errorf("log evidence %v", lz)
		}
		if err != nil {
			return 0, fmt.Errorf("at %+v: %w", p, err)
		}
		if lz > best {
			best, bestP = lz, p
		}
		if opt.Progress != nil {
			opt.Progress(FitProgress{Evaluation: res.Evaluations, Params: p, LogEvidence: lz, Best: best})
		}
		return lz, nil
	}, z0, maximize.Options{
		SimplexSize:    0.3,
		MaxEvaluations: evals - 1, // the start is one
		Absolute:       abs,
		Iterations:     10 * len(free),
		Start:          &startEvidence,
	})
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return FitResult{}, fmt.Errorf("throughtime: Fit: after %d evaluations: %w", res.Evaluations, err)
		}
		return FitResult{}, fmt.Errorf("throughtime: Fit: evaluation %d: %w", res.Evaluations, err)
	}
	res.Params, res.LogEvidence = bestP, best
	res.Status = out.Status.String()
	res.Converged = out.Converged()
	return res, nil
}

// check reports bounds that cannot be searched, and a start outside them.
func (f *fitted) check(start float64) error {
	lo, hi := f.b.Lo, f.b.Hi
	bad := func(why string) error {
		return fmt.Errorf("throughtime: Fit: %s bounds [%v, %v] (start %v): %s: %w", f.name, lo, hi, start, why, ErrInput)
	}
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return bad("not finite")
	case lo > hi:
		return bad("Lo above Hi")
	case f.b.Fixed():
		return nil // the value itself is checked with the other parameters
	case f.log && !(lo > 0):
		return bad("a free parameter searched on a log scale needs Lo > 0")
	case !f.log && (lo < 0 || hi >= 1):
		return bad("a probability needs 0 ≤ Lo and Hi < 1")
	case !(start > lo && start < hi):
		return bad("the start is not strictly inside")
	}
	return nil
}
