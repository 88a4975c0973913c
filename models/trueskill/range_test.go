package trueskill_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgraph/skillgraph/models/trueskill"
)

// approx compares whole results to 1e-13 relative.
var approx = cmpopts.EquateApprox(1e-13, 0)

// TestClosedFormExtremes rates two-team matches whose variances or mean
// difference leave float64's range, where the float64 closed form returned
// NaN or ±Inf with a nil error (or σ = 0 for σ = 1e-170), and checks them
// against the closed form's limits written out, against the same match
// with the weights scaled (the update depends on w/c only), and against
// the same match scaled by a power of two (μ, σ, β and τ scaled by s scale
// every posterior μ and σ by s and leave the evidence alone).
func TestClosedFormExtremes(t *testing.T) {
	def := trueskill.DefaultParams()
	with := func(f func(p *trueskill.Params)) trueskill.Params { p := def; f(&p); return p }
	oneOnOne := func(p trueskill.Params, w, l trueskill.Rating) trueskill.Result {
		t.Helper()
		res, err := p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{w}, {l}}})
		if err != nil {
			t.Fatal(err)
		}
		w1, l1, err := p.Rate1v1(w, l, false)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(res.Ratings, [][]trueskill.Rating{{w1}, {l1}}, approx); d != "" {
			t.Errorf("Rate1v1 differs from Rate (-Rate +Rate1v1):\n%s", d)
		}
		return res
	}
	// Two players whose σ (with τ) dwarfs β and the margin: d ~ N(0, 2v),
	// t = 0, ε/c → 0, so V = √(2/π), W = 2/π, and each moves by
	// v/c·V = √v/√π, with σ' = √v·√(1 − 1/π); the evidence is log ½.
	spread := func(sd float64) [][]trueskill.Rating {
		return [][]trueskill.Rating{{r(25+sd/math.SqrtPi, sd*math.Sqrt(1-1/math.Pi))}, {r(25-sd/math.SqrtPi, sd*math.Sqrt(1-1/math.Pi))}}
	}
	for _, c := range []struct {
		name string
		p    trueskill.Params
		w, l trueskill.Rating
		want trueskill.Result
	}{
		{"σ = 1e155", def, r(25, 1e155), r(25, 1e155), trueskill.Result{Ratings: spread(1e155), LogEvidence: math.Log(0.5)}},
		{"τ = 1e200", with(func(p *trueskill.Params) { p.Tau = 1e200 }), r(25, 8), r(25, 8), trueskill.Result{Ratings: spread(1e200), LogEvidence: math.Log(0.5)}},
		// β = 1e300 swamps both σ: nobody moves, and ε/c = √2·erfinv(p),
		// so the evidence is log Φ(−ε/c) = log((1 − p)/2).
		{"β = 1e300", with(func(p *trueskill.Params) { p.Beta = 1e300 }), r(25, 8), r(27, 3),
			trueskill.Result{Ratings: [][]trueskill.Rating{{r(25, math.Hypot(8, def.Tau))}, {r(27, math.Hypot(3, def.Tau))}}, LogEvidence: math.Log((1 - def.DrawProbability) / 2)}},
		// A win of 1e308 over −1e308 is certain: t = 1.6e307, V = W = 0.
		{"μ = ±1e308 as expected", def, r(1e308, 8), r(-1e308, 8),
			trueskill.Result{Ratings: [][]trueskill.Rating{{r(1e308, math.Sqrt(64+def.Tau*def.Tau))}, {r(-1e308, math.Sqrt(64+def.Tau*def.Tau))}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := oneOnOne(c.p, c.w, c.l)
			c.want.Converged, c.want.ClosedForm = true, true
			if d := cmp.Diff(c.want, got, approx); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}

	// Without a draw margin the update depends on the weights through w/c
	// only, so weights ×1e300 on one side equal weights ×1e-300 on the other.
	t.Run("weight 1e300", func(t *testing.T) {
		p := with(func(p *trueskill.Params) { p.DrawProbability = 0 })
		teams := [][]trueskill.Rating{{r(25, 8), r(20, 5)}, {r(28, 4)}}
		big, err := p.Rate(ctx, trueskill.Match{Teams: teams, Weights: [][]float64{{1e300, 1e300}, {1}}})
		if err != nil {
			t.Fatal(err)
		}
		small, err := p.Rate(ctx, trueskill.Match{Teams: teams, Weights: [][]float64{{1, 1}, {1e-300}}})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(small, big, approx); d != "" {
			t.Errorf("weights ×1e300 (-weights 1, 1e-300 +weights 1e300, 1):\n%s", d)
		}
	})

	// An upset of −1e308 over 1e308: the ratings move to about −2e307 and
	// 2e307 (representable), the evidence, −t²/2 ≈ −1e614, is not.
	t.Run("μ = ∓1e308, an upset", func(t *testing.T) {
		const s = 0x1p-10
		scaled := with(func(p *trueskill.Params) { p.Beta *= s; p.Tau *= s })
		w, l, err := def.Rate1v1(r(-1e308, 8), r(1e308, 8), false)
		if err != nil {
			t.Fatal(err)
		}
		ws, ls, err := scaled.Rate1v1(r(-1e308*s, 8*s), r(1e308*s, 8*s), false)
		if err != nil {
			t.Fatal(err)
		}
		want := []trueskill.Rating{r(ws.Mu/s, ws.Sigma/s), r(ls.Mu/s, ls.Sigma/s)}
		if d := cmp.Diff(want, []trueskill.Rating{w, l}, approx); d != "" {
			t.Errorf("(-scaled match ×2¹⁰ +Rate1v1):\n%s", d)
		}
		if math.Abs(w.Mu) > 1e308 || w.Mu > -1e307 {
			t.Errorf("winner's μ %v, want about −2e307", w.Mu)
		}
		_, err = def.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(-1e308, 8)}, {r(1e308, 8)}}})
		if !errors.Is(err, trueskill.ErrNumerical) {
			t.Errorf("Rate with its evidence out of range: %v, want ErrNumerical", err)
		}
	})

	// σ² = 1e-340 underflows: the posterior is σ·√(1 − σ²W/c²) = σ and μ
	// moves by σ²V/c ≈ 1e-340, so both stay put, and rate again.
	t.Run("σ = 1e-170, τ = 0", func(t *testing.T) {
		p := with(func(p *trueskill.Params) { p.Tau = 0 })
		a, b := r(25, 1e-170), r(26, 3e-170)
		for range 2 {
			var err error
			if a, b, err = p.Rate1v1(a, b, false); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]trueskill.Rating{r(25, 1e-170), r(26, 3e-170)}, []trueskill.Rating{a, b}, approx); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		}
	})
}

