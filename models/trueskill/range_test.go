package trueskill_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// approx compares whole results to 1e-13 relative.
var approx = cmpopts.EquateApprox(1e-13, 0)

// TestDomain: values at the edges of the model's domain are accepted and
// values just outside it are ErrInput naming the argument, for every entry
// point that takes them; σ = 0 only for predictions.
func TestDomain(t *testing.T) {
	def := trueskill.DefaultParams()
	with := func(f func(p *trueskill.Params)) trueskill.Params { p := def; f(&p); return p }
	good := r(25, 8)
	for _, c := range []struct {
		name  string
		p     trueskill.Params
		a     trueskill.Rating
		w     float64
		field string // "" if valid
	}{
		{"μ = 1e12", def, r(1e12, 8), 1, ""},
		{"μ = −1.0001e12", def, r(-1.0001e12, 8), 1, "Teams.Mu"},
		{"σ = 1e-9", def, r(25, 1e-9), 1, ""},
		{"σ = 1e9", def, r(25, 1e9), 1, ""},
		{"σ = 0.99e-9", def, r(25, 0.99e-9), 1, "Teams.Sigma"},
		{"σ = 1.01e9", def, r(25, 1.01e9), 1, "Teams.Sigma"},
		{"weight 1e-9", def, good, 1e-9, ""},
		{"weight 1e9", def, good, 1e9, ""},
		{"weight 1e-10", def, good, 1e-10, "Weights"},
		{"weight 2e9", def, good, 2e9, "Weights"},
		{"β = 1e-9", with(func(p *trueskill.Params) { p.Beta = 1e-9 }), good, 1, ""},
		{"β = 1e9", with(func(p *trueskill.Params) { p.Beta = 1e9 }), good, 1, ""},
		{"β = 1e-10", with(func(p *trueskill.Params) { p.Beta = 1e-10 }), good, 1, "Params.Beta"},
		{"τ = 1e9", with(func(p *trueskill.Params) { p.Tau = 1e9 }), good, 1, ""},
		{"τ = 2e9", with(func(p *trueskill.Params) { p.Tau = 2e9 }), good, 1, "Params.Tau"},
		{"ε = 1e-300", with(func(p *trueskill.Params) { p.DrawMargin = 1e-300 }), good, 1, ""},
		{"ε = 2e9", with(func(p *trueskill.Params) { p.DrawMargin = 2e9 }), good, 1, "Params.DrawMargin"},
		{"μ₀ = 2e12", with(func(p *trueskill.Params) { p.Mu = 2e12 }), good, 1, "Params.Mu"},
		{"σ₀ = 0", with(func(p *trueskill.Params) { p.Sigma = 0 }), good, 1, "Params.Sigma"},
	} {
		for _, n := range []int{2, 3} {
			m := trueskill.Match{Teams: [][]trueskill.Rating{{c.a}, {good}}, Weights: [][]float64{{c.w}, {1}}}
			if n == 3 {
				m.Teams, m.Weights = append(m.Teams, []trueskill.Rating{good}), append(m.Weights, []float64{1})
			}
			res, err := c.p.Rate(ctx, m)
			var ie *trueskill.InputError
			switch {
			case c.field == "" && err != nil:
				t.Errorf("%s, %d teams: %v", c.name, n, err)
			case c.field == "":
				finiteRatings(t, c.name, res)
			case !errors.Is(err, trueskill.ErrInput) || !errors.As(err, &ie) || ie.Field != c.field:
				t.Errorf("%s, %d teams: %v, want ErrInput naming %s", c.name, n, err, c.field)
			}
		}
	}
	for _, sigma := range []float64{0, 1e-9, 1e9} {
		if _, err := def.Predict([]trueskill.Rating{r(25, sigma)}, []trueskill.Rating{good}); err != nil {
			t.Errorf("Predict with σ = %v: %v", sigma, err)
		}
		if _, err := def.Quality([][]trueskill.Rating{{r(25, sigma)}, {good}, {good}}, nil); err != nil {
			t.Errorf("Quality with σ = %v: %v", sigma, err)
		}
	}
	if _, err := def.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(25, 0)}, {good}}}); !errors.Is(err, trueskill.ErrInput) {
		t.Errorf("Rate with σ = 0: %v, want ErrInput", err)
	}
	if _, _, err := def.Rate1v1(good, r(25, 2e9), false); !errors.Is(err, trueskill.ErrInput) || !strings.Contains(err.Error(), "Teams.Sigma[1][0]") {
		t.Errorf("Rate1v1 with σ = 2e9: %v, want ErrInput naming Teams.Sigma[1][0]", err)
	}
}

