package throughtime

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/factors"
	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
	"github.com/skillgraph/skillgraph/schedules"
)

// Predictive returns a player's skill for a game about to be played at
// time t: Posterior(name, t) for a player the history has seen, and the
// player's prior (WithPriors, else Params) for one it has not. It also
// returns the player's β.
func (h *History) Predictive(name string, t float64) (Point, float64, error) {
	pt, err := h.Posterior(name, t)
	if errors.Is(err, ErrPlayer) {
		if !messages.IsFinite(t) {
			return Point{}, 0, fmt.Errorf("throughtime: time %v: %w", t, ErrParameter)
		}
		pr := h.p.player(h.priors, name)
		return Point{Time: t, Mu: pr.Mu, Sigma: pr.Sigma}, pr.Beta, nil
	}
	if err != nil {
		return Point{}, 0, err
	}
	return pt, h.players[name].prior.Beta, nil
}

// Predict returns the probabilities that team a beats team
// b, that they draw, and that b beats a, in a game between the two alone
// at time t, from each player's Predictive skill at t: with the
// performance difference d = Σ_a p − Σ_b p ~ N(Σ_a μ − Σ_b μ, Σ(σ² + β²))
// over both teams and the draw margin ε = Φ⁻¹((p+1)/2)·√(Σβ²),
// win = Φ((E d − ε)/sd d), draw = P(|d| ≤ ε), loss = Φ((−E d − ε)/sd d).
// The three sum to 1. The Prediction is trueskill's, whose fields elo's
// and scorebased's share.
func (h *History) Predict(t float64, a, b []string) (trueskill.Prediction, error) {
	g := Game{Time: t, Teams: [][]string{a, b}}
	if err := checkGame(&g, 0, t, true); err != nil {
		return trueskill.Prediction{}, fmt.Errorf("throughtime: Predict: %w", err)
	}
	mu, sd, eps, err := h.difference(&g, 0, 1)
	if err != nil {
		return trueskill.Prediction{}, err
	}
	pr := trueskill.Prediction{Win: messages.NormCDF((mu - eps) / sd), Loss: messages.NormCDF((-mu - eps) / sd)}
	if eps > 0 {
		pr.Draw = math.Exp(messages.LogWithinMass(mu/sd, eps/sd))
	}
	return pr, nil
}

// LogProbability returns the log probability of game g's outcome (its
// teams, ranks and weights) in a game played at g.Time, from each
// player's Predictive skill then: the one-step-ahead log probability when
// the history holds only earlier games. With two teams it is exact (see
// Predict); with more it is the expectation-propagation
// evidence of the game's graph (trueskill.Params.Declare) on independent
// Gaussian skills, as the history's own evidence is.
func (h *History) LogProbability(g Game) (float64, error) {
	if err := checkGame(&g, 0, g.Time, h.p.DrawProbability > 0); err != nil {
		return 0, fmt.Errorf("throughtime: LogProbability: %w", err)
	}
	if len(g.Teams) == 2 {
		better, worse := 0, 1
		if g.Ranks != nil && g.Ranks[1] < g.Ranks[0] {
			better, worse = 1, 0
		}
		mu, sd, eps, err := h.difference(&g, better, worse)
		if err != nil {
			return 0, err
		}
		if g.Ranks != nil && g.Ranks[0] == g.Ranks[1] {
			return messages.LogWithinMass(mu/sd, eps/sd), nil
		}
		return messages.LogNormCDF((mu - eps) / sd), nil
	}
	b := graph.NewBuilder("prediction")
	c := trueskill.Contest{Skills: make([][]graph.VarID, len(g.Teams)), Ranks: g.Ranks, Weights: g.Weights, Betas: make([][]float64, len(g.Teams))}
	var priors []schedules.Schedule
	for j, team := range g.Teams {
		for _, name := range team {
			pt, beta, err := h.Predictive(name, g.Time)
			if err != nil {
				return 0, err
			}
			v := b.AddVariable("")
			priors = append(priors, schedules.Step(b.AddFactor(factors.NewPrior(pt.Mu, pt.Sigma*pt.Sigma), "", v), 0))
			c.Skills[j] = append(c.Skills[j], v)
			c.Betas[j] = append(c.Betas[j], beta)
		}
	}
	nd, err := h.ts.Declare(b, c)
	if err != nil {
		return 0, fmt.Errorf("throughtime: LogProbability: %w", err)
	}
	gr, err := b.Build()
	if err != nil {
		return 0, fmt.Errorf("throughtime: LogProbability: %w", err)
	}
	if _, err := schedules.Run(context.Background(), gr, schedules.Sequence(schedules.Sequence(priors...), h.ts.Schedule(nd))); err != nil {
		return 0, fmt.Errorf("throughtime: LogProbability: %w", err)
	}
	lz, err := gr.LogEvidence()
	if err != nil {
		return 0, fmt.Errorf("throughtime: LogProbability: %w", err)
	}
	return lz, nil
}

// difference returns the mean and standard deviation of the performance
// difference of teams j and k of g (weights applied) at g.Time, and their
// draw margin.
func (h *History) difference(g *Game, j, k int) (mu, sd, eps float64, err error) {
	var v, betas float64
	for _, side := range []struct {
		j    int
		sign float64
	}{{j, 1}, {k, -1}} {
		for i, name := range g.Teams[side.j] {
			pt, beta, err := h.Predictive(name, g.Time)
			if err != nil {
				return 0, 0, 0, err
			}
			w := 1.0
			if g.Weights != nil {
				w = g.Weights[side.j][i]
			}
			mu += side.sign * w * pt.Mu
			v += w * w * (pt.Sigma*pt.Sigma + beta*beta)
			betas += beta * beta
		}
	}
	sd = math.Sqrt(v)
	if !(sd > 0) || math.IsInf(sd, 1) || !messages.IsFinite(mu) {
		return 0, 0, 0, fmt.Errorf("throughtime: performance difference N(%v, %v) at time %v: %w", mu, v, g.Time, ErrGame)
	}
	return mu, sd, trueskill.DrawMargin(h.p.DrawProbability, math.Sqrt(betas), 1), nil
}