// TestPredictionExtremes checks Quality and Predict where
// their float64 forms overflowed or underflowed, against the limits of
// equation 7 and of the outcome probabilities written out.
func TestPredictionExtremes(t *testing.T) {
	def := trueskill.DefaultParams()
	one := func(a, b trueskill.Rating) [][]trueskill.Rating { return [][]trueskill.Rating{{a}, {b}} }
	quality := func(p trueskill.Params, teams [][]trueskill.Rating) float64 {
		t.Helper()
		q, err := p.Quality(teams, nil)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	tiny := def
	tiny.Beta = 1e-300
	huge := def
	huge.Beta = 1e300
	got := []float64{
		quality(def, one(r(25, 1e200), r(25, 1e200))),    // √(2β²/(2β² + 2σ²)) = β/σ
		quality(tiny, one(r(25, 1e-300), r(25, 1e-300))), // √(2β²/(4β²)) = √½
		quality(huge, one(r(25, 8), r(-25, 8))),          // 1: β swamps everything
	}
	want := []float64{def.Beta / 1e200, math.Sqrt(0.5), 1}
	if d := cmp.Diff(want, got, approx); d != "" {
		t.Errorf("Quality (-want +got):\n%s", d)
	}

	// d ~ N(0, c²), c = √2·1e200: P(win) = P(loss) = Φ(−ε/c) ≈ ½ and
	// P(draw) = 2Φ(ε/c) − 1 ≈ 2(ε/c)φ(0), about 4e-201.
	pr, err := def.Predict([]trueskill.Rating{r(25, 1e200)}, []trueskill.Rating{r(25, 1e200)})
	if err != nil {
		t.Fatal(err)
	}
	e := def.Margin(1, 1) / (math.Sqrt2 * 1e200)
	if d := cmp.Diff([]float64{0.5, 2 * e / math.Sqrt(2*math.Pi), 0.5}, []float64{pr.Win, pr.Draw, pr.Loss}, approx); d != "" {
		t.Errorf("Predict (-want +got):\n%s", d)
	}
}

// TestGraphEvidenceExtremes: the graph path's log evidence of a
// near-certain outcome is ≈ 0 (it was 2.3e67 for ratings 1e50 apart, the
// graph's generic sum cancelling terms near 1e100), and that of a
// near-impossible one a large negative number equal to the generic sum's,
// which is accurate there; for two teams it equals the closed form's.
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
		for _, gap := range []float64{1e50, 1e150} {
			res, err := p.RateGraph(ctx, spaced(n, gap, false))
			if err != nil {
				t.Fatalf("%d teams %g apart: %v", n, gap, err)
			}
			if !(res.LogEvidence <= 0 && res.LogEvidence > -1e-300) {
				t.Errorf("%d teams %g apart, as expected: log evidence %v, want ≈ 0", n, gap, res.LogEvidence)
			}
		}
		for _, gap := range []float64{1e50, 1e100} {
			m := spaced(n, gap, true)
			gm, err := p.NewGame(m)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := gm.Run(ctx); err != nil {
				t.Fatal(err)
			}
			got, err := gm.LogEvidence()
			if err != nil {
				t.Fatal(err)
			}
			generic, err := gm.Graph().LogEvidence()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(generic, got, cmpopts.EquateApprox(1e-12, 0)); d != "" || !(got < -1e90) {
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
		gm, err := p.NewGame(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gm.Run(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := gm.LogEvidence()
		if err != nil {
			t.Fatal(err)
		}
		want, err := gm.Graph().LogEvidence()
		if err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, math.Abs(got-want)/math.Max(1, math.Abs(want)))
	}
	t.Logf("worst difference %.2g", worst)
	if worst > 1e-12 {
		t.Errorf("chain and graph evidence differ by %.3g", worst)
	}
}

// TestExpiredContext: a context whose deadline has passed, or that is
// cancelled, fails every rating call with its error, whether or not the
// match needs the iteration that checks it; and a 200-player
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
	}{{past, context.DeadlineExceeded}, {cancelled, context.Canceled}} {
		for name, m := range matches {
			rt := p.NewRater()
			for call, rate := range map[string]func(context.Context, trueskill.Match) (trueskill.Result, error){
				"Rate": p.Rate, "RateGraph": p.RateGraph, "Rater.Rate": rt.Rate, "Rater.RateGraph": rt.RateGraph,
			} {
				if res, err := rate(c.ctx, m); !errors.Is(err, c.want) || res.Ratings != nil {
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

// TestGraphRangeClosure rates three players whose σ and β are near the
// bottom of the graph's range, again and again with τ = 0, so that σ
// shrinks below it: every posterior returned is a valid input to the next
// graph match, and the match that would leave the range is ErrNumerical
// naming the player's σ, never a σ that the next call rejects.
func TestGraphRangeClosure(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau, p.Beta = 0, 3e-154
	teams := [][]trueskill.Rating{{r(0, 3e-154)}, {r(0, 3e-154)}, {r(0, 3e-154)}}
	for game := range 20 {
		res, err := p.Rate(ctx, trueskill.Match{Teams: teams})
		if err != nil {
			var ie *trueskill.InputError
			if !errors.Is(err, trueskill.ErrNumerical) || !errors.As(err, &ie) || ie.Field != "Teams.Sigma" {
				t.Fatalf("game %d: error %v, want ErrNumerical naming Teams.Sigma", game, err)
			}
			t.Logf("game %d: %v", game, err)
			return
		}
		teams = res.Ratings
		if _, err := p.NewGame(trueskill.Match{Teams: teams}); err != nil {
			t.Fatalf("game %d's posteriors %v are not a valid input: %v", game, teams, err)
		}
	}
	t.Fatalf("σ never left the range: %v", teams)
}