// TestScaleInvariance: rating every number of a match (μ, σ, β, τ and the
// draw margin) on a scale s multiplies every posterior μ and σ by s and
// leaves the evidence alone. With s a power of two the float64 closed form
// commutes with the scaling exactly unless something overflows, underflows
// or loses precision, so scales from the bottom to the top of the domain
// must give the ratings at s = 1 to rounding.
func TestScaleInvariance(t *testing.T) {
	p := trueskill.DefaultParams()
	p.DrawMargin = 0.7
	teams := [][]trueskill.Rating{{r(25, 8), r(20, 3)}, {r(30, 5)}}
	scaled := func(s float64) (trueskill.Params, trueskill.Match) {
		q := p
		q.Mu, q.Sigma, q.Beta, q.Tau, q.DrawMargin = s*p.Mu, s*p.Sigma, s*p.Beta, s*p.Tau, s*p.DrawMargin
		m := trueskill.Match{Teams: [][]trueskill.Rating{{}, {}}}
		for j, team := range teams {
			for _, x := range team {
				m.Teams[j] = append(m.Teams[j], r(s*x.Mu, s*x.Sigma))
			}
		}
		return q, m
	}
	for _, drawn := range []bool{false, true} {
		q, m := scaled(1)
		if drawn {
			m.Ranks = []int{0, 0}
		}
		want, err := q.Rate(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		// Every σ, β and margin must stay in [1e-9, 1e9]: s from 2⁻²⁹ to 2²⁶.
		for _, k := range []int{-29, -13, -1, 1, 13, 26} {
			s := math.Ldexp(1, k)
			q, m := scaled(s)
			if drawn {
				m.Ranks = []int{0, 0}
			}
			got, err := q.Rate(ctx, m)
			if err != nil {
				t.Fatalf("scale 2^%d: %v", k, err)
			}
			back := [][]trueskill.Rating{{}, {}}
			for j, team := range got.Ratings {
				for _, x := range team {
					back[j] = append(back[j], r(x.Mu/s, x.Sigma/s))
				}
			}
			if d := cmp.Diff(want.Ratings, back, approx); d != "" || math.Abs(got.LogEvidence-want.LogEvidence) > 1e-13 {
				t.Errorf("drawn %v, scale 2^%d: log evidence %v, want %v; ratings ÷ s (-s = 1 +scaled):\n%s", drawn, k, got.LogEvidence, want.LogEvidence, d)
			}
		}
	}
}

// TestDomainTails rates two-team matches at the corners of the domain,
// where the truncation corrections are in their tails, against the closed
// form's limits written out.
func TestDomainTails(t *testing.T) {
	def := trueskill.DefaultParams()
	def.DrawProbability = 0
	// An upset of −1e12 over 1e12 with σ = β = s = 1e-9, τ = 0:
	// t = μ_d/c = −2e12/(2s) = −1e21, where V(t) = −t + O(1/t) and
	// 1 − W(t) = O(1/t²). Each player moves by v/c·V = s²/(2s)·1e21 = 5e11
	// and keeps σ'² = v·(c² − v)/c² = ¾s²; the evidence is
	// log Φ(t) = −t²/2 − log(−t·√(2π)) + O(1/t²).
	p := def
	p.Tau, p.Beta = 0, 1e-9
	lo, hi := r(-1e12, 1e-9), r(1e12, 1e-9)
	res, err := p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{lo}, {hi}}})
	if err != nil {
		t.Fatal(err)
	}
	tt := -1e21
	want := trueskill.Result{
		Ratings:     [][]trueskill.Rating{{r(-5e11, math.Sqrt(0.75)*1e-9)}, {r(5e11, math.Sqrt(0.75)*1e-9)}},
		LogEvidence: -tt*tt/2 - math.Log(-tt*math.Sqrt(2*math.Pi)), Converged: true, ClosedForm: true,
	}
	if d := cmp.Diff(want, res, approx); d != "" {
		t.Errorf("upset at the domain's corner (-want +got):\n%s", d)
	}
	w, l, err := p.Rate1v1(lo, hi, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want.Ratings, [][]trueskill.Rating{{w}, {l}}, approx); d != "" {
		t.Errorf("Rate1v1 differs from Rate (-Rate +Rate1v1):\n%s", d)
	}

	// The expected result of the same match: t = 1e21, V = W = 0 to
	// float64, so nobody moves and the evidence is log 1 = 0.
	res, err = p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{hi}, {lo}}})
	if err != nil {
		t.Fatal(err)
	}
	want = trueskill.Result{Ratings: [][]trueskill.Rating{{hi}, {lo}}, Converged: true, ClosedForm: true}
	if d := cmp.Diff(want, res, approx); d != "" {
		t.Errorf("expected result at the domain's corner (-want +got):\n%s", d)
	}

	// σ = 1e9 against β = 1e-9 and a player with σ = 1e-9: d ~ N(0, c²)
	// with c ≈ σ, t = 0, so V = √(2/π) and W = 2/π: the uncertain player
	// moves by σ²/c·V = σ·√(2/π) and keeps σ·√(1 − 2/π), to O((1e-9/σ)²).
	res, err = p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(0, 1e9)}, {r(0, 1e-9)}}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Ratings[0][0]
	if d := cmp.Diff(r(1e9*math.Sqrt(2/math.Pi), 1e9*math.Sqrt(1-2/math.Pi)), got, approx); d != "" || math.Abs(res.LogEvidence-math.Log(0.5)) > 1e-15 {
		t.Errorf("σ = 1e9 against 1e-9: log evidence %v (-want +got):\n%s", res.LogEvidence, d)
	}

	// σ at the bottom of the domain against σ₀: its posterior moves by
	// σ²V/c ≈ 1e-19 and keeps σ·(1 − O(σ²/c²)), so it stays put, and
	// rates again.
	p = def
	p.Tau = 0
	a, b := r(25, 1e-9), r(26, 8)
	for range 3 {
		if a, b, err = p.Rate1v1(a, b, false); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(r(25, 1e-9), a, approx); d != "" {
			t.Errorf("σ = 1e-9 (-want +got):\n%s", d)
		}
	}
}

