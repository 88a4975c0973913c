package exact_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
	"github.com/skillgraph/skillgraph/schedules"
)

// Three teams' strengths and the margins of the three games between them:
// a loop. Message passing finds the exact means; its variances come out
// too small, and Solve shows by how much.
func ExampleSolve() {
	b := graph.NewBuilder("three teams")
	var x [3]graph.VarID
	for i := range x {
		x[i] = b.AddVariable(fmt.Sprintf("team%d", i+1))
		b.AddFactor(factors.NewPrior(0, 4), "", x[i])
	}
	margins := []float64{1.5, 0.5, -2}
	for i := range x {
		// margin ~ N(x_i − x_{i+1}, 1)
		b.AddFactor(factors.NewLinearGaussian([]float64{1, -1}, 0, margins[i], 1), "", x[i], x[(i+1)%3])
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-12)))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	sol, err := exact.Solve(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range x {
		m, e := g.Marginal(v), sol.Marginals[v]
		fmt.Printf("%s: mean %.4f (exact %.4f), variance %.4f (exact %.4f)\n", g.VariableName(v), m.Mean(), e.Mean(), m.Variance(), e.Variance())
	}
	fmt.Printf("log evidence %.4f\n", sol.LogEvidence)
	// Output:
	// team1: mean 1.0769 (exact 1.0769), variance 0.9701 (exact 1.5385)
	// team2: mean -0.3077 (exact -0.3077), variance 0.9701 (exact 1.5385)
	// team3: mean -0.7692 (exact -0.7692), variance 0.9701 (exact 1.5385)
	// log evidence -5.5718
}

// A round robin of three players in which each beat the next: a loop of
// wins. Joint EP refines one Gaussian over all three skills; loopy EP,
// with one Gaussian per variable, finds close means but smaller standard
// deviations.
func ExampleEP() {
	b := graph.NewBuilder("cycle of wins")
	var skill [3]graph.VarID
	for i := range skill {
		skill[i] = b.AddVariable(fmt.Sprintf("s%d", i+1))
		b.AddFactor(factors.NewPrior(25, 69.4), "", skill[i])
	}
	for i := range skill {
		// Game i: player i beats player i+1 (mod 3).
		w, l, d := b.AddVariable(fmt.Sprintf("w%d", i)), b.AddVariable(fmt.Sprintf("l%d", i)), b.AddVariable(fmt.Sprintf("d%d", i))
		b.AddFactor(factors.NewLikelihood(17.4), "", w, skill[i])
		b.AddFactor(factors.NewLikelihood(17.4), "", l, skill[(i+1)%3])
		b.AddFactor(factors.NewDifference(), "", d, w, l)
		b.AddFactor(factors.NewGreaterThan(0), "", d)
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := exact.EP(context.Background(), g, exact.Tolerance(1e-9))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g, schedules.WithLoop(schedules.Tolerance(1e-9)))
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("converged %v\n", sol.Converged)
	for _, v := range skill {
		j, l := sol.Marginals[v], g.Marginal(v)
		fmt.Printf("%s: joint EP %.2f ± %.2f, loopy EP %.2f ± %.2f\n", g.VariableName(v), j.Mean(), j.Sigma(), l.Mean(), l.Sigma())
	}
	fmt.Printf("log evidence %.4f\n", sol.LogEvidence)
	// Output:
	// converged true
	// s1: joint EP 25.00 ± 5.78, loopy EP 25.00 ± 5.42
	// s2: joint EP 25.00 ± 5.78, loopy EP 25.00 ± 5.42
	// s3: joint EP 25.00 ± 5.78, loopy EP 25.00 ± 5.42
	// log evidence -3.6166
}
