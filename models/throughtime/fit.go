package throughtime

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/internal/maximize"
	"github.com/skillgraph/skillgraph/models/fit"
)

// Objective names the log evidence that Fit maximises.
type Objective int

const (
	// FilteredEvidence is FilteredLogEvidence after New: the log probability
	// of the whole history predicted one game at a time from the games
	// before it (the prequential marginal likelihood of the forward pass).
	// It is the default: it is a likelihood of the data (the chain rule
	// P(y₁)·P(y₂ | y₁)·…, each factor from assumed-density filtering), it
	// rewards exactly what the parameters are for (predicting the next
	// game), and it costs one forward pass.
	FilteredEvidence Objective = iota
	// SmoothedEvidence is LogEvidence after Converge(ctx, 1e-3, 100):
	// each game's outcome given every other game, past and future,
	// summed. Each evaluation costs the forward pass and the sweeps, and
	// the sum counts every game's information in the other games' terms as
	// well, so it is not the probability of the history.
	SmoothedEvidence
)

// objectiveNames are the objectives' names, as String returns them.
var objectiveNames = [...]string{FilteredEvidence: "filtered", SmoothedEvidence: "smoothed"}

// String returns "filtered" or "smoothed".
func (o Objective) String() string {
	if o >= 0 && int(o) < len(objectiveNames) {
		return objectiveNames[o]
	}
	return fmt.Sprintf("Objective(%d)", int(o))
}

// The smoothing of SmoothedEvidence: Converge's tolerance and sweeps.
const (
	smoothedTolerance = 1e-3
	smoothedSweeps    = 100
)

// The search's defaults, for fit.Options' zero fields.
const (
	defaultTolerance      = 1e-3
	defaultMaxEvaluations = 300
)

// FitBounds are the ranges Fit searches, one per parameter; a range with
// Lo == Hi holds its parameter there. The zero value holds every
// parameter at 0, which New rejects: start from DefaultFitBounds.
type FitBounds struct {
	// σ₀ and β need Lo > 0 (unless fixed); γ needs Lo > 0 unless it is
	// fixed (at 0 or more); the draw probability needs 0 ≤ Lo and Hi < 1.
	Sigma, Beta, Gamma, DrawProbability fit.Bounds
}

// DefaultFitBounds returns the bounds Fit searches from start: σ₀ in
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
func DefaultFitBounds(start Params) FitBounds {
	b := FitBounds{
		Sigma: fit.Bounds{Lo: start.Beta / 100, Hi: start.Beta * 100},
		Beta:  fit.Bounds{Lo: start.Beta, Hi: start.Beta},
		Gamma: fit.Bounds{Lo: start.Beta * 1e-5, Hi: start.Beta * 10},
	}
	if start.DrawProbability > 0 {
		b.DrawProbability = fit.Bounds{Lo: 1e-4, Hi: 0.9}
	}
	return b
}

// Fit maximises the log evidence of games that objective names over σ₀,
// β, γ and the draw probability within bounds, starting from start
// (whose μ is kept); opts are passed to New on every evaluation
// (WithPriors, Untimed, WithProgress to follow each evaluation's sweeps;
// nil ones are ignored). The search is the Nelder–Mead simplex on each
// free parameter's logit between its bounds (of its logarithm, for σ₀, β
// and γ), so that every point it tries lies inside them; it has
// converged when the log evidence gains less than opt.Tolerance (default
// 1e-3 nats) over 10 iterations per free parameter, and makes at most
// opt.MaxEvaluations (default 300) evaluations. It checks ctx before each
// evaluation and stops with ctx's error. A start not strictly inside the
// bounds of a free parameter, bad bounds, an unknown objective and an
// empty history are ErrInput, and any evaluation's error ends the fit
// with it. The report's Unconverged counts the evaluations of
// SmoothedEvidence whose smoothing stopped at its sweep cap.
func Fit(ctx context.Context, start Params, games []Match, bounds FitBounds, objective Objective, opt fit.Options[Params], opts ...Option) (Params, fit.Report, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	params, search, err := fitSetup(start, games, bounds, objective)
	if err != nil {
		return start, fit.Report{}, fmt.Errorf("throughtime: Fit: %w", err)
	}
	unconverged := 0
	evidence := func(p Params) (float64, error) {
		h, err := New(p, games, opts...)
		if err != nil {
			return 0, err
		}
		if objective == FilteredEvidence {
			return h.FilteredLogEvidence(), nil
		}
		r, err := h.Converge(ctx, smoothedTolerance, smoothedSweeps)
		if err != nil {
			return 0, err
		}
		if !r.Converged {
			unconverged++
		}
		_, lz, err := h.LogEvidence()
		return lz, err
	}
	p, rep, err := maximize.Fit(ctx, start, params, evidence, search, opt)
	if err != nil {
		return start, fit.Report{}, fmt.Errorf("throughtime: Fit: %w", err)
	}
	rep.Unconverged = unconverged
	return p, rep, nil
}

// fitSetup checks Fit's arguments and returns the parameters it varies
// and its search.
func fitSetup(start Params, games []Match, bounds FitBounds, objective Objective) ([]maximize.Param[Params], maximize.Search, error) {
	search := maximize.Search{
		Map: maximize.Logistic, SimplexSize: 0.3,
		Tolerance: defaultTolerance, MaxEvaluations: defaultMaxEvaluations,
	}
	params := []maximize.Param[Params]{
		{Name: "Sigma", At: func(p *Params) *float64 { return &p.Sigma }, Bounds: bounds.Sigma, Log: true},
		{Name: "Beta", At: func(p *Params) *float64 { return &p.Beta }, Bounds: bounds.Beta, Log: true},
		{Name: "Gamma", At: func(p *Params) *float64 { return &p.Gamma }, Bounds: bounds.Gamma, Log: true},
		{Name: "DrawProbability", At: func(p *Params) *float64 { return &p.DrawProbability }, Bounds: bounds.DrawProbability},
	}
	for _, q := range params {
		if !q.Bounds.Fixed() {
			search.Iterations += 10
		}
	}
	if d := bounds.DrawProbability; !d.Fixed() && !(d.Lo >= 0 && d.Hi < 1) {
		return nil, search, fmt.Errorf("DrawProbability bounds %+v: a probability needs 0 ≤ Lo and Hi < 1: %w", d, ErrInput)
	}
	switch {
	case len(games) == 0:
		return nil, search, fmt.Errorf("no games: %w", ErrInput)
	case objective != FilteredEvidence && objective != SmoothedEvidence:
		return nil, search, fmt.Errorf("%v: %w", objective, ErrInput)
	}
	if err := start.validate(); err != nil {
		return nil, search, fmt.Errorf("start: %w", err)
	}
	return params, search, nil
}
