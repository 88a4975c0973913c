package scorebased

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/internal/maximize"
	"github.com/skillgraph/skillgraph/models/fit"
)

// FitBounds are the ranges Fit searches, one per hyperparameter; a
// range with Lo == Hi holds its hyperparameter there.
type FitBounds struct {
	// Sigma and Beta bound σ₀ and β; both must be positive.
	Sigma, Beta fit.Bounds
	// Base bounds Hyper.Base (ignored by Gaussian-SD) and Home bounds
	// Hyper.Home; Home{0, 0} fits a league without home sides.
	Base, Home fit.Bounds
}

// DefaultFitBounds returns bounds that hold any league's scores on the
// goal or points scale: σ₀ and β in [1e-3, 1e3], Base and Home in
// [−1e3, 1e3].
func DefaultFitBounds() FitBounds {
	return FitBounds{
		Sigma: fit.Bounds{Lo: 1e-3, Hi: 1e3}, Beta: fit.Bounds{Lo: 1e-3, Hi: 1e3},
		Base: fit.Bounds{Lo: -1e3, Hi: 1e3}, Home: fit.Bounds{Lo: -1e3, Hi: 1e3},
	}
}

// The search's defaults, for fit.Options' zero fields.
const (
	defaultTolerance      = 1e-6
	defaultMaxEvaluations = 4000
)

// FitStart returns where a fit on a goal scale starts: σ₀ = β = ½ goal,
// and γ = 1, which Fit holds (in the Gaussian models β and γ enter only as
// 2β² + γ², so one of them is enough to search).
func FitStart() Params { return Params{Sigma: 0.5, Beta: 0.5, Gamma: 1} }

// Fit chooses hyperparameters for the model newModel makes by maximising
// the one-step-ahead log evidence of train (Learn's second result) over σ₀,
// β, Base (not for Gaussian-SD) and Home within bounds. It starts
// from start's σ₀ and β and from the scores' moments for Base and Home
// (the mean score of the B sides, or its log for Poisson-OD, and the mean
// difference of A's over B's), clamped into the bounds; γ, τ and μ₀ stay
// at start's values. In the Gaussian models β and γ enter every update
// and prediction only as 2β² + γ² (eqs. 20-24), which the evidence
// determines and not the two apart, so Fit varies β with γ held: start
// with γ no larger than the noise of the scores (DefaultParams' γ = 1 is
// small enough for football), or β ends at its lower bound (the report's
// AtBound says so).
//
// The search is Nelder–Mead on log σ₀, log β and the linear ones, in
// steps scaled from the data, with a penalty outside the bounds and the
// point clamped into them, run twice: a restart from the first optimum
// guards against a collapsed simplex. It has converged when the log
// evidence gains less than opt.Tolerance (default 1e-6) over 40
// iterations in both runs, the restart gaining less than 1e3 times
// that; opt.MaxEvaluations defaults to 4000, each evaluation one pass
// over train.
//
// Errors: no training matches or a bad one (as Learn), bounds that are
// empty, not finite or not positive for σ₀ and β, a negative tolerance
// or cap (ErrInput), a start that fails Hyper.Validate or whose evidence
// is not finite, and a done context, whose error is returned. A nil ctx
// is context.Background().
func Fit[R Team | Rating](ctx context.Context, newModel func(Hyper) (Online[R], error), train []Match, start Params, bounds FitBounds, opt fit.Options[Hyper]) (Hyper, fit.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	h0, params, search, err := fitSetup(ctx, newModel, train, start, bounds)
	if err != nil {
		return Hyper{}, fit.Report{}, fmt.Errorf("scorebased: Fit: %w", err)
	}
	evidence := func(h Hyper) (float64, error) {
		m, err := newModel(h)
		if err != nil {
			return 0, err
		}
		_, ev, err := Learn(ctx, m, train)
		return ev, err
	}
	h, rep, err := maximize.Fit(ctx, h0, params, evidence, search, opt)
	if err != nil {
		return Hyper{}, fit.Report{}, fmt.Errorf("scorebased: Fit: %w", err)
	}
	return h, rep, nil
}

// fitSetup checks Fit's arguments and returns its start, the
// hyperparameters it varies and its search.
func fitSetup[R Team | Rating](ctx context.Context, newModel func(Hyper) (Online[R], error), train []Match, start Params, bounds FitBounds) (Hyper, []maximize.Param[Hyper], maximize.Search, error) {
	search := maximize.Search{
		Map: maximize.Walls, SimplexSize: 1, Iterations: 40, Restarts: 1,
		Tolerance: defaultTolerance, MaxEvaluations: defaultMaxEvaluations,
	}
	switch {
	case newModel == nil:
		return Hyper{}, nil, search, fmt.Errorf("nil model constructor: %w", ErrInput)
	case len(train) == 0:
		return Hyper{}, nil, search, fmt.Errorf("no training matches: %w", ErrInput)
	}
	if err := ctx.Err(); err != nil {
		return Hyper{}, nil, search, err
	}
	probe, err := newModel(Hyper{Params: start})
	if err != nil {
		return Hyper{}, nil, search, fmt.Errorf("start: %w", err)
	}
	for i, x := range train {
		if err := checkResult(probe, x); err != nil {
			return Hyper{}, nil, search, fmt.Errorf("train[%d]: %w", i, err)
		}
	}
	base, home, step := probe.start(train)
	params := []maximize.Param[Hyper]{
		{Name: "Sigma", At: func(h *Hyper) *float64 { return &h.Params.Sigma }, Bounds: bounds.Sigma, Log: true, Step: 0.5},
		{Name: "Beta", At: func(h *Hyper) *float64 { return &h.Params.Beta }, Bounds: bounds.Beta, Log: true, Step: 0.5},
		{Name: "Base", At: func(h *Hyper) *float64 { return &h.Base }, Bounds: bounds.Base, Step: step},
		{Name: "Home", At: func(h *Hyper) *float64 { return &h.Home }, Bounds: bounds.Home, Step: step},
	}
	if !probe.hasBase() {
		base = 0
		params = append(params[:2], params[3])
	}
	return Hyper{Params: start, Base: base, Home: home}, params, search, nil
}
