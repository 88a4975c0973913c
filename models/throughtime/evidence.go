package throughtime

import (
	"errors"
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

// gameEvidence returns the log probability of game k's outcome with each
// player's skill as cavity says (the skill's belief without this game);
// see logOutcome.
func (h *History) gameEvidence(k int, cavity func(*slot) messages.Gaussian) (float64, error) {
	g := &h.games[k]
	if h.margins != nil {
		// A margin game's graph is a tree that one run from the cavities
		// solves.
		if err := h.runGraph(k, cavity); err != nil {
			return 0, err
		}
		return h.graphLogEvidence(k)
	}
	sizes, ranks, weights := []int{1, 1}, []int(nil), [][]float64(nil)
	if g.drawn {
		ranks = []int{0, 0}
	}
	if g.graph >= 0 {
		gg := h.gameGraphs[g.graph]
		sizes, ranks, weights = gg.sizes, gg.ranks, gg.weights
	}
	offset := make([]int32, len(sizes))
	for j := 1; j < len(sizes); j++ {
		offset[j] = offset[j-1] + int32(sizes[j-1])
	}
	lz, err := h.logOutcome(sizes, func(j, i int) (messages.Gaussian, float64, error) {
		sl := &h.slots[g.slot+offset[j]+int32(i)]
		return cavity(sl), h.players[h.skills[sl.skill].player].prior.Beta, nil
	}, ranks, weights)
	if err != nil {
		return 0, gameError(int(g.input), "%w", err)
	}
	return lz, nil
}

// hasGraphEvidence reports whether game k's evidence is that of its factor
// graph run from the cavities (every game of a history with learned
// margins, and a game of three or more teams: see logOutcome) rather than
// the two-team closed form.
func (h *History) hasGraphEvidence(k int) bool {
	g := &h.games[k]
	return g.graph >= 0 && (h.margins != nil || len(h.gameGraphs[g.graph].sizes) > 2)
}

// skillFunc gives player i of team j's skill and performance noise β.
type skillFunc func(j, i int) (messages.Gaussian, float64, error)

// logOutcome returns the log probability of an outcome (ranks, nil for the
// listed order; weights, nil for 1) of teams of the given sizes whose
// players' skills are the independent Gaussians skill gives.
//
// With two teams it is exact: the performance difference of the better
// team and the worse is d ~ N(Σ_better wμ − Σ_worse wμ, Σ w²(σ² + β²)),
// and the outcome has log Φ((μ_d − ε)/σ_d) for a win, log P(|d| ≤ ε) for
// a draw. With more teams it is the expectation-propagation evidence of
// the game's own graph (trueskill), from those skills; the reference
// package multiplies the adjacent pairs' probabilities instead, which is
// another approximation.
func (h *History) logOutcome(sizes []int, skill skillFunc, ranks []int, weights [][]float64) (float64, error) {
	lz, err := h.logOutcome1(sizes, h.absolute(sizes, weights, skill), ranks, weights)
	if err != nil {
		return 0, numeric(err)
	}
	return checkLog(lz)
}

// checkLog returns a log probability, or ErrNumerical if it is not one: a
// probability's log is at most 0 (up to rounding); −Inf is an outcome
// float64 cannot tell from impossible, and anything else the inputs' range
// has lost.
func checkLog(lz float64) (float64, error) {
	if l := messages.ClampLogProbability(lz); messages.IsFinite(l) {
		return l, nil
	}
	return 0, fmt.Errorf("throughtime: log probability %v out of float64's reach: %w", lz, ErrNumerical)
}

// numeric returns err as an ErrNumerical unless it wraps ErrInput or
// ErrNumerical already: the engine's other errors (a message or factor
// parameter float64 cannot hold, or a mass that underflowed to zero and
// so says ErrImpossible, which stays wrapped inside) mean an answer
// float64 cannot carry. A tie the model rules out is refused before any
// graph runs (checkGame).
func numeric(err error) error {
	if err == nil || errors.Is(err, ErrInput) || errors.Is(err, ErrNumerical) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrNumerical, err)
}

// logOutcome1 is logOutcome before its checks.
func (h *History) logOutcome1(sizes []int, skill skillFunc, ranks []int, weights [][]float64) (float64, error) {
	if len(sizes) == 2 {
		better, worse := 0, 1
		if ranks != nil && ranks[1] < ranks[0] {
			better, worse = 1, 0
		}
		mu, sd, eps, err := h.difference(sizes, skill, weights, better, worse)
		if err != nil {
			return 0, err
		}
		if ranks != nil && ranks[0] == ranks[1] {
			return messages.LogWithinMass(mu/sd, eps/sd), nil
		}
		return messages.LogNormCDF((mu - eps) / sd), nil
	}
	return h.graphLogOutcome(sizes, skill, ranks, weights)
}

// difference returns the mean and standard deviation of the performance
// difference of teams j and k (weights applied) and their draw margin
// ε = Φ⁻¹((p+1)/2)·√(Σβ²) over both teams' players.
func (h *History) difference(sizes []int, skill skillFunc, weights [][]float64, j, k int) (mu, sd, eps float64, err error) {
	var v, betas float64
	for _, side := range []struct {
		j    int
		sign float64
	}{{j, 1}, {k, -1}} {
		for i := range sizes[side.j] {
			s, beta, err := skill(side.j, i)
			if err != nil {
				return 0, 0, 0, err
			}
			w := 1.0
			if weights != nil {
				w = weights[side.j][i]
			}
			mu += side.sign * w * s.Mean()
			v += w * w * (s.Variance() + beta*beta)
			betas += beta * beta
		}
	}
	sd = math.Sqrt(v)
	if !(sd > 0) || math.IsInf(sd, 1) || !messages.IsFinite(mu) {
		return 0, 0, 0, fmt.Errorf("throughtime: performance difference N(%v, %v): %w", mu, v, ErrInput)
	}
	return mu, sd, trueskill.DrawMargin(h.p.DrawProbability, math.Sqrt(betas), 1), nil
}

// offset is what a game's skills need added to their means (held relative
// to Params.Mu) for its outcome's probability: 0 when every team's weights
// sum to the same, so that μ₀ cancels from every difference of team
// performances and the game is best computed near 0, and μ₀ otherwise.
func (h *History) offset(sizes []int, weights [][]float64) float64 {
	total := func(j int) float64 {
		if weights == nil {
			return float64(sizes[j])
		}
		var s float64
		for _, w := range weights[j] {
			s += w
		}
		return s
	}
	for j := 1; j < len(sizes); j++ {
		if total(j) != total(0) {
			return h.p.Mu
		}
	}
	return 0
}

// absolute returns skill with each mean moved by the game's offset.
func (h *History) absolute(sizes []int, weights [][]float64, skill skillFunc) skillFunc {
	off := h.offset(sizes, weights)
	if off == 0 {
		return skill
	}
	return func(j, i int) (messages.Gaussian, float64, error) {
		s, beta, err := skill(j, i)
		return s.Shift(off), beta, err
	}
}
