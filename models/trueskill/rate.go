package trueskill

import (
	"context"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
)

// Result is the outcome of rating a match.
type Result struct {
	// Ratings are the posterior ratings, in the caller's team and player order.
	Ratings [][]Rating `json:"ratings"`
	// LogEvidence is the log probability of the observed outcome given the
	// ratings before the game (with τ applied).
	LogEvidence float64 `json:"log_evidence"`
	// Iterations counts the passes over the chain of team differences (0 for
	// two teams, where one pass is exact).
	Iterations int `json:"iterations"`
	// Converged is false if the chain hit Params.MaxIterations first.
	Converged bool `json:"converged"`
	// ClosedForm reports that the two-team closed form was used.
	ClosedForm bool `json:"closed_form"`
}

// Rate updates the ratings of every player in m. Two-team matches use the
// closed form of the update (the same numbers as the factor graph, which is
// then a tree with one approximate factor); matches of three or more teams
// run the Figure 1 graph. ctx cancels the iteration of large games.
func (p Params) Rate(ctx context.Context, m Match) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	if err := m.validate(); err != nil {
		return Result{}, err
	}
	if err := p.checkPairs(m); err != nil {
		return Result{}, err
	}
	if len(m.Teams) == 2 {
		return p.rateTwoTeams(m), nil
	}
	return p.RateGraph(ctx, m)
}

// checkPairs rejects a draw between adjacent teams whose margin is 0, and
// teams that took no part (all weights 0) except one facing a single
// opponent: such a team's performance is exactly 0, and between two other
// teams it can make the ranking impossible (0 > t + ε and t > 0 + ε).
func (p Params) checkPairs(m Match) error {
	order := m.order()
	for j := range m.Teams {
		if !m.played(j) && (len(m.Teams) > 2 || !m.played(1-j)) {
			return inputErr("Weights", ErrZeroWeights, 0, j)
		}
	}
	for k := 0; k+1 < len(order); k++ {
		if m.drawn(order, k) && p.Margin(len(m.Teams[order[k]]), len(m.Teams[order[k+1]])) == 0 {
			return inputErr("Ranks", ErrDrawMargin, float64(m.Ranks[order[k]]), order[k+1])
		}
	}
	return nil
}

// RateGraph rates m by running the factor graph, whatever its size.
func (p Params) RateGraph(ctx context.Context, m Match) (Result, error) {
	gm, err := p.NewGame(m)
	if err != nil {
		return Result{}, err
	}
	res, err := gm.Run(ctx)
	if err != nil {
		return Result{}, err
	}
	lz, err := gm.LogEvidence()
	if err != nil {
		return Result{}, err
	}
	return Result{Ratings: gm.Ratings(), LogEvidence: lz, Iterations: res.Iterations, Converged: res.Converged}, nil
}

// rateTwoTeams is the exact update of a two-team match. With teams A (ranked
// first) and B, weights w and dynamics τ (σ² ← σ² + τ²), the difference
// d = t_A − t_B has prior N(μ_d, c²), μ_d = Σ_A wμ − Σ_B wμ,
// c² = Σ w²(σ² + β²). Truncating it to d > ε (or |d| ≤ ε for a draw) gives
// V and W at (μ_d/c, ε/c), and Gaussian conditioning through
// Cov(s_i, d) = ±w_i σ_i² gives
//
//	μ_i' = μ_i ± w_i σ_i²/c · V,   σ_i'² = σ_i² (1 − w_i² σ_i²/c² · W),
//
// the rating page's formulas (../shared/seeds) extended to teams, weights and
// draws. The evidence is Φ((μ_d − ε)/c), or the mass of [−ε, ε].
func (p Params) rateTwoTeams(m Match) Result {
	order := m.order()
	a, b := order[0], order[1]
	var mu, c2 float64
	for k, j := range []int{a, b} {
		sign := 1.0
		if k == 1 {
			sign = -1
		}
		for i, r := range m.Teams[j] {
			w := m.weight(j, i)
			mu += sign * w * r.Mu
			c2 += w * w * (r.Sigma*r.Sigma + p.Tau*p.Tau + p.Beta*p.Beta)
		}
	}
	c := math.Sqrt(c2)
	eps := p.Margin(len(m.Teams[a]), len(m.Teams[b]))
	var tr messages.Truncation
	var lz float64
	if m.drawn(order, 0) {
		tr = messages.Within(mu/c, eps/c)
		lz = messages.LogWithinMass(mu/c, eps/c)
	} else {
		tr = messages.GreaterThan(mu/c, eps/c)
		lz = messages.LogNormCDF(mu/c - eps/c)
	}
	out := make([][]Rating, len(m.Teams))
	for k, j := range []int{a, b} {
		sign := 1.0
		if k == 1 {
			sign = -1
		}
		out[j] = make([]Rating, len(m.Teams[j]))
		for i, r := range m.Teams[j] {
			w := m.weight(j, i)
			v := r.Sigma*r.Sigma + p.Tau*p.Tau
			// 1 − x·W/c², x = w²σ², written as (rest + x·(1 − W))/c² with
			// rest = c² − x, so that an upset (W → 1) of a player who carries
			// most of the uncertainty keeps its accuracy.
			x := w * w * v
			rest := c2 - x
			if x > rest {
				rest = p.varianceExcept(m, a, b, j, i)
			}
			shrink := (rest + x*tr.OneMinusW) / c2
			out[j][i] = Rating{Mu: r.Mu + sign*w*v/c*tr.V, Sigma: math.Sqrt(v * shrink)}
		}
	}
	return Result{Ratings: out, LogEvidence: lz, Converged: true, ClosedForm: true}
}

// varianceExcept sums the terms of c² other than player i of team j's w²σ²
// (including that player's own w²β²), without the subtraction.
func (p Params) varianceExcept(m Match, a, b, j, i int) float64 {
	var sum float64
	for _, tj := range []int{a, b} {
		for ti, r := range m.Teams[tj] {
			w := m.weight(tj, ti)
			if tj == j && ti == i {
				sum += w * w * p.Beta * p.Beta
				continue
			}
			sum += w * w * (r.Sigma*r.Sigma + p.Tau*p.Tau + p.Beta*p.Beta)
		}
	}
	return sum
}

// Rate1v1 is Rate for two players: it returns the new ratings of a winner
// and a loser, or of two players who drew.
func (p Params) Rate1v1(winner, loser Rating, drawn bool) (Rating, Rating, error) {
	ranks := []int{0, 1}
	if drawn {
		ranks[1] = 0
	}
	res, err := p.Rate(context.Background(), Match{Teams: [][]Rating{{winner}, {loser}}, Ranks: ranks})
	if err != nil {
		return Rating{}, Rating{}, err
	}
	return res.Ratings[0][0], res.Ratings[1][0], nil
}

// MustRate is Rate for inputs known to be valid (tests, examples); it panics
// on error.
func (p Params) MustRate(m Match) Result {
	res, err := p.Rate(context.Background(), m)
	if err != nil {
		panic(fmt.Sprintf("trueskill.MustRate: %v", err))
	}
	return res
}
