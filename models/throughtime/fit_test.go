package throughtime_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/throughtime"
	"gonum.org/v1/gonum/stat/distuv"
)

// randomPairs is a history drawn from the model itself: players' skills
// start at N(0, σ²) and drift by N(0, γ²) each time step; each step
// pairs perBatch disjoint pairs of players at random, and the better
// performance (skill plus N(0, β²)) wins.
func randomPairs(seed uint64, players, steps, perBatch int, sigma, beta, gamma float64) []throughtime.Match {
	rng := rand.New(rand.NewPCG(seed, 2))
	skill := make([]float64, players)
	for i := range skill {
		skill[i] = sigma * rng.NormFloat64()
	}
	var games []throughtime.Match
	for b := range steps {
		if b > 0 {
			for i := range skill {
				skill[i] += gamma * rng.NormFloat64()
			}
		}
		perm := rng.Perm(players)
		for k := range perBatch {
			a, c := perm[2*k], perm[2*k+1]
			if skill[a]+beta*rng.NormFloat64() < skill[c]+beta*rng.NormFloat64() {
				a, c = c, a
			}
			games = append(games, throughtime.Match{Time: float64(b), Teams: [][]string{{fmt.Sprint(a)}, {fmt.Sprint(c)}}})
		}
	}
	return games
}

func distance(p throughtime.Params, sigma, gamma float64) float64 {
	return math.Hypot(math.Log(p.Sigma/p.Beta/sigma), math.Log(p.Gamma/p.Beta/gamma))
}

