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

// updateCounter counts the updates of a run.
type updateCounter struct{ n int }

func (c *updateCounter) Updated(graph.FactorID, int, float64) { c.n++ }
func (c *updateCounter) Iterated(string, int, float64)        {}

// A free-for-all of ten players ranked in order is a chain of win factors
// on performance differences. The same loop with residual scheduling skips
// the links that have settled, and stops at the same place to within its
// tolerance.
func ExampleResidual() {
	run := func(opts ...schedules.LoopOption) {
		const n = 10
		b := graph.NewBuilder("ffa")
		perf := make([]graph.VarID, n)
		var steps, body []schedules.Schedule
		for i := range perf {
			perf[i] = b.AddVariable(fmt.Sprintf("p%d", i+1))
			// The favourites finish last: the chain has work to do.
			steps = append(steps, schedules.Step(b.AddFactor(factors.NewPrior(20+float64(i), 40), "", perf[i]), 0))
		}
		diff := make([]graph.FactorID, n-1)
		win := make([]graph.FactorID, n-1)
		for k := range diff {
			d := b.AddVariable(fmt.Sprintf("d%d", k+1))
			diff[k] = b.AddFactor(factors.NewDifference(), "", d, perf[k], perf[k+1])
			win[k] = b.AddFactor(factors.NewGreaterThan(0.5), "", d)
		}
		for k := 0; k < n-2; k++ { // forward …
			body = append(body, schedules.Step(diff[k], 0), schedules.Step(win[k], 0), schedules.Step(diff[k], 2))
		}
		for k := n - 2; k > 0; k-- { // … and back
			body = append(body, schedules.Step(diff[k], 0), schedules.Step(win[k], 0), schedules.Step(diff[k], 1))
		}
		g, err := b.Build()
		if err != nil {
			fmt.Println(err)
			return
		}
		s := schedules.Sequence(schedules.Sequence(steps...), schedules.Loop(schedules.Sequence(body...), opts...),
			schedules.Step(diff[0], 1), schedules.Step(diff[n-2], 2))
		c := &updateCounter{}
		res, err := schedules.Run(context.Background(), g, s, schedules.WithObserver(c))
		if err != nil {
			fmt.Println(err)
			return
		}
		winner := g.Marginal(perf[0])
		fmt.Printf("%d passes, %d updates; winner μ = %.5f, σ = %.5f\n", res.Iterations, c.n, winner.Mean(), winner.Sigma())
	}
	run()
	run(schedules.Residual(1e-7))
	// Output:
	// 5 passes, 252 updates; winner μ = 33.78806, σ = 3.22428
	// 5 passes, 218 updates; winner μ = 33.78806, σ = 3.22428
}
