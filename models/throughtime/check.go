package throughtime

import (
	"fmt"
	"math"

	"github.com/skillgraph/skillgraph/messages"
	"github.com/skillgraph/skillgraph/models/trueskill"
)

func (p Params) validate() error {
	for _, c := range []struct {
		name string
		v    float64
		ok   bool
	}{
		{"Mu", p.Mu, messages.IsFinite(p.Mu)},
		{"Sigma", p.Sigma, p.Sigma > 0 && !math.IsInf(p.Sigma, 1)},
		{"Beta", p.Beta, p.Beta > 0 && !math.IsInf(p.Beta, 1)},
		{"Gamma", p.Gamma, p.Gamma >= 0 && !math.IsInf(p.Gamma, 1)},
		{"DrawProbability", p.DrawProbability, p.DrawProbability >= 0 && p.DrawProbability < 1},
	} {
		if !c.ok {
			return fmt.Errorf("throughtime: Params.%s = %v: %w", c.name, c.v, ErrParameter)
		}
	}
	return nil
}

func (pl Player) validate(name string) error {
	switch {
	case !messages.IsFinite(pl.Mu), !(pl.Sigma > 0) || math.IsInf(pl.Sigma, 1),
		!(pl.Beta >= 0) || math.IsInf(pl.Beta, 1), !(pl.Gamma >= 0) || math.IsInf(pl.Gamma, 1):
		return fmt.Errorf("throughtime: player %q: %+v: %w", name, pl, ErrParameter)
	}
	return nil
}

// maxMeanSpread bounds how far a mean the history computes with may lie
// from 0, in units of the prior σ it is compared with. Means are held
// relative to Params.Mu; a player whose prior mean lies further than this
// from Params.Mu, or a game whose teams' weights differ (so that Params.Mu
// does not cancel from its performance differences), would put a skill's
// mean where a float64's spacing, 2⁻⁵² of it, exceeds about 1e-9 of the
// skill's σ, and the answer would be rounding noise. Such inputs are
// refused rather than answered wrongly, with an error that wraps
// messages.ErrNumerical beside ErrParameter or ErrGame.
const maxMeanSpread = 1 << 22

// meanInRange reports whether a mean offset mu is within maxMeanSpread
// prior standard deviations sigma of 0.
func meanInRange(mu, sigma float64) bool { return math.Abs(mu) <= maxMeanSpread*sigma }

// player returns name's prior, β and γ: its own if given, else p's.
func (p Params) player(priors map[string]Player, name string) Player {
	if pl, ok := priors[name]; ok {
		return pl
	}
	return Player{Mu: p.Mu, Sigma: p.Sigma, Beta: p.Beta, Gamma: p.Gamma}
}

// trueskill returns the parameters of a game: β and the draw probability
// (players' own β come with each contest), its difference chain run to
// 1e-6 as the reference's inner loop is.
func (p Params) trueskill() trueskill.Params {
	return trueskill.Params{Mu: p.Mu, Sigma: p.Sigma, Beta: p.Beta, DrawProbability: p.DrawProbability}
}

// checkGame reports a game (index k, at time t) that cannot be declared:
// fewer than two teams, an empty team, a player twice, a non-finite time,
// ranks or weights of the wrong shape, a negative weight, or a tie of two
// teams whose draw margin is 0 (the draw probability is 0, or every
// player of both teams has β = 0), which has probability 0.
func (h *History) checkGame(g *Match, k int, t float64) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("throughtime: game %d: %s: %w", k, fmt.Sprintf(format, a...), ErrGame)
	}
	if !messages.IsFinite(t) {
		return bad("time %v", t)
	}
	if len(g.Teams) < 2 {
		return bad("%d teams, want at least 2", len(g.Teams))
	}
	if g.Ranks != nil && len(g.Ranks) != len(g.Teams) {
		return bad("%d ranks for %d teams", len(g.Ranks), len(g.Teams))
	}
	if g.Weights != nil && len(g.Weights) != len(g.Teams) {
		return bad("%d weight rows for %d teams", len(g.Weights), len(g.Teams))
	}
	noise := func(j int) float64 {
		var s float64
		for _, name := range g.Teams[j] {
			b := h.p.player(h.priors, name).Beta
			s += b * b
		}
		return s
	}
	if g.Ranks != nil {
		for j := range g.Ranks {
			for i := range j {
				if g.Ranks[i] != g.Ranks[j] {
					continue
				}
				if h.margins != nil {
					continue // each player's own margin
				}
				if h.p.DrawProbability == 0 {
					return bad("teams %d and %d tie, but the draw probability is 0 (set Params.DrawProbability)", i, j)
				}
				if noise(i)+noise(j) == 0 {
					return bad("teams %d and %d tie, but their players' β are 0, so their draw margin is 0", i, j)
				}
			}
		}
	}
	// A map for large games; for small ones (every 1v1) comparing each
	// pair costs less than making one.
	var seen map[string]bool
	n := 0
	for _, team := range g.Teams {
		n += len(team)
	}
	if n > 16 {
		seen = make(map[string]bool, n)
	}
	twice := func(j, i int, name string) bool {
		if seen != nil {
			if seen[name] {
				return true
			}
			seen[name] = true
			return false
		}
		for jj := range j + 1 {
			for ii, other := range g.Teams[jj] {
				if (jj < j || ii < i) && other == name {
					return true
				}
			}
		}
		return false
	}
	for j, team := range g.Teams {
		if len(team) == 0 {
			return bad("team %d is empty", j)
		}
		for i, name := range team {
			if twice(j, i, name) {
				return bad("player %q appears twice", name)
			}
			if g.Weights != nil {
				if len(g.Weights[j]) != len(team) {
					return bad("team %d: %d weights for %d players", j, len(g.Weights[j]), len(team))
				}
				if w := g.Weights[j][i]; !(w >= 0) || math.IsInf(w, 1) {
					return bad("team %d player %d: weight %v", j, i, w)
				}
			}
		}
	}
	if !meanInRange(h.p.Mu, h.p.Sigma) && h.offset(sizesOf(g), g.Weights) != 0 {
		return fmt.Errorf("throughtime: game %d: its teams' weights differ, so the prior mean %v does not cancel from its performance differences, and it is beyond float64's precision at σ = %v (rate skills relative to a mean near 0): %w (%w)", k, h.p.Mu, h.p.Sigma, ErrGame, messages.ErrNumerical)
	}
	return nil
}