// TestPointMassPrediction checks Predict, WinProbability and Quality with
// ratings known exactly (σ = 0) and not, against equation 11 of the
// score-based paper, Φ((μ₁ − μ₂)/√(2β² + σ₁² + σ₂²)), and equation 7 of the
// TrueSkill paper written out, with erfc for Φ.
func TestPointMassPrediction(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau, p.DrawProbability = 0, 0
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	for _, c := range [][2]trueskill.Rating{
		{r(25, 0), r(25, 0)}, {r(30, 0), r(20, 0)}, {r(20, 0), r(30, 3)}, {r(1500, 0), r(1200, 50)},
		{r(25, 8), r(22, 0)}, {r(-40, 0), r(40, 0)}, {r(28, 4), r(23, 6)},
	} {
		a, b := c[0], c[1]
		den := 2*p.Beta*p.Beta + a.Sigma*a.Sigma + b.Sigma*b.Sigma
		want, wantLoss := phi((a.Mu-b.Mu)/math.Sqrt(den)), phi((b.Mu-a.Mu)/math.Sqrt(den))
		win, err := p.WinProbability([]trueskill.Rating{a}, []trueskill.Rating{b})
		if err != nil {
			t.Fatal(err)
		}
		pr, err := p.Predict([]trueskill.Rating{a}, []trueskill.Rating{b})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]float64{want, 0, wantLoss}, []float64{win, pr.Draw, pr.Loss}, cmpopts.EquateApprox(1e-13, 1e-300)); d != "" || pr.Win != win {
			t.Errorf("%v vs %v: (-eq. 11 +WinProbability, Draw, Loss):\n%s", a, b, d)
		}
		q, err := p.Quality([][]trueskill.Rating{{a}, {b}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		wantQ := math.Sqrt(2*p.Beta*p.Beta/den) * math.Exp(-(a.Mu-b.Mu)*(a.Mu-b.Mu)/(2*den))
		if d := cmp.Diff(wantQ, q, cmpopts.EquateApprox(1e-13, 1e-300)); d != "" {
			t.Errorf("%v vs %v: (-eq. 7 +Quality):\n%s", a, b, d)
		}
	}
}

