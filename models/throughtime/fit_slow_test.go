// The race detector slows these fits (no goroutines) tenfold and finds
// nothing in them, so they run without it; the fitter's other tests run
// under it.

//go:build !race

package throughtime_test

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/internal/synthetic"
	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
)

// TestFitRecoversParameters: on 3,000 games drawn from the model with
// σ₀/β = 2 and γ/β = 0.06 a step, the fit of the filtered evidence from
// the defaults (σ₀ = 6, γ = 0.03, β = 1 held fixed) lands near them, and
// the evidence it reports is that of New at its optimum.
func TestFitRecoversParameters(t *testing.T) {
	games := randomPairs(7, 100, 100, 30, 2, 1, 0.06)
	start := throughtime.DefaultParams()
	res, err := fitRun(context.Background(), start, games, throughtime.DefaultFitBounds(start), throughtime.FilteredEvidence, fit.Options[throughtime.Params]{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if !res.Converged || res.Evaluations < 2 || res.Evaluations > 300 {
		t.Errorf("converged %v after %d evaluations (%s)", res.Converged, res.Evaluations, res.Status)
	}
	if res.Params.Beta != 1 || res.Params.Mu != 0 || res.Params.DrawProbability != 0 {
		t.Errorf("fixed parameters moved: %+v", res.Params)
	}
	// The sample's own spread of skills and its finite length leave the
	// estimates within about 25 % of the truth.
	if r := res.Params.Sigma / 2; r < 0.75 || r > 1.25 {
		t.Errorf("σ₀ = %v, drawn with 2", res.Params.Sigma)
	}
	if r := res.Params.Gamma / 0.06; r < 0.8 || r > 1.25 {
		t.Errorf("γ = %v, drawn with 0.06", res.Params.Gamma)
	}
	h, err := throughtime.New(res.Params, games)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.FilteredLogEvidence(); got != res.LogEvidence {
		t.Errorf("reported evidence %v, New at the optimum gives %v", res.LogEvidence, got)
	}
	h0, err := throughtime.New(start, games)
	if err != nil {
		t.Fatal(err)
	}
	if got := h0.FilteredLogEvidence(); got != res.StartLogEvidence || !(res.LogEvidence > res.StartLogEvidence) {
		t.Errorf("start evidence %v (New: %v), optimum %v", res.StartLogEvidence, got, res.LogEvidence)
	}
}

// TestFitSyntheticHistory: on internal/synthetic's tennis-shaped history
// (σ₀ = 1, β = 0.5, γ = 0.03 a week: σ₀/β = 2, γ/β = 0.06), the fit of
// the filtered evidence moves both parameters from the defaults toward
// the truth, and lands near it in γ. (σ₀ comes out low: the generator
// pairs players of close skill, so first games are closer to even than
// random pairings of N(0, σ₀²) skills would be.)
func TestFitSyntheticHistory(t *testing.T) {
	games := synthetic.History(synthetic.Shape{Games: 3000, Players: 150, Batches: 300, Seed: 7})
	start := throughtime.DefaultParams()
	res, err := fitRun(context.Background(), start, games, throughtime.DefaultFitBounds(start), throughtime.FilteredEvidence, fit.Options[throughtime.Params]{Tolerance: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if !(distance(res.Params, 2, 0.06) < distance(start, 2, 0.06)) {
		t.Errorf("fit %+v is no closer to the truth than the start", res.Params)
	}
	if g := res.Params.Gamma; g < 0.04 || g > 0.08 {
		t.Errorf("γ = %v, drawn with 0.06", g)
	}
}

// distance is how far p is from σ₀/β = sigma and γ/β = gamma, on a log
// scale.
