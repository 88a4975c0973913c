// The race detector slows this test's numerics (fourteen seasons fitted,
// no goroutines) tenfold and finds nothing in them, so it runs without it;
// the fitter's own tests run under it.

//go:build !race

package scorebased_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/skillgraph/skillgraph/models/fit"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// targetSeasons are the score-based paper's 14 Premier League seasons.
var targetSeasons = func() []string {
	var s []string
	for y := 1995; y <= 2008; y++ {
		s = append(s, fmt.Sprintf("%d-%02d", y, (y+1)%100))
	}
	return s
}()

// split is the paper's protocol at the largest training share: train on a
// season's first 80 %, test on its last 20 %.
func split(ms []scorebased.Match) (train, test []scorebased.Match) {
	n := len(ms)
	return ms[:int(0.8*float64(n))], ms[n-int(math.Ceil(0.2*float64(n))):]
}

// infoGain is the score of section 5.2 of the paper, in bits, for a
// probability p that A wins.
func infoGain(p float64, x scorebased.Match) float64 {
	switch {
	case x.ScoreA > x.ScoreB:
		return 1 + math.Log2(p)
	case x.ScoreA < x.ScoreB:
		return 1 + math.Log2(1-p)
	}
	return 1 + 0.5*math.Log2(p*(1-p))
}

// seasonMetrics are one model's test-set means for one season.
type seasonMetrics struct {
	home, away float64 // predicted goals (NaN without scores)
	draw       float64 // P(draw)
	ig         float64 // information gain from WinProbability
	igHalf     float64 // information gain from P(win) + ½·P(draw)
}

func (s *seasonMetrics) add(x seasonMetrics) {
	s.home, s.away, s.draw, s.ig, s.igHalf = s.home+x.home, s.away+x.away, s.draw+x.draw, s.ig+x.ig, s.igHalf+x.igHalf
}

func (s seasonMetrics) scale(k float64) seasonMetrics {
	return seasonMetrics{s.home * k, s.away * k, s.draw * k, s.ig * k, s.igHalf * k}
}