// TestGraphEvidenceExtremes: the graph path's log evidence of a
// near-certain outcome is ≈ 0 (where the graph's generic sum cancels terms
// of the size of the squared means), and that of a near-impossible one a
// large negative number equal to the generic sum's, which is accurate
// there; for two teams it equals the closed form's.
func TestGraphEvidenceExtremes(t *testing.T) {
	p := trueskill.DefaultParams()
	spaced := func(n int, gap float64, reversed bool) trueskill.Match {
		m := trueskill.Match{Ranks: make([]int, n)}
		for k := range n {
			m.Teams = append(m.Teams, []trueskill.Rating{r(gap*float64(n-1-2*k)/2, 1+float64(k))})
			m.Ranks[k] = k
			if reversed {
				m.Ranks[k] = n - 1 - k
			}
		}
		return m
	}
	for _, n := range []int{2, 3, 5} {
		for _, gap := range []float64{1e6, 1e11} {
			res, err := p.RateGraph(ctx, spaced(n, gap, false))
			if err != nil {
				t.Fatalf("%d teams %g apart: %v", n, gap, err)
			}
			if !(res.LogEvidence <= 0 && res.LogEvidence > -1e-300) {
				t.Errorf("%d teams %g apart, as expected: log evidence %v, want ≈ 0", n, gap, res.LogEvidence)
			}
		}
		for _, gap := range []float64{1e6, 1e11} {
			m := spaced(n, gap, true)
			got, generic := bothEvidences(t, p, m)
			if d := cmp.Diff(generic, got, cmpopts.EquateApprox(1e-12, 0)); d != "" || !(got < -1e9) {
				t.Errorf("%d teams %g apart, reversed: log evidence %v, the graph's sum %v", n, gap, got, generic)
			}
			if n == 2 {
				closed, err := p.Rate(ctx, m)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(closed.LogEvidence, got, cmpopts.EquateApprox(1e-14, 0)); d != "" {
					t.Errorf("two teams %g apart: graph %v, closed form %v", gap, got, closed.LogEvidence)
				}
			}
		}
	}
}

// TestChainEvidenceEqualsGraphSum compares Game.LogEvidence, computed from
// the chain of differences, with the graph's generic sum over every factor
// (graph.Graph.LogEvidence) on 300 random games of 2-16 teams with ties,
// at the default tolerance: the two are the same EP evidence.
func TestChainEvidenceEqualsGraphSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	p := trueskill.DefaultParams()
	worst := 0.0
	for range 300 {
		k := 2 + rng.IntN(15)
		m := trueskill.Match{Ranks: make([]int, k)}
		for j := range k {
			team := make([]trueskill.Rating, 1+rng.IntN(3))
			for i := range team {
				team[i] = r(rng.Float64()*50, 1+rng.Float64()*7.34)
			}
			m.Teams = append(m.Teams, team)
			m.Ranks[j] = rng.IntN(k + 2)
		}
		if rng.IntN(2) == 0 {
			for _, team := range m.Teams {
				w := make([]float64, len(team))
				for i := range w {
					w[i] = 0.1 + rng.Float64()
				}
				m.Weights = append(m.Weights, w)
			}
		}
		got, want := bothEvidences(t, p, m)
		worst = math.Max(worst, math.Abs(got-want)/math.Max(1, math.Abs(want)))
	}
	t.Logf("worst difference %.2g", worst)
	if worst > 1e-12 {
		t.Errorf("chain and graph evidence differ by %.3g", worst)
	}
}

// laggingContext's deadline has passed but its Err is still nil, as a
// context's is until its timer's goroutine runs.
type laggingContext struct{ context.Context }

func (laggingContext) Deadline() (time.Time, bool) { return time.Now().Add(-time.Second), true }

// TestExpiredContext: a context whose deadline has passed (its timer fired
// or not yet), or that is cancelled, fails every rating call with its
// error, whether or not the match needs the iteration that checks it,
// never with ErrNumerical; and a 200-player
// free-for-all given 1 µs always overruns it, so it always fails.
func TestExpiredContext(t *testing.T) {
	p := trueskill.DefaultParams()
	past, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	cancelled, cancel2 := context.WithCancel(ctx)
	cancel2()
	ffa := func(n int) trueskill.Match {
		m := trueskill.Match{}
		for range n {
			m.Teams = append(m.Teams, []trueskill.Rating{p.NewRating()})
		}
		return m
	}
	matches := map[string]trueskill.Match{"1v1": ffa(2), "3 teams": ffa(3), "200 players": ffa(200)}
	for _, c := range []struct {
		ctx  context.Context
		want error
	}{{past, context.DeadlineExceeded}, {cancelled, context.Canceled}, {laggingContext{ctx}, context.DeadlineExceeded}} {
		for name, m := range matches {
			rt := p.NewRater()
			for call, rate := range map[string]func(context.Context, trueskill.Match) (trueskill.Result, error){
				"Rate": p.Rate, "RateGraph": p.RateGraph, "Rater.Rate": rt.Rate, "Rater.RateGraph": rt.RateGraph,
			} {
				if res, err := rate(c.ctx, m); !errors.Is(err, c.want) || errors.Is(err, trueskill.ErrNumerical) || res.Ratings != nil {
					t.Errorf("%s of %s: %v, %v; want %v and no ratings", call, name, res.Ratings != nil, err, c.want)
				}
			}
		}
	}
	for range 5 {
		dctx, cancel := context.WithTimeout(ctx, time.Microsecond)
		_, err := p.Rate(dctx, ffa(200))
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("200 players in 1 µs: %v, want DeadlineExceeded", err)
		}
	}
}

