package exact_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
)

// seasonGraph builds a league of the size of a football season: teams
// with an offence and a defence each, a shared home advantage, and one
// match for each ordered pair of teams. In a match every strength plays
// through a noisy performance p = skill + noise, the home side's goals are
// x = p_offence(home) − p_defence(away) + home and the away side's
// y = p_offence(away) − p_defence(home), both deterministic sums, each
// observed with Gaussian noise. With 20 teams: 2,321 variables of which
// 760 are fixed by constraints, and 3,081 factors.
func seasonGraph(tb testing.TB, teams int) *graph.Graph {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	b := graph.NewBuilder("season")
	off := make([]graph.VarID, teams)
	def := make([]graph.VarID, teams)
	for i := range teams {
		off[i] = b.AddVariable(fmt.Sprintf("off%d", i))
		def[i] = b.AddVariable(fmt.Sprintf("def%d", i))
		b.AddFactor(factors.NewPrior(0, 1), "", off[i])
		b.AddFactor(factors.NewPrior(0, 1), "", def[i])
	}
	home := b.AddVariable("home")
	b.AddFactor(factors.NewPrior(0.3, 0.25), "", home)
	perf := func(name string, skill graph.VarID) graph.VarID {
		p := b.AddVariable(name)
		b.AddFactor(factors.NewLikelihood(0.5), "", p, skill)
		return p
	}
	for h := range teams {
		for a := range teams {
			if h == a {
				continue
			}
			m := fmt.Sprintf("%d-%d", h, a)
			oh, da := perf("oh"+m, off[h]), perf("da"+m, def[a])
			oa, dh := perf("oa"+m, off[a]), perf("dh"+m, def[h])
			x, y := b.AddVariable("x"+m), b.AddVariable("y"+m)
			b.AddFactor(factors.NewWeightedSum(1, -1, 1), "", x, oh, da, home)
			b.AddFactor(factors.NewDifference(), "", y, oa, dh)
			b.AddFactor(factors.NewGaussianObservation(float64(rng.IntN(5)), 1), "", x)
			b.AddFactor(factors.NewGaussianObservation(float64(rng.IntN(5)), 1), "", y)
		}
	}
	g, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func BenchmarkSolveSeason(b *testing.B) {
	g := seasonGraph(b, 20)
	b.ReportMetric(float64(g.NumVariables()), "variables")
	for b.Loop() {
		if _, err := exact.Solve(g); err != nil {
			b.Fatal(err)
		}
	}
}