// fitted fits newModel's hyperparameters on train.
func fitted[R scorebased.Team | scorebased.Rating](t testing.TB, newModel func(scorebased.Hyper) (scorebased.Online[R], error), train []scorebased.Match) scorebased.Hyper {
	t.Helper()
	h, rep, err := scorebased.Fit(context.Background(), newModel, train, scorebased.FitStart(), scorebased.DefaultFitBounds(), fit.Options[scorebased.Hyper]{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Converged || len(rep.AtBound) > 0 && !(len(rep.AtBound) == 1 && rep.AtBound[0] == "Beta") {
		t.Errorf("fit %+v: %+v", h, rep)
	}
	return h
}

// evaluate learns the ratings on train under h and predicts every test
// match without further updates, as the paper's protocol does.
func evaluate[R scorebased.Team | scorebased.Rating](t testing.TB, newModel func(scorebased.Hyper) (scorebased.Online[R], error), h scorebased.Hyper, train, test []scorebased.Match) seasonMetrics {
	t.Helper()
	m, err := newModel(h)
	if err != nil {
		t.Fatal(err)
	}
	ratings, _, err := scorebased.Learn(context.Background(), m, train)
	if err != nil {
		t.Fatal(err)
	}
	get := func(team string) R {
		if r, ok := ratings[team]; ok {
			return r
		}
		return m.Fresh()
	}
	var s seasonMetrics
	for _, x := range test {
		pr, err := m.Predict(get(x.A), get(x.B))
		if err != nil {
			t.Fatal(err)
		}
		w, err := m.WinProbability(get(x.A), get(x.B))
		if err != nil {
			t.Fatal(err)
		}
		s.add(seasonMetrics{pr.ScoreA, pr.ScoreB, pr.Draw, infoGain(w, x), infoGain(pr.Win+pr.Draw/2, x)})
		if !pr.HasScores {
			s.home, s.away = math.NaN(), math.NaN()
		}
	}
	return s.scale(1 / float64(len(test)))
}

// trueSkillGain is TrueSkill's information gain on test after online
// training on train, as the evaluation computes it: the paper's Table 1
// (β = σ₀/2, no dynamics), the draw probability the share of draws in
// train, and P(A wins) by eq. 11 of the score-based paper.
func trueSkillGain(t testing.TB, train, test []scorebased.Match) float64 {
	t.Helper()
	p := trueskill.DefaultParams()
	p.Tau = 0
	draws := 0
	for _, x := range train {
		if x.ScoreA == x.ScoreB {
			draws++
		}
	}
	p.DrawProbability = float64(draws) / float64(len(train))
	ratings := map[string]trueskill.Rating{}
	get := func(team string) trueskill.Rating {
		if r, ok := ratings[team]; ok {
			return r
		}
		return p.NewRating()
	}
	for _, x := range train {
		a, b := get(x.A), get(x.B)
		var err error
		switch {
		case x.ScoreA > x.ScoreB:
			a, b, err = p.Rate1v1(a, b, false)
		case x.ScoreA < x.ScoreB:
			b, a, err = p.Rate1v1(b, a, false)
		default:
			a, b, err = p.Rate1v1(a, b, true)
		}
		if err != nil {
			t.Fatal(err)
		}
		ratings[x.A], ratings[x.B] = a, b
	}
	// Eq. 11 is TrueSkill's prediction without a draw margin.
	eq11 := p
	eq11.DrawProbability = 0
	var ig float64
	for _, x := range test {
		a, b := get(x.A), get(x.B)
		w, err := eq11.WinProbability([]trueskill.Rating{a}, []trueskill.Rating{b})
		if err != nil {
			t.Fatal(err)
		}
		ig += infoGain(w, x)
	}
	return ig / float64(len(test))
}

// paperHyper returns the paper's Table 1 with γ estimated from train as
// the paper does, for model "OD" or "SD".
func paperHyper(t testing.TB, train []scorebased.Match, od bool) scorebased.Hyper {
	t.Helper()
	ms := make([]scorebased.MatchScore, len(train))
	for i, x := range train {
		ms[i] = scorebased.MatchScore{ScoreA: x.ScoreA, ScoreB: x.ScoreB}
	}
	p := scorebased.DefaultParams()
	var err error
	if od {
		p.Gamma, err = scorebased.EstimateGammaOD(ms)
	} else {
		p.Gamma, err = scorebased.EstimateGammaSD(ms)
	}
	if err != nil {
		t.Fatal(err)
	}
	return scorebased.Hyper{Params: p}
}

// TestFittedTargets checks the accuracy targets for the fitted models on the
// Premier League, 1995-96 to 2008-09, each season fitted on its first 80 %
// and tested on its last 20 %, means over the 14 seasons: predicted mean
// goals per side within 10 % of the observed (home and away sides each;
// Gaussian-SD predicts no scores), predicted draw rate within 0.05 of the
// observed, and information gain above TrueSkill's. Poisson-OD's gain from
// the paper's P(s_A > s_B) is below TrueSkill's: a draw, a quarter of the
// matches, scores 1 + ½·log₂(p(1 − p)), best at p = ½, and P(s_A > s_B)
// leaves the draw's mass out of p where the Gaussian models' P(d > 0) holds
// half of it. Its gain from P(win) + ½·P(draw) is checked instead. The
// paper's settings are logged beside the fitted ones.
func TestFittedTargets(t *testing.T) {
	start := time.Now()
	seasons := league(t)
	names := []string{"Gaussian-OD", "Poisson-OD", "Gaussian-SD"}
	var fit, paper [3]seasonMetrics
	var obs seasonMetrics
	var tsIG float64
	for _, season := range targetSeasons {
		train, test := split(seasons[season])
		if len(test) != 76 {
			t.Fatalf("season %s: %d test matches, want 76", season, len(test))
		}
		var o seasonMetrics
		for _, x := range test {
			o.home += x.ScoreA
			o.away += x.ScoreB
			if x.ScoreA == x.ScoreB {
				o.draw++
			}
		}
		obs.add(o.scale(1 / float64(len(test))))
		tsIG += trueSkillGain(t, train, test)
		hs := [3]scorebased.Hyper{fitted(t, scorebased.OnlineGaussianOD, train), fitted(t, scorebased.OnlinePoissonOD, train), fitted(t, scorebased.OnlineGaussianSD, train)}
		fit[0].add(evaluate(t, scorebased.OnlineGaussianOD, hs[0], train, test))
		fit[1].add(evaluate(t, scorebased.OnlinePoissonOD, hs[1], train, test))
		fit[2].add(evaluate(t, scorebased.OnlineGaussianSD, hs[2], train, test))
		paper[0].add(evaluate(t, scorebased.OnlineGaussianOD, paperHyper(t, train, true), train, test))
		paper[1].add(evaluate(t, scorebased.OnlinePoissonOD, paperHyper(t, train, true), train, test))
		paper[2].add(evaluate(t, scorebased.OnlineGaussianSD, paperHyper(t, train, false), train, test))
		if season == "2008-09" {
			for i, h := range hs {
				t.Logf("%s fitted on 2008-09: σ₀ %.3f, β %.3f, γ %.3f, Base %.3f, Home %.3f", names[i], h.Params.Sigma, h.Params.Beta, h.Params.Gamma, h.Base, h.Home)
			}
		}
	}
	k := 1 / float64(len(targetSeasons))
	obs, tsIG = obs.scale(k), tsIG*k
	t.Logf("observed: home %.3f, away %.3f goals, draw rate %.3f; TrueSkill information gain %.4f bits", obs.home, obs.away, obs.draw, tsIG)
	for i := range fit {
		for _, c := range []struct {
			what string
			s    *seasonMetrics
		}{{"fitted", &fit[i]}, {"paper", &paper[i]}} {
			*c.s = c.s.scale(k)
			t.Logf("%-12s %-6s home %.3f, away %.3f goals, draw %.3f, information gain %.4f bits (%.4f from P(win) + ½·P(draw))",
				names[i], c.what, c.s.home, c.s.away, c.s.draw, c.s.ig, c.s.igHalf)
		}
	}
	for i, s := range fit {
		if i < 2 && (math.Abs(s.home/obs.home-1) > 0.1 || math.Abs(s.away/obs.away-1) > 0.1) {
			t.Errorf("%s: predicted goals %.3f and %.3f, observed %.3f and %.3f: more than 10 %% off", names[i], s.home, s.away, obs.home, obs.away)
		}
		if math.Abs(s.draw-obs.draw) > 0.05 {
			t.Errorf("%s: predicted draw rate %.3f, observed %.3f", names[i], s.draw, obs.draw)
		}
		ig := s.ig
		if i == 1 {
			ig = s.igHalf
		}
		if !(ig > tsIG) {
			t.Errorf("%s: information gain %.4f, TrueSkill's %.4f", names[i], ig, tsIG)
		}
	}
	t.Logf("%d seasons × 3 fits in %v", len(targetSeasons), time.Since(start).Round(time.Millisecond))
}