// TestFitSmoothed: the fit of the smoothed evidence moves toward the
// parameters a history was drawn with, and the evidence it reports is
// that of New at its optimum smoothed as it smooths (to 1e-3 in at most
// 100 sweeps).
func TestFitSmoothed(t *testing.T) {
	games := randomPairs(7, 40, 50, 15, 2, 1, 0.06)
	start := throughtime.DefaultParams()
	res, err := fitRun(context.Background(), start, games, throughtime.DefaultFitBounds(start), throughtime.SmoothedEvidence, fit.Options[throughtime.Params]{Tolerance: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if !res.Converged || !(distance(res.Params, 2, 0.06) < distance(start, 2, 0.06)) {
		t.Errorf("fit %+v (converged %v) is no closer to the truth than the start", res.Params, res.Converged)
	}
	h, err := throughtime.New(res.Params, games)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 1e-3, 100); err != nil {
		t.Fatal(err)
	}
	if _, want, err := h.LogEvidence(); err != nil || res.LogEvidence != want || !(res.LogEvidence > res.StartLogEvidence) {
		t.Errorf("reported evidence %v (start %v), recomputed %v (%v)", res.LogEvidence, res.StartLogEvidence, want, err)
	}
}

// TestFitDrawProbability checks the optimiser against a closed form.
// In a history of games between players who never meet again, each game
// is a draw with probability q = 2Φ(Φ⁻¹((p+1)/2)·β/√(σ₀²+β²)) − 1 (the
// margin is Φ⁻¹((p+1)/2)·√2·β, the difference N(0, 2σ₀² + 2β²)) and
// each side wins with (1 − q)/2, so with d draws in n games the evidence
// is highest at q = d/n, that is p = 2Φ(Φ⁻¹((d/n+1)/2)·√(σ₀²+β²)/β) − 1.
func TestFitDrawProbability(t *testing.T) {
	const n, d = 200, 37
	var games []throughtime.Match
	for k := range n {
		g := throughtime.Match{Time: float64(k), Teams: [][]string{{fmt.Sprint("a", k)}, {fmt.Sprint("b", k)}}}
		if k < d {
			g.Ranks = []int{0, 0}
		}
		games = append(games, g)
	}
	start := throughtime.Params{Sigma: 1.5, Beta: 1, Gamma: 0.1, DrawProbability: 0.5}
	b := throughtime.DefaultFitBounds(start)
	b.Sigma = fit.Bounds{Lo: 1.5, Hi: 1.5}
	b.Gamma = fit.Bounds{Lo: 0.1, Hi: 0.1}
	res, err := fitRun(context.Background(), start, games, b, throughtime.FilteredEvidence, fit.Options[throughtime.Params]{Tolerance: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	var std distuv.Normal = distuv.UnitNormal
	want := 2*std.CDF(std.Quantile((float64(d)/n+1)/2)*math.Sqrt(1.5*1.5+1)) - 1
	if math.Abs(res.Params.DrawProbability-want) > 1e-4 || !res.Converged {
		t.Errorf("p = %v (converged %v), want %v", res.Params.DrawProbability, res.Converged, want)
	}
	q := float64(d) / n
	if lz := d*math.Log(q) + (n-d)*math.Log((1-q)/2); math.Abs(res.LogEvidence-lz) > 1e-6 {
		t.Errorf("log evidence %v, want %v", res.LogEvidence, lz)
	}
}

// TestScaleInvariance: scaling μ₀, σ₀, β and γ together leaves every game's one-step-ahead probability as it was, with draws
// and multi-team games, which is why DefaultFitBounds holds β fixed.
func TestScaleInvariance(t *testing.T) {
	games := []throughtime.Match{
		{Time: 0, Teams: [][]string{{"a"}, {"b", "c"}}, Ranks: []int{0, 0}},
		{Time: 1, Teams: [][]string{{"a"}, {"b"}, {"d"}}, Ranks: []int{1, 0, 2}},
		{Time: 3, Teams: [][]string{{"c"}, {"d"}}},
		{Time: 4, Teams: [][]string{{"a"}, {"c"}, {"b"}, {"d"}}, Ranks: []int{0, 1, 1, 2}},
	}
	p := throughtime.Params{Mu: 0.4, Sigma: 2, Beta: 1, Gamma: 0.5, DrawProbability: 0.2}
	q := throughtime.Params{Mu: 0.4 * 7.5, Sigma: 2 * 7.5, Beta: 7.5, Gamma: 0.5 * 7.5, DrawProbability: 0.2}
	hp, err := throughtime.New(p, games)
	if err != nil {
		t.Fatal(err)
	}
	hq, err := throughtime.New(q, games)
	if err != nil {
		t.Fatal(err)
	}
	a, b := hp.Filtered(), hq.Filtered()
	for k := range a {
		if math.Abs(a[k]-b[k]) > 1e-6*math.Abs(a[k]) {
			t.Errorf("game %d: %v at β = 1, %v at β = 7.5", k, a[k], b[k])
		}
	}
}

func TestFitErrors(t *testing.T) {
	games := randomPairs(1, 10, 5, 3, 1, 1, 0.1)
	start := throughtime.DefaultParams()
	ok := throughtime.DefaultFitBounds(start)
	with := func(f func(*throughtime.FitBounds)) throughtime.FitBounds {
		b := ok
		f(&b)
		return b
	}
	var opt fit.Options[throughtime.Params]
	filtered := throughtime.FilteredEvidence
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		name   string
		ctx    context.Context
		start  throughtime.Params
		games  []throughtime.Match
		bounds throughtime.FitBounds
		obj    throughtime.Objective
		opt    fit.Options[throughtime.Params]
		want   error
		text   string
	}{
		{"no games", ctx, start, nil, ok, filtered, opt, throughtime.ErrInput, "no games"},
		{"bad start", ctx, throughtime.Params{Sigma: -1, Beta: 1}, games, ok, filtered, opt, throughtime.ErrInput, "start"},
		{"Lo above Hi", ctx, start, games, with(func(b *throughtime.FitBounds) { b.Sigma = fit.Bounds{Lo: 10, Hi: 1} }), filtered, opt, throughtime.ErrInput, "Lo above Hi"},
		{"NaN bound", ctx, start, games, with(func(b *throughtime.FitBounds) { b.Gamma.Hi = math.NaN() }), filtered, opt, throughtime.ErrInput, "Gamma bounds"},
		{"infinite bound", ctx, start, games, with(func(b *throughtime.FitBounds) { b.Sigma.Hi = math.Inf(1) }), filtered, opt, throughtime.ErrInput, "Sigma bounds"},
		{"log scale from 0", ctx, start, games, with(func(b *throughtime.FitBounds) { b.Gamma.Lo = 0 }), filtered, opt, throughtime.ErrInput, "log scale"},
		{"probability 1", ctx, throughtime.Params{Sigma: 6, Beta: 1, Gamma: 0.03, DrawProbability: 0.1}, games, with(func(b *throughtime.FitBounds) { b.DrawProbability = fit.Bounds{Lo: 0, Hi: 1} }), filtered, opt, throughtime.ErrInput, "probability"},
		{"start outside", ctx, start, games, with(func(b *throughtime.FitBounds) { b.Sigma = fit.Bounds{Lo: 7, Hi: 9} }), filtered, opt, throughtime.ErrInput, "strictly inside"},
		{"fixed at nonsense", ctx, start, games, with(func(b *throughtime.FitBounds) { b.Beta = fit.Bounds{Lo: -1, Hi: -1} }), filtered, opt, throughtime.ErrInput, "Params.Beta"},
		{"objective", ctx, start, games, ok, 7, opt, throughtime.ErrInput, "Objective(7)"},
		{"evaluations", ctx, start, games, ok, filtered, fit.Options[throughtime.Params]{MaxEvaluations: -1}, throughtime.ErrInput, "MaxEvaluations -1"},
		{"tolerance", ctx, start, games, ok, filtered, fit.Options[throughtime.Params]{Tolerance: math.NaN()}, throughtime.ErrInput, "Tolerance NaN"},
		{"draws with p fixed at 0", ctx, start, []throughtime.Match{{Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 0}}}, ok, filtered, opt, throughtime.ErrInput, "tie"},
		{"cancelled", cancelled, start, games, ok, filtered, opt, context.Canceled, ""},
	} {
		if _, _, err := throughtime.Fit(c.ctx, c.start, c.games, c.bounds, c.obj, c.opt); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.want, c.text)
		}
	}
	if _, _, err := throughtime.Fit(ctx, start, games, throughtime.FitBounds{}, filtered, opt); !errors.Is(err, throughtime.ErrInput) {
		t.Errorf("zero options: %v", err)
	}
	// One evaluation allowed: the start, not converged.
	res, err := fitRun(ctx, start, games, ok, filtered, fit.Options[throughtime.Params]{MaxEvaluations: 1})
	if err != nil || res.Evaluations != 1 || res.Converged || res.Params != start || res.LogEvidence != res.StartLogEvidence {
		t.Errorf("one evaluation: %+v, %v", res, err)
	}
}

