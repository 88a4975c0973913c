package main

import (
	"context"
	"math"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/factors/factortest"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/schedules"
)

// margin is a factor of the user's own, written here as a user would: a
// match won by k goals says the performance difference d lies within half
// a goal of k, I(|d − k| ≤ ½). Its message is expectation propagation's:
// the cavity N(μ, σ²) truncated to the interval (messages.Within's V and W
// at t = (μ − k)/σ, half-width ½/σ), moment-matched, divided by the cavity.
type margin struct{ goals float64 }

func (*margin) Arity() int { return 1 }

func (m *margin) Message(_ int, e graph.Edges) (messages.Gaussian, error) {
	c := e.Cavity(0)
	if !c.IsProper() {
		return messages.Gaussian{}, nil // nothing to learn from a flat cavity
	}
	sd := c.Sigma()
	tr := messages.Within((c.Mean()-m.goals)/sd, 0.5/sd)
	return messages.NewGaussian(c.Mean()+sd*tr.V, c.Variance()*tr.OneMinusW).Div(c), nil
}

func (m *margin) LogAverageFactor(e graph.Edges) (float64, error) {
	c := e.Cavity(0)
	return messages.LogWithinMass((c.Mean()-m.goals)/c.Sigma(), 0.5/c.Sigma()), nil
}

// TestMarginFactor checks the factor alone with the author's kit (its
// message and evidence against quadrature of I(|d − k| ≤ ½)), then in a
// two-player model with a derived schedule, against the closed form of a
// Gaussian conditioned on an interval of a linear combination.
func TestMarginFactor(t *testing.T) {
	for _, c := range []messages.Gaussian{messages.NewGaussian(0.5, 4), messages.NewGaussian(-3, 0.3), messages.NewGaussian(2.2, 25)} {
		factortest.Check(t, factortest.Case{
			Factor: &margin{goals: 2}, Cavities: []messages.Gaussian{c},
			Density: func(x []float64) float64 { return indicator(math.Abs(x[0]-2) <= 0.5) },
			Grid:    factortest.Grid{Cuts: [][]float64{{1.5, 2.5}}},
		})
	}

	// The model: two players, performances, their difference, a 3-goal win.
	b := graph.NewBuilder("margin")
	s1, s2 := b.AddVariable("s1"), b.AddVariable("s2")
	p1, p2, d := b.AddVariable("p1"), b.AddVariable("p2"), b.AddVariable("d")
	b.AddFactor(factors.NewPrior(1.5, 0.36), "", s1)
	b.AddFactor(factors.NewPrior(1.2, 0.25), "", s2)
	b.AddFactor(factors.NewLikelihood(1), "", p1, s1)
	b.AddFactor(factors.NewLikelihood(1), "", p2, s2)
	b.AddFactor(factors.NewDifference(), "", d, p1, p2)
	b.AddFactor(&margin{goals: 3}, "won by 3", d)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedules.Derive(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		t.Fatal(err)
	}
	// End of the model.

	// d ~ N(0.3, 0.36 + 0.25 + 2) a priori; given d ∈ [2.5, 3.5], s1's mean
	// moves by cov(s1, d)/var(d) times d's, and its variance by the square
	// of that ratio times var(d)'s change (Gaussian regression of s1 on d).
	vd := 0.36 + 0.25 + 2.0
	sd := math.Sqrt(vd)
	lo, hi := (2.5-0.3)/sd, (3.5-0.3)/sd
	z := normCDF(hi) - normCDF(lo)
	meanD := 0.3 + sd*(normPDF(lo)-normPDF(hi))/z
	varD := vd * (1 + (lo*normPDF(lo)-hi*normPDF(hi))/z - math.Pow((normPDF(lo)-normPDF(hi))/z, 2))
	k := 0.36 / vd
	wantMean, wantVar := 1.5+k*(meanD-0.3), 0.36-k*k*(vd-varD)
	if got := g.Marginal(s1); math.Abs(got.Mean()-wantMean) > 1e-9 || math.Abs(got.Variance()-wantVar) > 1e-9 {
		t.Errorf("s1 after a 3-goal win: %v ± %v, closed form %v ± %v", got.Mean(), got.Sigma(), wantMean, math.Sqrt(wantVar))
	}
}

func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func normPDF(x float64) float64 { return math.Exp(-0.5*x*x) / math.Sqrt(2*math.Pi) }
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