// TestGraphRangeClosure rates three players whose σ and β are at the
// bottom of the domain, with τ = 0, so that σ shrinks below it: the graph
// path returns finite posteriors, and the next match, whose input is now
// outside the domain, is ErrInput naming the player's σ, never a NaN or a
// σ of 0.
func TestGraphRangeClosure(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau, p.Beta = 0, 1e-9
	teams := [][]trueskill.Rating{{r(0, 1e-9)}, {r(0, 1e-9)}, {r(0, 1e-9)}}
	res, err := p.Rate(ctx, trueskill.Match{Teams: teams})
	if err != nil {
		t.Fatal(err)
	}
	finiteRatings(t, "σ = β = 1e-9", res)
	_, err = p.Rate(ctx, trueskill.Match{Teams: res.Ratings})
	var ie *trueskill.InputError
	if !errors.Is(err, trueskill.ErrInput) || !errors.As(err, &ie) || ie.Field != "Teams.Sigma" {
		t.Errorf("posteriors %v rated again: %v, want ErrInput naming Teams.Sigma", res.Ratings, err)
	}
}

// bothEvidences runs m's game and returns its log evidence
// (Game.LogEvidence, from the chain of differences) and the graph's
// generic sum over every factor.
func bothEvidences(t *testing.T, p trueskill.Params, m trueskill.Match) (chain, generic float64) {
	t.Helper()
	gm, err := p.NewGame(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gm.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if chain, err = gm.LogEvidence(); err != nil {
		t.Fatal(err)
	}
	if generic, err = gm.Graph().LogEvidence(); err != nil {
		t.Fatal(err)
	}
	return chain, generic
}

// TestChainEvidenceDominantVariance: a team whose variance (σ = 1e4)
// dwarfs its neighbours' (σ ≈ 1e-6) makes the covariance of the
// differences nearly singular; the chain's evidence stays finite (its
// textbook Cholesky factorisation gave −Inf) and agrees with the graph's
// generic sum over every factor, which is accurate there to about 1e-9.
func TestChainEvidenceDominantVariance(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau, p.Beta, p.DrawProbability = 0, 5.555555555555556e-06, 0.99
	x := r(-1.28, 1e-6)
	m := trueskill.Match{Teams: [][]trueskill.Rating{{r(-800000, 10000), x, x}, {x, x, x}, {x, x, x}}, Ranks: []int{1, 0, 1}}
	got, generic := bothEvidences(t, p, m)
	if d := cmp.Diff(generic, got, cmpopts.EquateApprox(1e-8, 0)); d != "" {
		t.Errorf("log evidence %v, the graph's sum %v", got, generic)
	}
	if _, err := p.Rate(ctx, m); err != nil {
		t.Error(err)
	}
}

// truncatedMoments returns the mean and variance of z ~ N(0, 1) truncated
// to [lo, hi] (hi may be +Inf), by composite Simpson's rule on the density
// relative to its largest value on the interval, so that a far tail keeps
// its digits: no Φ, V or W of package messages.
func truncatedMoments(lo, hi float64) (mean, variance float64) {
	peak := math.Max(lo, math.Min(hi, 0)) // where φ is largest on [lo, hi]
	// φ falls by e^−40 within 40/|z| of a tail's edge, and within 9 of 0.
	if width := 40 / math.Max(math.Abs(peak), 1); hi > peak+width {
		hi = peak + width
	}
	if width := 40 / math.Max(math.Abs(peak), 1); lo < peak-width {
		lo = peak - width
	}
	const n = 200000
	h := (hi - lo) / n
	moment := func(f func(z float64) float64) float64 {
		var sum, mass float64
		for k := 0; k <= n; k++ {
			z := lo + float64(k)*h
			w := 2.0 + 2*float64(k%2)
			if k == 0 || k == n {
				w = 1
			}
			d := w * math.Exp(-0.5*(z-peak)*(z+peak))
			sum += d * f(z)
			mass += d
		}
		return sum / mass
	}
	mean = moment(func(z float64) float64 { return z })
	variance = moment(func(z float64) float64 { return (z - mean) * (z - mean) })
	return mean, variance
}

// TestTwoTeamTails compares Rate1v1 with the exact posterior, whose moments
// follow from those of the truncated difference d = s_w − s_l + noise
// (jointly Gaussian with each skill): with z = (d − μ_d)/c truncated to
// the outcome's region, μ' = μ ± v/c·E z and σ'² = v·(1 − v/c²·(1 − Var z)).
// The cases run from an expected win to an upset of 30 standard deviations,
// and draws of a favourite and an outsider far apart.
func TestTwoTeamTails(t *testing.T) {
	p := trueskill.DefaultParams()
	for _, gap := range []float64{-8, -2, 0, 3, 10, 30} { // μ_l − μ_w in units of c
		for _, drawn := range []bool{false, true} {
			w, l := r(20, 6), r(0, 3)
			vw, vl := w.Sigma*w.Sigma+p.Tau*p.Tau, l.Sigma*l.Sigma+p.Tau*p.Tau
			c := math.Sqrt(vw + vl + 2*p.Beta*p.Beta)
			l.Mu = w.Mu + gap*c
			eps := p.Margin(1, 1)
			md := w.Mu - l.Mu
			lo, hi := (eps-md)/c, math.Inf(1)
			if drawn {
				lo, hi = (-eps-md)/c, (eps-md)/c
			}
			ez, vz := truncatedMoments(lo, hi)
			want := []trueskill.Rating{
				r(w.Mu+vw/c*ez, math.Sqrt(vw*(1-vw/(c*c)*(1-vz)))),
				r(l.Mu-vl/c*ez, math.Sqrt(vl*(1-vl/(c*c)*(1-vz)))),
			}
			gw, gl, err := p.Rate1v1(w, l, drawn)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, []trueskill.Rating{gw, gl}, cmpopts.EquateApprox(1e-12, 0)); d != "" {
				t.Errorf("gap %vc, drawn %v (-quadrature +Rate1v1):\n%s", gap, drawn, d)
			}
		}
	}
}

