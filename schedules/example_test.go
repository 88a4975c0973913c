package schedules_test

import (
	"context"
	"fmt"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/exact"
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

// Derive schedules any graph; Check names what a hand-written schedule
// forgets. Here a chain of three skills over time, each observed once.
func ExampleDerive() {
	b := graph.NewBuilder("chain")
	var prev graph.VarID
	for t, y := range []float64{1, 3, 2} {
		x := b.AddVariable(fmt.Sprintf("skill@%d", t))
		b.AddFactor(factors.NewGaussianObservation(y, 1), "", x)
		if t == 0 {
			b.AddFactor(factors.NewPrior(0, 100), "", x)
		} else {
			b.AddFactor(factors.NewLikelihood(0.25), "drift", x, prev)
		}
		prev = x
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("derived schedule covers every edge:", schedules.Check(g, s) == nil)
	if _, err := schedules.Run(context.Background(), g, s); err != nil {
		fmt.Println(err)
		return
	}
	x, _ := g.Variable("skill@1")
	fmt.Printf("skill@1: mean %.4f, sd %.4f\n", g.Marginal(x).Mean(), g.Marginal(x).Sigma())

	// A forward pass alone never sends the drift messages backwards.
	var forward []schedules.Schedule
	for f := range g.NumFactors() {
		forward = append(forward, schedules.Step(graph.FactorID(f), 0))
	}
	fmt.Println(schedules.Check(g, schedules.Sequence(forward...)))
	// Output:
	// derived schedule covers every edge: true
	// skill@1: mean 2.0712, sd 0.6194
	// schedules: graph "chain": schedule does not cover the graph:
	// 	no step updates factor 3 drift edge 1 (to skill@0)
	// 	no step updates factor 5 drift edge 1 (to skill@1)
}

// TreeOf schedules part of a graph as one unit: here the two observations
// of one time step and the link between them, inside a larger model.
func ExampleTreeOf() {
	b := graph.NewBuilder("two steps")
	a, c := b.AddVariable("a"), b.AddVariable("c")
	prior := b.AddFactor(factors.NewPrior(0, 10), "", a)
	link := b.AddFactor(factors.NewLikelihood(1), "", c, a)
	obs := b.AddFactor(factors.NewGaussianObservation(2, 1), "", c)
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.TreeOf(g, []graph.FactorID{link, obs})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(s.Parts[0].(*schedules.SequenceSchedule).Parts), "steps up,", len(s.Parts[1].(*schedules.SequenceSchedule).Parts), "down")
	fmt.Println("with the prior, every edge:", schedules.Check(g, schedules.Sequence(schedules.AllEdges(g, prior), s)) == nil)
	// Output:
	// 2 steps up, 1 down
	// with the prior, every edge: true
}

// ByRank orders Derive's sweeps: here a history of two players over three
// time steps, whose variables are ranked by time, so that each pass runs
// forward through the steps and back (a Kalman smoother's order), with
// each step's game done exactly inside.
func ExampleByRank() {
	b := graph.NewBuilder("history")
	var step []int // the time step of each variable, by VarID
	var last [2]graph.VarID
	for t := range 3 {
		for i := range last {
			v := b.AddVariable(fmt.Sprintf("s%d@%d", i, t))
			if t == 0 {
				b.AddFactor(factors.NewPrior(0, 4), "", v)
			} else {
				b.AddFactor(factors.NewLikelihood(0.25), "", v, last[i])
			}
			last[i] = v
		}
		// Player 0 beats player 1 by about one point at every step.
		b.AddFactor(factors.NewLinearGaussian([]float64{1, -1}, 0, 1, 1), "", last[0], last[1])
		for len(step) < b.NumVariables() {
			step = append(step, t)
		}
	}
	g, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schedules.Derive(g, schedules.ByRank(func(v graph.VarID) int { return step[v] }),
		schedules.WithLoop(schedules.Tolerance(1e-9)))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := schedules.Run(context.Background(), g, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	first, _ := g.Variable("s0@0")
	fmt.Printf("converged %v; player 0 at step 0: %.3f\n", res.Converged, g.Marginal(first).Mean())
	// Output: converged true; player 0 at step 0: 0.469
}

// A run says whether its answer is approximate. Three skills with priors
// N(i, 1), each pair linked by a likelihood of variance 1: the links form a
// cycle, so message passing converges to the exact means of this
// linear-Gaussian graph but to variances that are too small (each link's
// evidence comes round the cycle again). Result.Cyclic says so; Converged
// only says that the messages stopped moving. graph/exact solves the graph
// exactly.
func ExampleConvergence_Cyclic() {
	b := graph.NewBuilder("triangle")
	x := []graph.VarID{b.AddVariable("a"), b.AddVariable("b"), b.AddVariable("c")}
	for i, v := range x {
		b.AddFactor(factors.NewPrior(float64(i), 1), "", v)
		b.AddFactor(factors.NewLikelihood(1), "", v, x[(i+1)%3])
	}
	g, err := b.Build()
	if err != nil {
		panic(err)
	}
	s, err := schedules.Derive(g)
	if err != nil {
		panic(err)
	}
	res, err := schedules.Run(context.Background(), g, s)
	if err != nil {
		panic(err)
	}
	sol, err := exact.Solve(g)
	if err != nil {
		panic(err)
	}
	fmt.Printf("cyclic %v, converged %v\n", res.Cyclic, res.Converged)
	fmt.Printf("variance of a: %.4f by message passing, %.4f exactly\n", g.Marginal(x[0]).Variance(), sol.Marginals[x[0]].Variance())
	// Output:
	// cyclic true, converged true
	// variance of a: 0.4472 by message passing, 0.5000 exactly
}
