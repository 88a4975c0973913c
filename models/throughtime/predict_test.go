package throughtime_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/models/throughtime"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

var std = distuv.UnitNormal

// smoothedHistory is a small history with draws and a team game,
// smoothed to convergence.
func smoothedHistory(t *testing.T, p throughtime.Params) *throughtime.History {
	t.Helper()
	games := []throughtime.Match{
		{Time: 1, Teams: [][]string{{"a"}, {"b"}}},
		{Time: 2, Teams: [][]string{{"b"}, {"c"}}, Ranks: []int{0, 0}},
		{Time: 3, Teams: [][]string{{"c"}, {"a", "d"}}},
		{Time: 3.5, Teams: [][]string{{"a"}, {"c"}, {"b"}}, Ranks: []int{0, 1, 2}},
	}
	h, err := throughtime.New(p, games)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 1e-9, 500); err != nil {
		t.Fatal(err)
	}
	return h
}

// last returns a player's skill after their last game, drifted to time
// at by γ²·(at − last), from the learning curve.
func last(h *throughtime.History, p throughtime.Params, name string, at float64) (mu, sigma float64) {
	c := h.LearningCurve(name)
	if c == nil {
		return p.Mu, p.Sigma
	}
	pt := c[len(c)-1]
	return pt.Mu, math.Sqrt(pt.Sigma*pt.Sigma + p.Gamma*p.Gamma*(at-pt.Time))
}

// TestPredict1v1 checks a 1v1 against the closed form:
// with d = s_a − s_b + noise ~ N(μ_a − μ_b, σ_a² + σ_b² + 2β²) and the
// margin ε = Φ⁻¹((p+1)/2)·√2·β, a wins with Φ((μ_d − ε)/σ_d), b with
// Φ((−μ_d − ε)/σ_d), and they draw with the rest; the skills are the
// learning curves' last points spread by the drift to the game's time, or
// the prior for a player never seen.
func TestPredict1v1(t *testing.T) {
	p := throughtime.Params{Mu: 0.5, Sigma: 3, Beta: 1.2, Gamma: 0.4, DrawProbability: 0.15}
	h := smoothedHistory(t, p)
	const at = 6.0
	for _, pair := range [][2]string{{"a", "b"}, {"c", "a"}, {"d", "b"}, {"a", "newcomer"}} {
		ma, sa := last(h, p, pair[0], at)
		mb, sb := last(h, p, pair[1], at)
		sd := math.Sqrt(sa*sa + sb*sb + 2*p.Beta*p.Beta)
		eps := std.Quantile((p.DrawProbability+1)/2) * math.Sqrt2 * p.Beta
		wantWin := std.CDF((ma - mb - eps) / sd)
		wantLoss := std.CDF((mb - ma - eps) / sd)
		wantDraw := std.CDF((eps-(ma-mb))/sd) - std.CDF((-eps-(ma-mb))/sd)
		pr, err := h.Predict(at, []string{pair[0]}, []string{pair[1]})
		win, draw, loss := pr.Win, pr.Draw, pr.Loss
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"win", win, wantWin}, {"draw", draw, wantDraw}, {"loss", loss, wantLoss}} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%v: %s %v, want %v", pair, c.what, c.got, c.want)
			}
		}
		if math.Abs(win+draw+loss-1) > 1e-12 {
			t.Errorf("%v: %v + %v + %v ≠ 1", pair, win, draw, loss)
		}
		for _, c := range []struct {
			ranks []int
			want  float64
		}{{nil, wantWin}, {[]int{1, 0}, wantLoss}, {[]int{0, 0}, wantDraw}} {
			lp, err := h.LogProbability(throughtime.Match{Time: at, Teams: [][]string{{pair[0]}, {pair[1]}}, Ranks: c.ranks})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(lp-math.Log(c.want)) > 1e-10 {
				t.Errorf("%v ranks %v: log probability %v, want %v", pair, c.ranks, lp, math.Log(c.want))
			}
		}
	}
}

// TestLogProbabilityTeams: a weighted two-team game has the closed form
// with each player's mean and variance scaled by their weight.
func TestLogProbabilityTeams(t *testing.T) {
	p := throughtime.Params{Sigma: 3, Beta: 1.2, Gamma: 0.4, DrawProbability: 0.15}
	h := smoothedHistory(t, p)
	const at = 4.0
	g := throughtime.Match{Time: at, Teams: [][]string{{"a", "b"}, {"c", "d", "e"}}, Weights: [][]float64{{1, 0.5}, {0.25, 1, 0.8}}, Ranks: []int{1, 0}}
	var mu, v float64
	for j, team := range g.Teams {
		sign := []float64{-1, 1}[j] // team 1 won
		for i, name := range team {
			m, s := last(h, p, name, at)
			w := g.Weights[j][i]
			mu += sign * w * m
			v += w * w * (s*s + p.Beta*p.Beta)
		}
	}
	eps := std.Quantile((p.DrawProbability+1)/2) * math.Sqrt(5) * p.Beta
	want := math.Log(std.CDF((mu - eps) / math.Sqrt(v)))
	got, err := h.LogProbability(g)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-10 {
		t.Errorf("log probability %v, want %v", got, want)
	}
}

