package throughtime

import (
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// Predictive returns a player's skill for a game about to be played at
// time t: Posterior(name, t) for a player the history has seen, and the
// player's prior (WithPriors, else Params) for one it has not. It also
// returns the player's β.
func (h *History) Predictive(name string, t float64) (Point, float64, error) {
	m, beta, err := h.predictive1(name, t)
	if err != nil {
		return Point{}, 0, err
	}
	pt, err := h.point(t, m)
	return pt, beta, err
}

// predictive1 is Predictive's belief, relative to Params.Mu, and β.
func (h *History) predictive1(name string, t float64) (messages.Gaussian, float64, error) {
	m, err := h.posterior(name, t)
	if errors.Is(err, ErrPlayer) {
		if !messages.IsFinite(t) {
			return messages.Gaussian{}, 0, fmt.Errorf("throughtime: time %v: %w", t, ErrInput)
		}
		pr := h.p.player(h.priors, name)
		return messages.NewGaussian(pr.Mu-h.p.Mu, pr.Sigma*pr.Sigma), pr.Beta, nil
	}
	if err != nil {
		return messages.Gaussian{}, 0, err
	}
	if !m.IsProper() || !m.IsFinite() || !messages.IsFinite(m.Variance()) {
		return messages.Gaussian{}, 0, fmt.Errorf("throughtime: %q at time %v: %v: %w", name, t, m, ErrInput)
	}
	return m, h.players[h.index[name]].prior.Beta, nil
}

// Predict returns the probabilities that team a beats team
// b, that they draw, and that b beats a, in a game between the two alone
// at time t, from each player's Predictive skill at t: with the
// performance difference d = Σ_a p − Σ_b p ~ N(Σ_a μ − Σ_b μ, Σ(σ² + β²))
// over both teams and the draw margin ε = Φ⁻¹((p+1)/2)·√(Σβ²),
// win = Φ((E d − ε)/sd d), draw = P(|d| ≤ ε), loss = Φ((−E d − ε)/sd d).
// The three sum to 1. The Prediction is trueskill's, whose fields elo's
// and scorebased's share. With learned draw margins (WithDrawMargins) the
// teams must be single players, and each outcome's probability is that of
// its region of d given both players' margins at t (LogProbability's),
// scaled to make the three sum to 1: where the margins may sum below 0
// the regions of a win and a loss overlap, and the three sum to more.
func (h *History) Predict(t float64, a, b []string) (trueskill.Prediction, error) {
	g := Match{Time: t, Teams: [][]string{a, b}}
	if err := h.checkGame(&g, 0, t); err != nil {
		return trueskill.Prediction{}, fmt.Errorf("throughtime: Predict: %w", err)
	}
	if h.margins != nil {
		return h.predictMargins(&g)
	}
	sizes := sizesOf(&g)
	mu, sd, eps, err := h.difference(sizes, h.absolute(sizes, g.Weights, h.predictive(&g)), g.Weights, 0, 1)
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
func (h *History) LogProbability(g Match) (float64, error) {
	if err := h.checkGame(&g, 0, g.Time); err != nil {
		return 0, fmt.Errorf("throughtime: LogProbability: %w", err)
	}
	var lz float64
	var err error
	if h.margins != nil {
		lz, err = h.marginOutcome(&g, g.Ranks)
	} else {
		lz, err = h.logOutcome(sizesOf(&g), h.predictive(&g), g.Ranks, g.Weights)
	}
	if err != nil {
		return 0, fmt.Errorf("throughtime: LogProbability: %w", err)
	}
	return lz, nil
}

// sizesOf returns the sizes of g's teams.
func sizesOf(g *Match) []int {
	sizes := make([]int, len(g.Teams))
	for j, team := range g.Teams {
		sizes[j] = len(team)
	}
	return sizes
}

// predictive gives the skills of g's players at g.Time (Predictive).
func (h *History) predictive(g *Match) skillFunc {
	return func(j, i int) (messages.Gaussian, float64, error) {
		return h.predictive1(g.Teams[j][i], g.Time)
	}
}
