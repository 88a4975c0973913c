package evaluation

import (
	"fmt"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/elo"
	"github.com/skillgraph/skillgraph/models/scorebased"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/record"
)

// TestSkellamLogTailBySeries: for rates λ₁ = 0.01 and λ₂ = 800,
// P(X − Y ≥ 1) is far below float64's range (about 1e-348), where
// Skellam.Outcome's sum is 0. The log of the tail is
// checked against the series P(X − Y = k) = e^−(λ₁+λ₂)·λ₁ᵏ·Σₘ (λ₁λ₂)ᵐ/(m!(m
// + k)!) (the Bessel form with (λ₁/λ₂)^{k/2}(√(λ₁λ₂))^k = λ₁ᵏ), summed
// here with the exponential kept as a log.
func TestSkellamLogTailBySeries(t *testing.T) {
	l1, l2 := 0.01, 800.0
	// series returns log Σ_{k ≥ from} P(X − Y = k).
	series := func(from int) float64 {
		var tail float64
		for k := from; k < 60; k++ {
			var inner float64
			for m := range 80 {
				lg1, _ := math.Lgamma(float64(m + 1))
				lg2, _ := math.Lgamma(float64(m + k + 1))
				inner += math.Exp(float64(m)*math.Log(l1*l2) - lg1 - lg2)
			}
			tail += math.Pow(l1, float64(k)) * inner
		}
		return -(l1 + l2) + math.Log(tail)
	}
	want := series(1)
	s := scorebased.Skellam{Lambda1: l1, Lambda2: l2}
	win, _, _, err := s.Outcome()
	if err != nil || win != 0 {
		t.Fatalf("Outcome's P(win) = %v, %v: the case no longer needs the log-space sum", win, err)
	}
	pr, err := skellamWin(scorebased.Prediction{Win: win, Loss: 1, ScoreA: l1, ScoreB: l2})
	if err != nil || math.Abs(pr.LogWin-want) > 1e-9*math.Abs(want) || pr.LogNotWin != 0 {
		t.Errorf("log P(X − Y ≥ 1) = %v, %v; series %v", pr.LogWin, err, want)
	}
	// By hand: the k = 1 term dominates, 0.01·Σₘ 8ᵐ/(m!(m + 1)!) = 0.01·(1
	// + 4 + 5.33 + 3.56 + 1.42 + 0.38 + 0.08 + …) ≈ 0.158, so the log is
	// −800.01 + log 0.158 ≈ −801.85 nats, and a home win scores 1 + log₂ p
	// ≈ −1155.8 bits where a clamp at 1e-12 gave −38.9.
	if math.Abs(want+801.85) > 0.01 {
		t.Errorf("series log-tail %v, by hand about −801.85", want)
	}
	// The other side, with the rates swapped: P(X − Y ≤ 0) for λ₁ = 800,
	// λ₂ = 0.01 is P(X' − Y' ≥ 0) for the rates above, the series from
	// k = 0.
	got, err := skellamLogTail(scorebased.Skellam{Lambda1: l2, Lambda2: l1}, false)
	if want0 := series(0); err != nil || math.Abs(got-want0) > 1e-9*math.Abs(want0) {
		t.Errorf("log P(X − Y ≤ 0), rates swapped = %v, %v; series %v", got, err, want0)
	}
	// Above tinyProbability the probability's own log is used.
	if pr, err := skellamWin(scorebased.Prediction{Win: 0.25, Draw: 0.5, Loss: 0.25, ScoreA: l1, ScoreB: l2}); err != nil || pr.LogWin != math.Log(0.25) || pr.LogNotWin != math.Log(0.75) {
		t.Errorf("skellamWin(0.25) = %+v, %v", pr, err)
	}
}

// TestModelsLogProbabilitiesMatchTheirProbabilities: after learning,
// each model's log P(win) is the log of the win probability that its
// package computes (scorebased's WinProbability, Skellam's Outcome, elo's
// WinProbability) or, for TrueSkill, eq. 11 written out here, and
// log(1 − p) the log of its complement.
func TestModelsLogProbabilitiesMatchTheirProbabilities(t *testing.T) {
	var train []record.Match
	teams := []string{"A", "B", "C", "D"}
	for i := range 40 {
		h, a := teams[i%4], teams[(i/4+i+1)%4]
		if h == a {
			a = teams[(i+2)%4]
		}
		hs, as := (i*7)%4, (i*3)%3
		train = append(train, record.Match{ID: fmt.Sprint(i), HasScores: true, Teams: []record.Team{
			{Name: h, Players: []string{h}, Rank: 1 + min(max(as-hs, 0), 1), Score: hs},
			{Name: a, Players: []string{a}, Rank: 1 + min(max(hs-as, 0), 1), Score: as}}})
	}
	od, sd := Gammas(train)
	models, err := ScoreModels(ScoreConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range models {
		m, err := model.New(train)
		for i := 0; err == nil && i < len(train); i++ {
			err = m.Observe(&train[i])
		}
		if err != nil {
			t.Fatalf("%s: %v", model.Name, err)
		}
		for _, pair := range [][2]string{{"A", "B"}, {"C", "A"}, {"D", "new team"}} {
			x := record.Match{ID: "x", Teams: []record.Team{{Name: pair[0], Players: pair[:1]}, {Name: pair[1], Players: pair[1:]}}}
			pr, err := m.Predict(&x)
			if err != nil {
				t.Fatalf("%s: %v", model.Name, err)
			}
			var want float64
			p := scorebased.DefaultParams()
			switch m := m.(type) {
			case *ratings[trueskill.Rating]:
				h, a := m.get(pair[0]), m.get(pair[1])
				beta := m.rater.(trueSkill).p.Beta
				want = messages.NormCDF((h.Mu - a.Mu) / math.Sqrt(h.Sigma*h.Sigma+a.Sigma*a.Sigma+2*beta*beta))
				if tau := m.rater.(trueSkill).p.Tau; tau != 0 {
					t.Errorf("TrueSkill's τ = %v, want the protocol's 0", tau)
				}
			case *ratings[scorebased.Team]:
				h, a := m.get(pair[0]), m.get(pair[1])
				if model.Name == "Poisson-OD" {
					var q scorebased.Prediction
					q, err = scorebased.NewPoissonOD(p).Predict(h, a)
					want = q.Win
				} else {
					p.Gamma = od
					want, err = scorebased.NewGaussianOD(p).WinProbability(h, a)
				}
			case *ratings[scorebased.Rating]:
				p.Gamma = sd
				want, err = scorebased.NewGaussianSD(p).WinProbability(m.get(pair[0]), m.get(pair[1]))
			case *ratings[float64]:
				want, err = elo.DefaultParams().WinProbability(m.get(pair[0]), m.get(pair[1]))
			default:
				t.Fatalf("%s: a %T", model.Name, m)
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(pr.LogWin-math.Log(want)) > 1e-12 || math.Abs(pr.LogNotWin-math.Log1p(-want)) > 1e-12 {
				t.Errorf("%s %v: logs %v, %v; want log %v = %v and log(1 − p) = %v", model.Name, pair, pr.LogWin, pr.LogNotWin, want, math.Log(want), math.Log1p(-want))
			}
		}
	}
	// A τ given to the config reaches TrueSkill.
	models, err = ScoreModels(ScoreConfig{TrueSkillTau: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	m, err := models[0].New(train)
	if err != nil || m.(*ratings[trueskill.Rating]).rater.(trueSkill).p.Tau != 0.25 {
		t.Errorf("TrueSkill's τ with TrueSkillTau 0.25: %v", err)
	}
}
