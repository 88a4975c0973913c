package trueskill_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgraph/skillgraph/internal/conformance"
	"github.com/skillgraph/skillgraph/internal/sharedtest"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"gonum.org/v1/gonum/mat"
)

var ctx = context.Background()

func r(mu, sigma float64) trueskill.Rating { return trueskill.Rating{Mu: mu, Sigma: sigma} }

// TestClosedFormEqualsGraph proves the automatic two-team closed form equal
// to the factor graph to 1e-12, for wins, draws, teams, weights and τ.
func TestClosedFormEqualsGraph(t *testing.T) {
	p := trueskill.DefaultParams()
	cases := map[string]trueskill.Match{
		"1v1 win":       {Teams: [][]trueskill.Rating{{r(25, 25.0/3)}, {r(25, 25.0/3)}}},
		"1v1 draw":      {Teams: [][]trueskill.Rating{{r(30, 4)}, {r(22, 6)}}, Ranks: []int{0, 0}},
		"1v1 upset":     {Teams: [][]trueskill.Rating{{r(10, 2)}, {r(40, 1.5)}}},
		"reversed rank": {Teams: [][]trueskill.Rating{{r(20, 5)}, {r(28, 3)}}, Ranks: []int{1, 0}},
		"2v2":           {Teams: [][]trueskill.Rating{{r(25, 8), r(30, 3)}, {r(27, 5), r(24, 7)}}},
		"1v3 draw":      {Teams: [][]trueskill.Rating{{r(40, 3)}, {r(15, 6), r(12, 7), r(18, 2)}}, Ranks: []int{3, 3}},
		"weights": {Teams: [][]trueskill.Rating{{r(25, 8), r(30, 3)}, {r(27, 5), r(24, 7)}},
			Weights: [][]float64{{1, 0.25}, {0.5, 1.6}}},
		"weight 0": {Teams: [][]trueskill.Rating{{r(25, 8), r(30, 3)}, {r(27, 5)}},
			Weights: [][]float64{{1, 0}, {1}}},
		"chess scale": {Teams: [][]trueskill.Rating{{r(1301, 42.9)}, {r(1188.8, 42.6)}}},
	}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			closed, err := p.Rate(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			if !closed.ClosedForm {
				t.Fatal("Rate did not use the closed form for two teams")
			}
			viaGraph, err := p.RateGraph(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			for j := range closed.Ratings {
				for i := range closed.Ratings[j] {
					c, g := closed.Ratings[j][i], viaGraph.Ratings[j][i]
					if relErr(c.Mu, g.Mu) > 1e-12 || relErr(c.Sigma, g.Sigma) > 1e-12 {
						t.Errorf("team %d player %d: closed form %v, graph %v", j, i, c, g)
					}
				}
			}
			if relErr(closed.LogEvidence, viaGraph.LogEvidence) > 1e-12 {
				t.Errorf("log evidence: closed form %.17g, graph %.17g", closed.LogEvidence, viaGraph.LogEvidence)
			}
		})
	}
}