// TestNarrowDrawMarginIsNamed: a draw margin inside the domain but so
// small (1e-200) that the draw's difference has a variance below float64's
// range cannot run through the graph (three teams); the error is
// ErrNumerical and names the margin, the argument to change, as well as
// the ratings. Two teams take the closed form, which needs no such
// variance: a draw there is, to relative O(ε²), the conditioning on d = 0
// (d = t₁ − t₂ ~ N(μ₁ − μ₂, c²)), μ₁' = μ₁ − v₁(μ₁ − μ₂)/c², v₁' = v₁(1 − v₁/c²).
func TestNarrowDrawMarginIsNamed(t *testing.T) {
	p := trueskill.DefaultParams()
	p.DrawProbability, p.DrawMargin = 0, 1e-200
	a, b := r(25, 8), r(27, 6)
	_, err := p.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{a}, {b}, {r(26, 7)}}, Ranks: []int{0, 0, 0}})
	if !errors.Is(err, trueskill.ErrNumerical) || !strings.Contains(err.Error(), "Params.DrawMargin") {
		t.Errorf("three teams drawn at ε = 1e-200: %v, want ErrNumerical naming Params.DrawMargin", err)
	}
	res, err := p.Rate(context.Background(), trueskill.Match{Teams: [][]trueskill.Rating{{a}, {b}}, Ranks: []int{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	va, vb := a.Sigma*a.Sigma+p.Tau*p.Tau, b.Sigma*b.Sigma+p.Tau*p.Tau
	c2 := va + vb + 2*p.Beta*p.Beta
	want := r(a.Mu-va*(a.Mu-b.Mu)/c2, math.Sqrt(va*(1-va/c2)))
	if got := res.Ratings[0][0]; relErr(got.Mu, want.Mu) > 1e-12 || relErr(got.Sigma, want.Sigma) > 1e-12 {
		t.Errorf("two teams drawn at ε = 1e-200: %v, want %v", got, want)
	}
}