// TestFitBounds: with bounds that exclude the optimum (γ ≈ 0.06 and
// σ₀ ≈ 2 on this history) the fit stays inside them, at the edges
// nearest the optimum.
func TestFitBounds(t *testing.T) {
	games := randomPairs(7, 40, 50, 15, 2, 1, 0.06)
	start := throughtime.Params{Sigma: 5, Beta: 1, Gamma: 0.005}
	b := throughtime.DefaultFitBounds(start)
	b.Sigma = fit.Bounds{Lo: 4, Hi: 20}
	b.Gamma = fit.Bounds{Lo: 0.001, Hi: 0.01}
	res, err := fitRun(context.Background(), start, games, b, throughtime.FilteredEvidence, fit.Options[throughtime.Params]{})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Params
	if p.Sigma < 4 || p.Sigma > 4.05 || p.Gamma > 0.01 || p.Gamma < 0.0099 {
		t.Errorf("σ₀ = %v in [4, 20], γ = %v in [0.001, 0.01]: want both at the edge nearest the optimum", p.Sigma, p.Gamma)
	}
}

// TestFitCancelledMidway: a deadline that passes during the search (which
// takes seconds) stops it with the context's error.
func TestFitCancelledMidway(t *testing.T) {
	games := randomPairs(7, 100, 100, 30, 2, 1, 0.06)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := throughtime.DefaultParams()
	_, _, err := throughtime.Fit(ctx, start, games, throughtime.DefaultFitBounds(start), throughtime.SmoothedEvidence, fit.Options[throughtime.Params]{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%v, want context.DeadlineExceeded", err)
	}
}

// fitResult is Fit's two results in one, for the tests.
type fitResult struct {
	Params throughtime.Params
	fit.Report
}

// fitRun runs Fit and returns its results as a fitResult.
func fitRun(ctx context.Context, start throughtime.Params, games []throughtime.Match, b throughtime.FitBounds, obj throughtime.Objective, opt fit.Options[throughtime.Params], opts ...throughtime.Option) (fitResult, error) {
	p, rep, err := throughtime.Fit(ctx, start, games, b, obj, opt, opts...)
	return fitResult{p, rep}, err
}