func relErr(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

// TestScenarioCoverage makes sure the peer vectors exercise every scenario
// the model promises, and that each passes (TestConformance checks values).
func TestScenarioCoverage(t *testing.T) {
	file := sharedtest.PeerCases(t)
	need := map[string]func(c conformanceCase) bool{
		"1v1":                  func(c conformanceCase) bool { return c.Kind == "1v1" },
		"draws":                func(c conformanceCase) bool { return c.Kind == "1v1_draw" || c.Kind == "two_team_draw" },
		"2v2":                  func(c conformanceCase) bool { return c.sizes() == "2,2" },
		"uneven teams":         func(c conformanceCase) bool { return c.Kind == "two_team" && c.uneven() },
		"3+ teams with draws":  func(c conformanceCase) bool { return len(c.Teams) >= 3 && c.hasDraw() },
		"8-player FFA":         func(c conformanceCase) bool { return c.Kind == "ffa" && len(c.Teams) == 8 },
		"16-player FFA":        func(c conformanceCase) bool { return c.Kind == "ffa" && len(c.Teams) == 16 },
		"partial play":         func(c conformanceCase) bool { return c.Kind == "partial_play" },
		"dynamics τ":           func(c conformanceCase) bool { return c.AppliesTau && c.Env.Tau > 0 },
		"extreme (tail maths)": func(c conformanceCase) bool { return c.Kind == "extreme" },
	}
	for scenario, match := range need {
		n := 0
		for _, c := range file.Cases {
			if !match(conformanceCase(c)) {
				continue
			}
			n++
			if o := conformance.Check(c); o.Status != conformance.Pass {
				t.Errorf("%s: %s: %s", scenario, c.Name, o.Detail)
			}
		}
		if n == 0 {
			t.Errorf("no reference case covers %s", scenario)
		}
		t.Logf("%-22s %d cases", scenario, n)
	}
}

// TestTiedTeamsOrder checks what Match.Ranks documents: the order in which
// teams that do not tie are listed does not matter, and the order of tied
// teams does, because the model compares only neighbours in the finishing
// order. Every permutation of four teams, two of them tied, gives the
// ratings of one of the two chains (1, 2, 3, 0) and (1, 3, 2, 0) to
// 1e-12, the one that keeps the tied teams' order; and the two chains
// differ by 0.0045 in μ at a tolerance of 1e-13, far beyond it, so the
// difference is the model's, not the iteration's.
func TestTiedTeamsOrder(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tolerance, p.MaxIterations = 1e-13, 1000
	teams := [][]trueskill.Rating{{r(25, 8)}, {r(30, 4), r(22, 6)}, {r(28, 3)}, {r(20, 7)}}
	ranks := []int{2, 0, 1, 1} // teams 2 and 3 tie
	rate := func(perm []int) [][]trueskill.Rating {
		t.Helper()
		var m trueskill.Match
		for _, j := range perm {
			m.Teams = append(m.Teams, teams[j])
			m.Ranks = append(m.Ranks, ranks[j])
		}
		res, err := p.Rate(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		back := make([][]trueskill.Rating, len(perm)) // in the order of teams
		for k, j := range perm {
			back[j] = res.Ratings[k]
		}
		return back
	}
	chains := map[bool][][]trueskill.Rating{ // by whether team 2 is listed before team 3
		true:  rate([]int{1, 2, 3, 0}),
		false: rate([]int{1, 3, 2, 0}),
	}
	if d := math.Abs(chains[true][0][0].Mu - chains[false][0][0].Mu); !(d > 4e-3 && d < 5e-3) {
		t.Errorf("the two tie orders move team 0's μ apart by %v, want the documented 0.0045", d)
	}
	var perm []int
	var permute func(rest []int)
	permute = func(rest []int) {
		if len(rest) == 0 {
			twoFirst := slices.Index(perm, 2) < slices.Index(perm, 3)
			if d := cmp.Diff(chains[twoFirst], rate(perm), cmpopts.EquateApprox(1e-12, 0)); d != "" {
				t.Errorf("teams listed as %v (-chain with team 2 first: %v, +got):\n%s", perm, twoFirst, d)
			}
			return
		}
		for i, j := range rest {
			perm = append(perm, j)
			permute(append(append([]int(nil), rest[:i]...), rest[i+1:]...))
			perm = perm[:len(perm)-1]
		}
	}
	permute([]int{0, 1, 2, 3})
}

// TestDirections: winners rise, losers fall, nobody's σ grows (τ = 0), a
// player with weight 0 stays put, and τ widens every prior.
func TestDirections(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau = 0
	var teams [][]trueskill.Rating
	for k := 0; k < 8; k++ {
		teams = append(teams, []trueskill.Rating{r(25+float64(k), 6)})
	}
	res, err := p.Rate(ctx, trueskill.Match{Teams: teams})
	if err != nil {
		t.Fatal(err)
	}
	if !(res.Ratings[0][0].Mu > teams[0][0].Mu) || !(res.Ratings[7][0].Mu < teams[7][0].Mu) {
		t.Errorf("first %v, last %v: want first up, last down", res.Ratings[0][0], res.Ratings[7][0])
	}
	for j := range teams {
		if !(res.Ratings[j][0].Sigma < teams[j][0].Sigma) {
			t.Errorf("player %d σ %v did not shrink from %v", j, res.Ratings[j][0].Sigma, teams[j][0].Sigma)
		}
	}
	if res.Iterations < 2 || !res.Converged {
		t.Errorf("8-player FFA: %d iterations, converged %v", res.Iterations, res.Converged)
	}

	m := trueskill.Match{
		Teams:   [][]trueskill.Rating{{r(25, 8), r(31, 4)}, {r(27, 5)}, {r(20, 3)}},
		Weights: [][]float64{{1, 0}, {1}, {1}},
	}
	res, err = p.Rate(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Ratings[0][1]; got != m.Teams[0][1] {
		t.Errorf("player with weight 0 moved: %v → %v", m.Teams[0][1], got)
	}

	p.Tau = 2
	res, err = p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{{r(25, 1e-3)}, {r(25, 1e-3)}}})
	if err != nil {
		t.Fatal(err)
	}
	// With σ ≈ 0 the posterior σ is close to τ shrunk by one game, never ~0.
	if s := res.Ratings[0][0].Sigma; !(s > 1.5 && s < 2) {
		t.Errorf("σ after τ = 2: %v, want in (1.5, 2)", s)
	}
}

// TestQualityTwoPlayers checks Quality against equation 7 written out.
func TestQualityTwoPlayers(t *testing.T) {
	p := trueskill.DefaultParams()
	for _, c := range [][2]trueskill.Rating{{r(25, 25.0/3), r(25, 25.0/3)}, {r(30, 2), r(20, 7)}, {r(1500, 100), r(1200, 50)}} {
		a, b := c[0], c[1]
		b2 := p.Beta * p.Beta
		den := 2*b2 + a.Sigma*a.Sigma + b.Sigma*b.Sigma
		want := math.Sqrt(2*b2/den) * math.Exp(-(a.Mu-b.Mu)*(a.Mu-b.Mu)/(2*den))
		got, err := p.Quality([][]trueskill.Rating{{a}, {b}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if relErr(got, want) > 1e-13 && math.Abs(got-want) > 1e-300 {
			t.Errorf("Quality(%v, %v) = %.17g, want %.17g", a, b, got, want)
		}
	}
}

// TestQualityMultiTeam checks the k-team form against the ratio of the two
// Gaussian densities of the difference vector at 0, computed with explicit
// matrices, determinants and inverses.
func TestQualityMultiTeam(t *testing.T) {
	p := trueskill.DefaultParams()
	teams := [][]trueskill.Rating{{r(25, 8), r(30, 4)}, {r(27, 5)}, {r(20, 3), r(22, 6), r(24, 2)}}
	weights := [][]float64{{1, 0.5}, {1}, {0.8, 1, 1}}
	var mus, vars []float64
	var rows [][]float64
	for j, team := range teams {
		for i, pl := range team {
			row := make([]float64, len(teams)-1)
			if j < len(teams)-1 {
				row[j] = weights[j][i]
			}
			if j > 0 {
				row[j-1] = -weights[j][i]
			}
			rows = append(rows, row)
			mus = append(mus, pl.Mu)
			vars = append(vars, pl.Sigma*pl.Sigma)
		}
	}
	n, k := len(rows), len(teams)-1
	A := mat.NewDense(n, k, nil)
	for i, row := range rows {
		A.SetRow(i, row)
	}
	var ata, atsa, sigmaA mat.Dense
	ata.Mul(A.T(), A)
	ata.Scale(p.Beta*p.Beta, &ata)
	sigmaA.Mul(mat.NewDiagDense(n, vars), A)
	atsa.Mul(A.T(), &sigmaA)
	var full mat.Dense
	full.Add(&ata, &atsa)
	var mu mat.VecDense
	mu.MulVec(A.T(), mat.NewVecDense(n, mus))
	var inv mat.Dense
	if err := inv.Inverse(&full); err != nil {
		t.Fatal(err)
	}
	var tmp mat.VecDense
	tmp.MulVec(&inv, &mu)
	want := math.Sqrt(mat.Det(&ata)/mat.Det(&full)) * math.Exp(-0.5*mat.Dot(&mu, &tmp))
	got, err := p.Quality(teams, weights)
	if err != nil {
		t.Fatal(err)
	}
	if relErr(got, want) > 1e-12 {
		t.Errorf("Quality = %.17g, want %.17g", got, want)
	}
}

// TestPredict checks the three outcomes against Simpson's rule
// applied to the density of the difference d = t_a − t_b ~ N(Δμ, c²), c² =
// Σ(σ² + τ² + β²), over (−∞, −ε), [−ε, ε] and (ε, ∞) (which shares no code
// with messages.LogWithinMass or Φ), and that the probability of a win, and
// of a draw, equals the evidence Rate reports for it (both include τ).
func TestPredict(t *testing.T) {
	p := trueskill.DefaultParams()
	a, b := []trueskill.Rating{r(28, 4), r(22, 6)}, []trueskill.Rating{r(26, 3), r(25, 5)}
	pr, err := p.Predict(a, b)
	win, draw, loss := pr.Win, pr.Draw, pr.Loss
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(win+draw+loss-1) > 1e-15 {
		t.Errorf("win %v + draw %v + loss %v ≠ 1", win, draw, loss)
	}
	var mu, c2 float64
	for k, team := range [][]trueskill.Rating{a, b} {
		for _, pl := range team {
			mu += pl.Mu * float64(1-2*k)
			c2 += pl.Sigma*pl.Sigma + p.Tau*p.Tau + p.Beta*p.Beta
		}
	}
	c, eps := math.Sqrt(c2), p.Margin(2, 2)
	mass := func(lo, hi float64) float64 { // ∫ N(x; Δμ, c²) dx over [lo, hi], composite Simpson
		const n = 20000
		h := (hi - lo) / n
		sum := 0.0
		for k := 0; k <= n; k++ {
			x := lo + float64(k)*h
			w := 2.0 + 2*float64(k%2)
			if k == 0 || k == n {
				w = 1
			}
			sum += w * math.Exp(-0.5*(x-mu)*(x-mu)/c2)
		}
		return sum * h / 3 / (c * math.Sqrt(2*math.Pi))
	}
	want := []float64{mass(eps, mu+40*c), mass(-eps, eps), mass(mu-40*c, -eps)}
	if d := cmp.Diff(want, []float64{win, draw, loss}, cmpopts.EquateApprox(1e-12, 0)); d != "" {
		t.Errorf("(-quadrature +Predict):\n%s", d)
	}
	res, err := p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	if relErr(win, math.Exp(res.LogEvidence)) > 1e-14 {
		t.Errorf("P(win) = %v, evidence of the win %v", win, math.Exp(res.LogEvidence))
	}
	res, err = p.Rate(ctx, trueskill.Match{Teams: [][]trueskill.Rating{a, b}, Ranks: []int{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if relErr(draw, math.Exp(res.LogEvidence)) > 1e-14 {
		t.Errorf("P(draw) = %v, evidence of the draw %v", draw, math.Exp(res.LogEvidence))
	}
}

// TestThreeTeamEvidence: for three teams the EP evidence is an
// approximation; it must agree within 2 % with the exact probability of the
// outcome, computed by quadrature.
func TestThreeTeamEvidence(t *testing.T) {
	p := trueskill.DefaultParams()
	p.Tau = 0
	teams := [][]trueskill.Rating{{r(27, 3)}, {r(25, 4)}, {r(22, 5)}}
	res, err := p.Rate(ctx, trueskill.Match{Teams: teams})
	if err != nil {
		t.Fatal(err)
	}
	// P(t1 − t2 > ε, t2 − t3 > ε) with t_j ~ N(μ_j, σ_j² + β²).
	eps := p.Margin(1, 1)
	v := func(j int) float64 { return teams[j][0].Sigma*teams[j][0].Sigma + p.Beta*p.Beta }
	// Condition on t2 and integrate: P = ∫ φ(t2) Φ((μ1 − t2 − ε)/s1) Φ((t2 − μ3 − ε)/s3) dt2.
	s1, s3, s2 := math.Sqrt(v(0)), math.Sqrt(v(2)), math.Sqrt(v(1))
	mu2 := teams[1][0].Mu
	var sum float64
	const n = 200000
	lo, hi := mu2-12*s2, mu2+12*s2
	h := (hi - lo) / n
	for k := 0; k <= n; k++ {
		t2 := lo + float64(k)*h
		w := h
		if k == 0 || k == n {
			w = h / 2
		}
		dens := math.Exp(-0.5*(t2-mu2)*(t2-mu2)/(s2*s2)) / (s2 * math.Sqrt(2*math.Pi))
		sum += w * dens * phiCDF((teams[0][0].Mu-t2-eps)/s1) * phiCDF((t2-teams[2][0].Mu-eps)/s3)
	}
	got := math.Exp(res.LogEvidence)
	if math.Abs(got-sum) > 0.02*sum {
		t.Errorf("EP evidence %v, exact %v", got, sum)
	}
	t.Logf("three-team evidence: EP %.6f, exact %.6f", got, sum)
}

func phiCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func TestRatingJSONRoundTrip(t *testing.T) {
	in := []trueskill.Rating{r(25, 25.0/3), r(-273.0599022090001, 2.682781498), r(1e-300, 5e-324), r(math.Nextafter(30, 31), 0.1)}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out []trueskill.Rating
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if in[i] != out[i] {
			t.Errorf("round trip %v → %s → %v", in[i], b, out[i])
		}
	}
	if want := `{"mu":25,"sigma":8.333333333333334}`; string(mustJSON(t, in[0])) != want {
		t.Errorf("JSON %s, want %s", mustJSON(t, in[0]), want)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInputErrors(t *testing.T) {
	p := trueskill.DefaultParams()
	good := []trueskill.Rating{r(25, 8)}
	cases := []struct {
		name  string
		p     trueskill.Params
		m     trueskill.Match
		want  string // a fragment of the ErrInput's message
		field string
	}{
		{"no teams", p, trueskill.Match{}, "at least two teams", "Teams"},
		{"one team", p, trueskill.Match{Teams: [][]trueskill.Rating{good}}, "at least two teams", "Teams"},
		{"empty team", p, trueskill.Match{Teams: [][]trueskill.Rating{good, {}}}, "no players", "Teams"},
		{"ranks length", p, trueskill.Match{Teams: [][]trueskill.Rating{good, good}, Ranks: []int{0}}, "wrong shape", "Ranks"},
		{"NaN mu", p, trueskill.Match{Teams: [][]trueskill.Rating{good, {r(math.NaN(), 1)}}}, "within ±1e12", "Teams.Mu"},
		{"zero sigma", p, trueskill.Match{Teams: [][]trueskill.Rating{good, {r(1, 0)}}}, "not in [1e-9, 1e9]", "Teams.Sigma"},
		{"weights shape", p, trueskill.Match{Teams: [][]trueskill.Rating{good, good}, Weights: [][]float64{{1}}}, "wrong shape", "Weights"},
		{"negative weight", p, trueskill.Match{Teams: [][]trueskill.Rating{good, good}, Weights: [][]float64{{1}, {-0.5}}}, "neither 0 nor in [1e-9, 1e9]", "Weights"},
		{"draw probability 1", func() trueskill.Params { q := p; q.DrawProbability = 1; return q }(), trueskill.Match{Teams: [][]trueskill.Rating{good, good}}, "not a probability", "Params.DrawProbability"},
		{"negative beta", func() trueskill.Params { q := p; q.Beta = -1; return q }(), trueskill.Match{Teams: [][]trueskill.Rating{good, good}}, "not in [1e-9, 1e9]", "Params.Beta"},
		{"infinite tau", func() trueskill.Params { q := p; q.Tau = math.Inf(1); return q }(), trueskill.Match{Teams: [][]trueskill.Rating{good, good}}, "not in [0, 1e9]", "Params.Tau"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.p.Rate(ctx, c.m)
			var ie *trueskill.InputError
			if !errors.Is(err, trueskill.ErrInput) || !errors.As(err, &ie) || ie.Field != c.field || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Rate error %v, want ErrInput saying %q in field %s", err, c.want, c.field)
			}
		})
	}
}

// TestDisplayAndStability checks the rating page's numbers: a new player
// shows (25 − 8.33)·48 ≈ 800 and a stability of 0, and one game against a
// similar opponent removes about a quarter of the variance.
func TestDisplayAndStability(t *testing.T) {
	p := trueskill.DefaultParams()
	p.DrawProbability = 0
	newbie := p.NewRating()
	if got := newbie.DisplayRating(); math.Abs(got-800) > 1e-9 {
		t.Errorf("display rating of a new player %v, want 800", got)
	}
	if got := p.Stability(newbie); got != 0 {
		t.Errorf("stability of a new player %v", got)
	}
	w, l, err := p.Rate1v1(newbie, newbie, false)
	if err != nil {
		t.Fatal(err)
	}
	// 1 − σ'²/σ₀² with σ'² = (σ₀² + τ²)(1 − W·(σ₀² + τ²)/c²), W(0, 0) = 2/π.
	v := p.Sigma*p.Sigma + p.Tau*p.Tau
	c2 := 2*v + 2*p.Beta*p.Beta
	want := 1 - v*(1-2/math.Pi*v/c2)/(p.Sigma*p.Sigma)
	for _, x := range []trueskill.Rating{w, l} {
		if got := p.Stability(x); math.Abs(got-want) > 1e-12 || got < 0.24 || got > 0.28 {
			t.Errorf("stability after one game %v, want %v (≈ 26 %%)", got, want)
		}
	}
	if got := p.Exposure(newbie); math.Abs(got) > 1e-12 {
		t.Errorf("exposure of a new player %v, want 0", got)
	}
}
