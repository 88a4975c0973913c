package graph_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/schedules"
)

// TestTreeWithObservationsAgreesWithSolve: on random trees of priors,
// likelihoods, sums and linear-Gaussian observations with observed
// variables (built, and one observed after Build), message passing along
// schedules.Tree gives exact.Solve's marginals and LogEvidence gives its log
// evidence, also after Reset and a second run. (Solve refuses a graph
// whose constraints fix a latent variable; those trials are skipped.)
func TestTreeWithObservationsAgreesWithSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	skipped := 0
	defer func() {
		if skipped > 20 {
			t.Errorf("%d of 100 trials skipped", skipped)
		}
	}()
	for trial := 0; trial < 100; trial++ {
		b := graph.NewBuilder("t")
		n := 2 + rng.IntN(6)
		xs := make([]graph.VarID, n)
		for i := range xs {
			xs[i] = b.AddVariable(fmt.Sprint("x", i))
		}
		b.AddFactor(factors.NewPrior(rng.NormFloat64(), 1+rng.Float64()), "", xs[0])
		for i := 1; i < n; i++ {
			p := rng.IntN(i)
			switch rng.IntN(3) {
			case 0:
				b.AddFactor(factors.NewLikelihood(0.5+rng.Float64()), "", xs[i], xs[p])
			case 1:
				// sum: x_i = a*x_p + obs
				o := b.AddObserved(fmt.Sprint("o", i), rng.NormFloat64())
				b.AddFactor(factors.NewWeightedSum(rng.NormFloat64(), 1), "", xs[i], xs[p], o)
			case 2:
				o := b.AddObserved(fmt.Sprint("o", i), rng.NormFloat64())
				b.AddFactor(factors.NewLinearGaussian([]float64{1, -1, 0.5}, 0.1, rng.NormFloat64(), 0.3), "", xs[i], xs[p], o)
			}
		}
		// observations on leaves
		for k := 0; k < 2; k++ {
			i := rng.IntN(n)
			y := b.AddVariable(fmt.Sprint("y", k))
			b.AddFactor(factors.NewLikelihood(1), "", y, xs[i])
			b.AddFactor(factors.NewGaussianObservation(rng.NormFloat64(), 0.4), "", y)
		}
		g, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		// observe one latent after build (cuts the tree)
		if rng.IntN(2) == 0 {
			if err := g.Observe(xs[n-1], rng.NormFloat64()); err != nil {
				t.Fatal(err)
			}
		}
		s, err := schedules.Tree(g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schedules.Run(context.Background(), g, s); err != nil {
			t.Fatal(err)
		}
		sol, err := exact.Solve(g)
		if err != nil && strings.Contains(err.Error(), "constraints fix") {
			skipped++
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		for v := 0; v < g.NumVariables(); v++ {
			m, w := g.Marginal(graph.VarID(v)), sol.Marginals[v]
			if w.IsPointMass() {
				if !m.IsPointMass() || m.Mean() != w.Mean() {
					t.Errorf("trial %d var %d: %v want %v", trial, v, m, w)
				}
				continue
			}
			if math.Abs(m.Mean()-w.Mean()) > 1e-9*(1+math.Abs(w.Mean())) || math.Abs(m.Variance()-w.Variance()) > 1e-9*w.Variance() {
				t.Errorf("trial %d var %d %s: %v want %v", trial, v, g.VariableName(graph.VarID(v)), m, w)
			}
		}
		l, err := g.LogEvidence()
		if err != nil || math.Abs(l-sol.LogEvidence) > 1e-9*math.Max(1, math.Abs(l)) {
			t.Errorf("trial %d: LogEvidence %v %v, exact %v", trial, l, err, sol.LogEvidence)
		}
		// Reset and rerun gives the same
		g.Reset()
		if _, err := schedules.Run(context.Background(), g, s); err != nil {
			t.Fatal(err)
		}
		l2, _ := g.LogEvidence()
		if math.Abs(l2-l) > 1e-12*math.Max(1, math.Abs(l)) {
			t.Errorf("trial %d: after Reset %v vs %v", trial, l2, l)
		}
	}
}
