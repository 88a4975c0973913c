package factors_test

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

// Two players of equal rating; the first wins. The graph is Figure 1 cut down
// to one team each: skills, performances, their difference, and I(d > ε).
func ExampleGreaterThan() {
	const beta2 = 25.0 / 6 * 25.0 / 6
	b := graph.NewBuilder("1v1")
	s1, s2 := b.AddVariable("s1"), b.AddVariable("s2")
	p1, p2 := b.AddVariable("p1"), b.AddVariable("p2")
	d := b.AddVariable("d")
	b.AddFactor(factors.NewPrior(25, 25.0/3*25.0/3), "", s1)
	b.AddFactor(factors.NewPrior(25, 25.0/3*25.0/3), "", s2)
	b.AddFactor(factors.NewLikelihood(beta2), "", p1, s1)
	b.AddFactor(factors.NewLikelihood(beta2), "", p2, s2)
	b.AddFactor(factors.NewDifference(), "", d, p1, p2)
	b.AddFactor(factors.NewGreaterThan(0), "", d)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Tree(g) // a tree with one EP factor: exact in two passes
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	// By hand: c² = 2σ² + 2β², μ ± σ²/c·φ(0)/Φ(0), σ²·(1 − (2/π)·σ²/c²).
	fmt.Printf("winner N(%.4f, %.4f²)\n", g.Marginal(s1).Mean(), g.Marginal(s1).Sigma())
	fmt.Printf("loser  N(%.4f, %.4f²)\n", g.Marginal(s2).Mean(), g.Marginal(s2).Sigma())
	lz, _ := g.LogEvidence()
	fmt.Printf("P(s1 wins) = %.2f\n", math.Exp(lz))
	// Output:
	// winner N(29.2052, 7.1945²)
	// loser  N(20.7948, 7.1945²)
	// P(s1 wins) = 0.50
}

// A margin of victory observed around a skill difference plus a home
// advantage, y ~ N(home + s_A − s_B, 4), and a skill carried to the next
// season unchanged through an equality.
func ExampleLinearGaussian() {
	b := graph.NewBuilder("margin")
	home, sA, sB := b.AddVariable("home"), b.AddVariable("sA"), b.AddVariable("sB")
	next := b.AddVariable("sA next season")
	var steps []schedules.Schedule
	for _, v := range []graph.VarID{home, sA, sB} {
		steps = append(steps, schedules.Step(b.AddFactor(factors.NewPrior(0, 9), "", v), 0))
	}
	obs := b.AddFactor(factors.NewLinearGaussian([]float64{1, 1, -1}, 0, 7, 4), "", home, sA, sB)
	same := b.AddFactor(factors.NewEquality(), "", next, sA)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.FactorLabel(obs), "|", g.FactorLabel(same))
	steps = append(steps, schedules.AllEdges(g, obs), schedules.Step(same, 0))
	if _, err := schedules.Run(context.Background(), g, schedules.Sequence(steps...)); err != nil {
		fmt.Println(err)
		return
	}
	// Each of the three explains a third of the margin: 9·7/(3·9 + 4).
	for _, v := range []graph.VarID{home, sA, sB, next} {
		fmt.Printf("%s: %.4f\n", g.VariableName(v), g.Marginal(v).Mean())
	}
	// Output:
	// N(7; home + sA − sB, 4) | sA next season = sA
	// home: 2.0323
	// sA: 2.0323
	// sB: -2.0323
	// sA next season: 2.0323
}
