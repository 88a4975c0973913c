// Package testprograms holds graphs and schedules compiled by package
// compile for its tests (programs_gen.go), and the graphs' builders.
package testprograms

import (
	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/schedules"
)

//go:generate cp testdata/programs_stub.go.txt programs_gen.go
//go:generate go test -run TestGeneratedIsCurrent -update

// Figure1 builds the TrueSkill paper's Figure 1 game directly from factors
// (teams {1}, {2, 3}, {4}; team 1 first, teams 2 and 3 drawn) with its
// schedule: priors, performances and team sums down, a loop over the
// difference chain, and back up. mu and v are the four skills' prior means
// and variances.
func Figure1(mu, v [4]float64) (*graph.Graph, schedules.Schedule, error) {
	const beta2, eps = 4.1667 * 4.1667, 0.74
	b := graph.NewBuilder("figure1")
	var s, p [4]graph.VarID
	for i := range s {
		s[i] = b.AddVariable("s")
	}
	for i := range p {
		p[i] = b.AddVariable("p")
	}
	t1, t2, t3 := b.AddVariable("t1"), b.AddVariable("t2"), b.AddVariable("t3")
	d1, d2 := b.AddVariable("d1"), b.AddVariable("d2")
	step := schedules.Step
	var down, up []schedules.Schedule
	for i := range s {
		f := b.AddFactor(factors.NewPrior(mu[i], v[i]), "", s[i])
		down = append(down, step(f, 0))
	}
	var perf [4]graph.FactorID
	for i := range p {
		perf[i] = b.AddFactor(factors.NewLikelihood(beta2), "", p[i], s[i])
		down = append(down, step(perf[i], 0))
	}
	team1 := b.AddFactor(factors.NewWeightedSum(1), "", t1, p[0])
	team2 := b.AddFactor(factors.NewWeightedSum(1, 0.5), "", t2, p[1], p[2])
	team3 := b.AddFactor(factors.NewWeightedSum(1), "", t3, p[3])
	down = append(down, step(team1, 0), step(team2, 0), step(team3, 0))
	diff1 := b.AddFactor(factors.NewDifference(), "", d1, t1, t2)
	diff2 := b.AddFactor(factors.NewDifference(), "", d2, t2, t3)
	win := b.AddFactor(factors.NewGreaterThan(eps), "", d1)
	draw := b.AddFactor(factors.NewWithin(eps), "", d2)
	g, err := b.Build()
	if err != nil {
		return nil, nil, err
	}
	chain := schedules.Loop(schedules.Sequence(
		step(diff1, 0), step(win, 0), step(diff1, 2),
		step(diff2, 0), step(draw, 0), step(diff2, 1),
	), schedules.Tolerance(1e-9), schedules.Name("chain"))
	up = append(up, step(diff1, 1), step(diff2, 2),
		step(team1, 1), step(team2, 1), step(team2, 2), step(team3, 1))
	for i := range perf {
		up = append(up, step(perf[i], 1))
	}
	return g, schedules.Sequence(schedules.Sequence(down...), chain, schedules.Sequence(up...)), nil
}

// Nested builds a graph with a three-term weighted sum, a one-term scaling,
// both truncations and a likelihood, and a damped loop around a nested
// loop: y = 2·x1 − 0.5·x2 + x3, z ~ N(y, 1), z > margin; u = 3·x1,
// |u| ≤ width.
func Nested(mu, v [3]float64, margin, width, damping float64) (*graph.Graph, schedules.Schedule, error) {
	b := graph.NewBuilder("nested")
	x := [3]graph.VarID{b.AddVariable("x1"), b.AddVariable("x2"), b.AddVariable("x3")}
	y, z, u := b.AddVariable("y"), b.AddVariable("z"), b.AddVariable("u")
	step := schedules.Step
	var priors []schedules.Schedule
	for i := range x {
		priors = append(priors, step(b.AddFactor(factors.NewPrior(mu[i], v[i]), "", x[i]), 0))
	}
	sum := b.AddFactor(factors.NewWeightedSum(2, -0.5, 1), "", y, x[0], x[1], x[2])
	lik := b.AddFactor(factors.NewLikelihood(1), "", z, y)
	gt := b.AddFactor(factors.NewGreaterThan(margin), "", z)
	scale := b.AddFactor(factors.NewWeightedSum(3), "", u, x[0])
	within := b.AddFactor(factors.NewWithin(width), "", u)
	g, err := b.Build()
	if err != nil {
		return nil, nil, err
	}
	inner := schedules.Loop(schedules.Sequence(step(lik, 0), step(gt, 0), step(lik, 1)),
		schedules.Tolerance(1e-10), schedules.MaxIterations(5), schedules.Name("inner"))
	outer := schedules.Loop(schedules.Sequence(
		step(sum, 0), inner, step(sum, 1), step(sum, 2), step(sum, 3),
		step(scale, 0), step(within, 0), step(scale, 1),
	), schedules.Damping(damping), schedules.Tolerance(1e-8), schedules.MaxIterations(200), schedules.Name("outer"))
	return g, schedules.Sequence(schedules.Sequence(priors...), outer), nil
}