// TestLogProbabilityThreeTeams: a three-player race is the EP evidence of
// TrueSkill's graph on the players' skills, the same as trueskill.Rate's
// (τ = 0, from its own evidence code), and close to the exact probability
// P(t₁ > t₂ > t₃) = ∫ N(t₂) P(t₁ > t₂) P(t₃ < t₂) dt₂, by quadrature.
func TestLogProbabilityThreeTeams(t *testing.T) {
	p := throughtime.Params{Sigma: 3, Beta: 1.2, Gamma: 0.4}
	h, err := throughtime.New(p, []throughtime.Match{
		{Time: 1, Teams: [][]string{{"a"}, {"b"}}},
		{Time: 2, Teams: [][]string{{"b"}, {"c"}}},
		{Time: 3, Teams: [][]string{{"a"}, {"c"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Converge(context.Background(), 1e-9, 500); err != nil {
		t.Fatal(err)
	}
	const at = 5.0
	ts := trueskill.Params{Sigma: p.Sigma, Beta: p.Beta}
	for _, order := range [][]string{{"a", "b", "c"}, {"c", "b", "a"}, {"b", "newcomer", "a"}} {
		var ratings [][]trueskill.Rating
		var perf []distuv.Normal
		for _, name := range order {
			m, s := last(h, p, name, at)
			ratings = append(ratings, []trueskill.Rating{{Mu: m, Sigma: s}})
			perf = append(perf, distuv.Normal{Mu: m, Sigma: math.Sqrt(s*s + p.Beta*p.Beta)})
		}
		got, err := h.LogProbability(throughtime.Match{Time: at, Teams: [][]string{{order[0]}, {order[1]}, {order[2]}}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ts.Rate(context.Background(), trueskill.Match{Teams: ratings})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-res.LogEvidence) > 1e-6 {
			t.Errorf("%v: log probability %v, trueskill.Rate's evidence %v", order, got, res.LogEvidence)
		}
		mid := perf[1]
		exact := quad.Fixed(func(x float64) float64 {
			return mid.Prob(x) * (1 - perf[0].CDF(x)) * perf[2].CDF(x)
		}, mid.Mu-12*mid.Sigma, mid.Mu+12*mid.Sigma, 200, nil, 0)
		if math.Abs(math.Exp(got)/exact-1) > 0.02 {
			t.Errorf("%v: probability %v, exact %v", order, math.Exp(got), exact)
		}
	}
}

// TestOneStepAhead: predicting each batch from a history of the batches
// before it (none for the first, where every player is new) gives the forward pass's evidence of the whole history
// (Filtered), game by game.
func TestOneStepAhead(t *testing.T) {
	p := throughtime.Params{Sigma: 3, Beta: 1, Gamma: 0.3, DrawProbability: 0.2}
	games := []throughtime.Match{
		{Time: 1, Teams: [][]string{{"a"}, {"b"}}},
		{Time: 1, Teams: [][]string{{"c"}, {"d"}}, Ranks: []int{0, 0}},
		{Time: 2, Teams: [][]string{{"a"}, {"c"}}, Ranks: []int{1, 0}},
		{Time: 2, Teams: [][]string{{"b"}, {"e"}}},
		{Time: 4, Teams: [][]string{{"e"}, {"a"}, {"d"}, {"b"}}, Ranks: []int{0, 1, 1, 2}},
		{Time: 7, Teams: [][]string{{"a", "b"}, {"c", "e"}}, Ranks: []int{0, 0}},
	}
	all, err := throughtime.New(p, games)
	if err != nil {
		t.Fatal(err)
	}
	filtered := all.Filtered()
	for k, g := range games {
		var before []throughtime.Match
		for _, e := range games {
			if e.Time < g.Time {
				before = append(before, e)
			}
		}
		h, err := throughtime.New(p, before)
		if err != nil {
			t.Fatal(err)
		}
		lp, err := h.LogProbability(g)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(lp-filtered[k]) > 1e-6*math.Max(1, math.Abs(lp)) {
			t.Errorf("game %d: predicted %v, filtered %v", k, lp, filtered[k])
		}
	}
}

func TestPredictErrors(t *testing.T) {
	h, err := throughtime.New(throughtime.DefaultParams(), []throughtime.Match{{Time: 1, Teams: [][]string{{"a"}, {"b"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    throughtime.Match
		want string // a fragment of the message
	}{
		{"NaN time", throughtime.Match{Time: math.NaN(), Teams: [][]string{{"a"}, {"b"}}}, "time NaN"},
		{"one team", throughtime.Match{Time: 2, Teams: [][]string{{"a"}}}, "1 teams"},
		{"player twice", throughtime.Match{Time: 2, Teams: [][]string{{"a"}, {"a"}}}, "appears twice"},
		{"tie without draws", throughtime.Match{Time: 2, Teams: [][]string{{"a"}, {"b"}}, Ranks: []int{0, 0}}, "tie"},
		{"weights of zero", throughtime.Match{Time: 2, Teams: [][]string{{"a"}, {"b"}}, Weights: [][]float64{{0}, {0}}}, "performance difference N(0, 0)"},
		{"absent teams", throughtime.Match{Time: 2, Teams: [][]string{{"a"}, {"b"}, {"c"}}, Weights: [][]float64{{0}, {1}, {0}}}, "Weights[0] = 0: all weights of a team are 0"},
	} {
		if _, err := h.LogProbability(c.g); !errors.Is(err, throughtime.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LogProbability, %s: %v, want ErrInput naming %q", c.name, err, c.want)
		}
	}
	if _, err := h.Predict(math.Inf(1), []string{"a"}, []string{"b"}); !errors.Is(err, throughtime.ErrInput) {
		t.Errorf("Predict at +Inf: %v", err)
	}
	if _, err := h.Predict(2, []string{"a"}, nil); !errors.Is(err, throughtime.ErrInput) {
		t.Errorf("Predict with an empty team: %v", err)
	}
	if _, _, err := h.Predictive("nobody", math.NaN()); !errors.Is(err, throughtime.ErrInput) {
		t.Errorf("Predictive at NaN: %v", err)
	}
}
