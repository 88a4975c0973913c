package schedules_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

// The schedule of the TrueSkill paper's Figure 1 for three single-player
// teams, first beats second, second and third draw: priors and performances
// down, the difference chain iterated until it settles, then back up.
func Example() {
	const beta2, margin = 16.0, 0.5
	b := graph.NewBuilder("three players")
	var s, p [3]graph.VarID
	var prior, perf [3]graph.FactorID
	for i := range s {
		s[i] = b.AddVariable(fmt.Sprintf("s%d", i+1))
		p[i] = b.AddVariable(fmt.Sprintf("p%d", i+1))
		prior[i] = b.AddFactor(factors.NewPrior(25, 64), "", s[i])
		perf[i] = b.AddFactor(factors.NewLikelihood(beta2), "", p[i], s[i])
	}
	d1, d2 := b.AddVariable("d1"), b.AddVariable("d2")
	diff1 := b.AddFactor(factors.NewDifference(), "", d1, p[0], p[1])
	diff2 := b.AddFactor(factors.NewDifference(), "", d2, p[1], p[2])
	win := b.AddFactor(factors.NewGreaterThan(margin), "", d1)
	draw := b.AddFactor(factors.NewWithin(margin), "", d2)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}

	step := schedules.Step
	var down, up []schedules.Schedule
	for i := range s {
		down = append(down, step(prior[i], 0), step(perf[i], 0))
		up = append(up, step(perf[i], 1))
	}
	chain := schedules.Loop(schedules.Sequence(
		step(diff1, 0), step(win, 0), step(diff1, 2),
		step(diff2, 0), step(draw, 0), step(diff2, 1),
	), schedules.Tolerance(1e-9), schedules.Name("difference chain"))
	figure1 := schedules.Sequence(
		schedules.Sequence(down...),
		chain,
		step(diff1, 1), step(diff2, 2),
		schedules.Sequence(up...),
	)

	res, err := schedules.Run(context.Background(), g, figure1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("converged: %v after %d passes\n", res.Converged, res.Iterations)
	for i := range s {
		m := g.Marginal(s[i])
		fmt.Printf("s%d: μ = %.3f, σ = %.3f\n", i+1, m.Mean(), m.Sigma())
	}
	// Output:
	// converged: true after 3 passes
	// s1: μ = 29.832, σ = 6.476
	// s2: μ = 22.583, σ = 5.735
	// s3: μ = 22.585, σ = 5.736
}
