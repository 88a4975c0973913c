package throughtime

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// gameEvidence returns the log probability of game k's outcome with each
// player's skill N as cavity(skill, its performance factor) says (the
// skill's belief without this game).
//
// With two teams it is exact: the performance difference of the better
// team and the worse is d ~ N(Σ_better wμ − Σ_worse wμ, Σ w²(σ² + β²)),
// and the outcome has log Φ((μ_d − ε)/σ_d) for a win, log P(|d| ≤ ε) for
// a draw. With more teams it is the expectation-propagation evidence of
// the game's own graph (trueskill), from those skills; the reference
// package multiplies the adjacent pairs' probabilities instead, which is
// another approximation.
func (h *History) gameEvidence(k int, cavity func(v graph.VarID, f graph.FactorID) messages.Gaussian) (float64, error) {
	d := &h.games[k]
	skill := func(j, i int) messages.Gaussian {
		return cavity(d.skills[j][i], d.nodes.PerformanceFactors[j][i])
	}
	weight := func(j, i int) float64 {
		if d.weights == nil {
			return 1
		}
		return d.weights[j][i]
	}
	if len(d.skills) == 2 {
		better, worse := 0, 1
		if d.ranks != nil && d.ranks[1] < d.ranks[0] {
			better, worse = 1, 0
		}
		var mu, v, betas float64
		for _, side := range []struct {
			j    int
			sign float64
		}{{better, 1}, {worse, -1}} {
			for i := range d.skills[side.j] {
				c, w, beta := skill(side.j, i), weight(side.j, i), d.betas[side.j][i]
				mu += side.sign * w * c.Mean()
				v += w * w * (c.Variance() + beta*beta)
				betas += beta * beta
			}
		}
		eps := trueskill.DrawMargin(h.p.DrawProbability, math.Sqrt(betas), 1)
		sd := math.Sqrt(v)
		if !(sd > 0) {
			return 0, fmt.Errorf("throughtime: game %d: performance difference of variance %v: %w", k, v, ErrGame)
		}
		if d.ranks != nil && d.ranks[0] == d.ranks[1] {
			return messages.LogWithinMass(mu/sd, eps/sd), nil
		}
		return messages.LogNormCDF((mu - eps) / sd), nil
	}
	b := graph.NewBuilder("game")
	c := trueskill.Contest{Skills: make([][]graph.VarID, len(d.skills)), Ranks: d.ranks, Weights: d.weights, Betas: d.betas}
	var priors []schedules.Schedule
	for j := range d.skills {
		for i := range d.skills[j] {
			s := skill(j, i)
			v := b.AddVariable("")
			priors = append(priors, schedules.Step(b.AddFactor(factors.NewPrior(s.Mean(), s.Variance()), "", v), 0))
			c.Skills[j] = append(c.Skills[j], v)
		}
	}
	nd, err := h.ts.Declare(b, c)
	if err != nil {
		return 0, fmt.Errorf("throughtime: game %d: %w", k, err)
	}
	g, err := b.Build()
	if err != nil {
		return 0, fmt.Errorf("throughtime: game %d: %w", k, err)
	}
	if _, err := schedules.Run(context.Background(), g, schedules.Sequence(schedules.Sequence(priors...), h.ts.Schedule(nd))); err != nil {
		return 0, fmt.Errorf("throughtime: game %d: %w", k, err)
	}
	lz, err := g.LogEvidence()
	if err != nil {
		return 0, fmt.Errorf("throughtime: game %d: %w", k, err)
	}
	return lz, nil
}
